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
}

/** Nearest-rank percentile of values sorted ascending. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function summariseLatencies(latenciesMs: number[], seconds: number): LoadSummary {
  const sorted = Float64Array.from(latenciesMs).sort();
  const values = Array.from(sorted);
  return {
    p50Ms: percentile(values, 50),
    p99Ms: percentile(values, 99),
    perSecond: values.length / seconds,
    calls: values.length,
  };
}
