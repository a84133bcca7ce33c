import type { Command } from "commander";
import { canonicalJsonSchema } from "../../ingest/sources/canonical/json-schema.ts";
import { corpusStats } from "../../services/store/stats.ts";
import type { CliRuntime } from "../runtime.ts";

/** `corpus stats`, `corpus schema`, `corpus migrate`: what is loaded, the file format, the schema. */
export function addCorpusCommands(program: Command, rt: CliRuntime): void {
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

  program
    .command("schema")
    .description("Print the JSON Schema of the canonical file format.")
    .action(() => rt.out(JSON.stringify(canonicalJsonSchema(), null, 2)));

  program
    .command("migrate")
    .description("Bring the database schema up to date (every command also does this).")
    .action(async () => rt.withStore(async () => rt.out("Schema up to date.")));
}
