import type { Command } from "commander";
import { createKey, revokeKey } from "../../services/access/keys.ts";
import { SCOPES, type Scope } from "../../services/access/scopes.ts";
import { DOMAINS, type Domain } from "../../services/core/domains.ts";
import { AppError } from "../../services/core/errors.ts";
import { findPlan, findProjectByName, listApiKeys } from "../../services/store/access.ts";
import { checked, list } from "../options.ts";
import { table } from "../output.ts";
import type { CliRuntime } from "../runtime.ts";

/** `corpus keys create|list|revoke` and `corpus usage <project>`. */
export function addKeysCommands(program: Command, rt: CliRuntime): void {
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
}
