/**
 * One measurement phase reduced to the figures we compare. The API and the raw engine are
 * summarised by this same code from per-call times in milliseconds, so that a difference between
 * them is never a difference in how percentiles were computed.
 */
export interface LoadSummary {
  p50Ms: number;
  p99Ms: number;
  /** Completed calls (HTTP responses, or engine calls) per second of the phase. */
  perSecond: number;
  calls: number;
  /**
   * Each query's own p50, in the order of the list measured (NaN for a query never answered in
   * the phase); set where the loader knows which query each call was.
   */
  perQueryP50Ms?: number[];
}

/** Nearest-rank percentile of values sorted ascending; NaN when there are none. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

const sortedCopy = (values: number[]) => Float64Array.from(values).sort();

/** `byQuery[i]` holds the latencies of query i alone, when the loader kept them apart. */
export function summariseLatencies(
  latenciesMs: number[],
  seconds: number,
  byQuery?: number[][],
): LoadSummary {
  const sorted = sortedCopy(latenciesMs);
  const summary: LoadSummary = {
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    perSecond: sorted.length / seconds,
    calls: sorted.length,
  };
  if (byQuery) summary.perQueryP50Ms = byQuery.map((ms) => percentile(sortedCopy(ms), 50));
  return summary;
}
