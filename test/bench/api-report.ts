import type { CpuReport } from "./cpu-meter.ts";
import type { LoadSummary } from "./latency.ts";
import { markdownTable, median } from "./report.ts";

/** The target of the issue; missing it is printed plainly, never an exit code. */
export const API_OVER_ENGINE_P50_TARGET = 1.3;

/** One repetition of the measurement phase: the API under load, then the raw engine. */
export interface ApiRun {
  api: LoadSummary;
  engine: LoadSummary;
  /** Absent where /proc cannot be read. */
  apiCpu: CpuReport | undefined;
  engineCpu: CpuReport | undefined;
}

const medianOf = (runs: ApiRun[], pick: (run: ApiRun) => number) => median(runs.map(pick));

export function p50Ratio(runs: ApiRun[]): number {
  return medianOf(runs, (r) => r.api.p50Ms) / medianOf(runs, (r) => r.engine.p50Ms);
}

const ms = (value: number) => value.toFixed(1);
const rate = (value: number) => Math.round(value).toString();

/** Each run, then the medians (each column on its own) and the ratio of the median p50s. */
export function formatSetupTable(runs: ApiRun[]): string {
  const cells = (api: LoadSummary, engine: LoadSummary) => [
    ms(api.p50Ms),
    ms(api.p99Ms),
    rate(api.perSecond),
    ms(engine.p50Ms),
    ms(engine.p99Ms),
    rate(engine.perSecond),
  ];
  const medians = (pick: (run: ApiRun) => LoadSummary): LoadSummary => ({
    p50Ms: medianOf(runs, (r) => pick(r).p50Ms),
    p99Ms: medianOf(runs, (r) => pick(r).p99Ms),
    perSecond: medianOf(runs, (r) => pick(r).perSecond),
    calls: medianOf(runs, (r) => pick(r).calls),
  });
  return markdownTable(
    [
      "run",
      "API p50 ms",
      "API p99 ms",
      "API req/s",
      "engine p50 ms",
      "engine p99 ms",
      "engine calls/s",
      "API p50 / engine p50",
    ],
    [
      ...runs.map((run, i) => [
        `${i + 1}`,
        ...cells(run.api, run.engine),
        `${(run.api.p50Ms / run.engine.p50Ms).toFixed(2)}×`,
      ]),
      [
        "median",
        ...cells(
          medians((r) => r.api),
          medians((r) => r.engine),
        ),
        `${p50Ratio(runs).toFixed(2)}×`,
      ],
    ],
  );
}

/** `baseline` names what the API is compared with: the raw engine, or a raw `_search`. */
export function formatTarget(label: string, runs: ApiRun[], baseline = "the raw engine"): string {
  const ratio = p50Ratio(runs);
  const verdict = ratio <= API_OVER_ENGINE_P50_TARGET ? "met" : "missed";
  return `${label}: API p50 within ${API_OVER_ENGINE_P50_TARGET}× ${baseline} p50: ${ratio.toFixed(2)}× — ${verdict}`;
}

/**
 * CPU milliseconds per call (medians of the runs) by where they were spent, and the share of the
 * machine other work took during each run's window: a run with a large share was disturbed.
 * On PGlite the database runs inside the server process (API) or the benchmark process (engine).
 * With an index engine's node, its JVM gets a column of its own and the baseline row is named for it.
 */
export function formatCpuTable(
  runs: ApiRun[],
  options: { openSearch: boolean; baseline: string } = { openSearch: false, baseline: "raw engine" },
): string | undefined {
  const columns: Array<keyof CpuReport["perCallMs"]> = options.openSearch
    ? ["benchProcess", "server", "openSearch", "postgres"]
    : ["benchProcess", "server", "postgres"];
  const row = (phase: string, reports: CpuReport[]) => {
    const parts = columns.map((part) => median(reports.map((r) => r.perCallMs[part])));
    const total = parts.reduce((sum, ms) => sum + ms, 0);
    const others = reports.map((r) => `${Math.round(r.othersShare * 100)}%`).join(", ");
    return [phase, ...parts.map((ms) => ms.toFixed(2)), total.toFixed(2), others];
  };
  const api = runs.flatMap((r) => (r.apiCpu ? [r.apiCpu] : []));
  const engine = runs.flatMap((r) => (r.engineCpu ? [r.engineCpu] : []));
  if (api.length === 0 || engine.length === 0) return undefined;
  const names: Record<keyof CpuReport["perCallMs"], string> = {
    benchProcess: "benchmark process",
    server: "server process",
    openSearch: "engine JVM",
    postgres: "Postgres backends",
  };
  return markdownTable(
    ["CPU ms per call", ...columns.map((c) => names[c]), "total", "other work"],
    [row("API", api), row(options.baseline, engine)],
  );
}
