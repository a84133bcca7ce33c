import type { RunResult, Variant } from "./variants.ts";

/** The targets of the issue; missing one is printed plainly, never an exit code. */
export const TARGETS = { pgIngestOverFloor: 2, peakRssBytes: 1.5 * 1024 ** 3 };

const MB = 1024 ** 2;

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface VariantSummary {
  variant: Variant;
  runs: RunResult[];
  medianSeconds: number;
  provisionsPerSecond: number;
  /** The highest peak over the runs: a memory ceiling is about the worst run, not the typical one. */
  peakRssBytes: number;
}

export function summarise(variant: Variant, runs: RunResult[]): VariantSummary {
  const medianSeconds = median(runs.map((r) => r.seconds));
  return {
    variant,
    runs,
    medianSeconds,
    provisionsPerSecond: runs[0]!.provisions / medianSeconds,
    peakRssBytes: Math.max(...runs.map((r) => r.peakRssBytes)),
  };
}

/** A Markdown table, columns padded to their widest cell: readable printed and pasted alike. */
export function markdownTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

/** The figures as a Markdown table, ready to paste into docs/PERFORMANCE.md. */
export function formatTable(summaries: VariantSummary[]): string {
  const ratioOf = (s: VariantSummary) => {
    if (s.variant.method !== "ingest") return "";
    const floor = summaries.find(
      (f) => f.variant.method === "floor" && f.variant.database === s.variant.database,
    );
    return floor ? `${(s.medianSeconds / floor.medianSeconds).toFixed(2)}×` : "";
  };
  return markdownTable(
    ["variant", "median s", "min–max s", "provisions/s", "peak RSS MB", "ingest/floor"],
    summaries.map((s) => {
      const seconds = s.runs.map((r) => r.seconds);
      return [
        s.variant.label,
        s.medianSeconds.toFixed(2),
        `${Math.min(...seconds).toFixed(2)}–${Math.max(...seconds).toFixed(2)}`,
        Math.round(s.provisionsPerSecond).toString(),
        Math.round(s.peakRssBytes / MB).toString(),
        ratioOf(s),
      ];
    }),
  );
}

/** The floor's own breakdown (medians), which says whether parsing or loading dominates. */
export function formatPhases(summaries: VariantSummary[]): string[] {
  return summaries
    .filter((s) => Object.keys(s.runs[0]!.phases).length > 0)
    .map((s) => {
      const phases = Object.keys(s.runs[0]!.phases).map(
        (phase) => `${phase} ${median(s.runs.map((r) => r.phases[phase]!)).toFixed(2)} s`,
      );
      return `${s.variant.label}: ${phases.join(", ")}`;
    });
}

/** One line per target, PASS or FAIL, with the figure it was judged on. */
export function formatTargets(summaries: VariantSummary[]): string[] {
  const find = (method: string, database: string) =>
    summaries.find((s) => s.variant.method === method && s.variant.database === database);
  const lines: string[] = [];
  const pgIngest = find("ingest", "pg");
  const pgFloor = find("floor", "pg");
  if (pgIngest && pgFloor) {
    const ratio = pgIngest.medianSeconds / pgFloor.medianSeconds;
    const pass = ratio <= TARGETS.pgIngestOverFloor;
    lines.push(
      `${pass ? "PASS" : "FAIL"}  full ingest on server Postgres within ${TARGETS.pgIngestOverFloor}× the raw floor: ${ratio.toFixed(2)}×`,
    );
  }
  for (const s of summaries.filter((x) => x.variant.method === "ingest")) {
    const pass = s.peakRssBytes < TARGETS.peakRssBytes;
    lines.push(
      `${pass ? "PASS" : "FAIL"}  peak RSS under 1.5 GB (${s.variant.label}): ${Math.round(s.peakRssBytes / MB)} MB`,
    );
  }
  return lines;
}
