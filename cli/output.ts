import type { GuidesIngestSummary } from "../ingest/guides.ts";
import type { IngestSummary } from "../ingest/pipeline/ingest.ts";

export function formatSummary(summary: IngestSummary): string {
  const { documents: d, provisions: p } = summary;
  return [
    `Ingest run ${summary.runId} finished in ${summary.seconds.toFixed(1)} s.`,
    `  documents:  ${d.total} (${d.created} created, ${d.updated} updated, ${d.unchanged} unchanged${d.stale ? `, ${d.stale} skipped: the store holds a newer snapshot` : ""})`,
    `  provisions: ${p.total} (${p.added} added, ${p.changed} changed, ${p.unchanged} unchanged, ${p.absent} no longer in source)`,
    `  versions written: ${summary.versions}`,
    `  changes recorded for the change log: ${summary.changes}`,
    ...(summary.duplicatesDropped
      ? [`  repeated articles dropped from the source: ${summary.duplicatesDropped}`]
      : []),
    ...(summary.withoutTextDropped
      ? [
          `  articles without any text dropped (headings over numbered sub-articles): ${summary.withoutTextDropped}`,
        ]
      : []),
    statisticsLine(summary.statisticsRefreshed),
  ].join("\n");
}

/** Whether the run refreshed the planner's statistics (migration 033's rule). */
function statisticsLine(refreshed: boolean): string {
  return refreshed
    ? "  planner statistics: refreshed"
    : "  planner statistics: kept (the runs since their last refresh wrote at most 50 provisions plus a tenth of the store)";
}

export function formatGuidesSummary(summary: GuidesIngestSummary): string {
  return [
    `Guides run ${summary.runId} finished in ${summary.seconds.toFixed(1)} s.`,
    ...summary.sources.map(
      (s) =>
        `  ${s.source}@${s.version}: ${s.guides} guides, ${s.citations} citing sections, ${s.stored} provisions cited` +
        (s.unmatchedArticles ? ` (${s.unmatchedArticles} cited articles not loaded)` : ""),
    ),
    `  provisions whose guides field changed: ${summary.provisionsChanged}`,
    statisticsLine(summary.statisticsRefreshed),
  ].join("\n");
}

/** A plain text table: header, then rows, columns padded. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}
