/** Ranking metrics at a cut-off, binary relevance. Pure. */
export interface RankMetrics {
  hit: number;
  mrr: number;
  recall: number;
  ndcg: number;
}

export function rankMetrics(ranked: string[], relevant: Set<string>, k = 10): RankMetrics {
  const top = ranked.slice(0, k);
  const firstHit = top.findIndex((id) => relevant.has(id));
  const found = top.filter((id) => relevant.has(id)).length;
  const dcg = top.reduce((sum, id, i) => sum + (relevant.has(id) ? 1 / Math.log2(i + 2) : 0), 0);
  const ideal = Array.from({ length: Math.min(k, relevant.size) }, (_, i) => 1 / Math.log2(i + 2)).reduce(
    (a, b) => a + b,
    0,
  );
  return {
    hit: firstHit >= 0 ? 1 : 0,
    mrr: firstHit >= 0 ? 1 / (firstHit + 1) : 0,
    recall: relevant.size ? found / relevant.size : 0,
    ndcg: ideal ? dcg / ideal : 0,
  };
}

export function meanMetrics(all: RankMetrics[]): RankMetrics {
  const mean = (key: keyof RankMetrics) => all.reduce((sum, m) => sum + m[key], 0) / Math.max(1, all.length);
  return { hit: mean("hit"), mrr: mean("mrr"), recall: mean("recall"), ndcg: mean("ndcg") };
}

/** A small seeded generator (mulberry32): the same resamples, hence the same interval, every run. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface PairedDifference {
  /** Mean of a[i] − b[i]. */
  mean: number;
  /** 95% interval of that mean, percentile bootstrap over the pairs. */
  low: number;
  high: number;
}

/**
 * How sure a difference between two measures of the same questions is: the questions are
 * resampled with replacement, pairs kept together, and the middle 95% of the resampled mean
 * differences is the interval. An interval that holds 0 is a difference the questions cannot tell
 * from chance. `groups` (one name per pair) resamples whole groups instead: wordings of one request
 * succeed or fail together, and counting them as independent questions would narrow the interval
 * more than the data allows (a cluster bootstrap). Without groups, or without a group for a
 * pair, each pair is its own.
 */
export function pairedBootstrap(
  a: number[],
  b: number[],
  resamples = 5000,
  seed = 1,
  groups?: ReadonlyArray<string | undefined>,
): PairedDifference {
  if (a.length !== b.length || a.length === 0)
    throw new Error("pairedBootstrap: two series of the same, non-zero length");
  if (groups && groups.length !== a.length) throw new Error("pairedBootstrap: one group per pair");
  const d = a.map((x, i) => x - b[i]!);
  // Per group, the sum of its differences and its size.
  const sums = new Map<string, { sum: number; size: number }>();
  d.forEach((x, i) => {
    const key = groups?.[i] ?? `#${i}`;
    const group = sums.get(key) ?? { sum: 0, size: 0 };
    group.sum += x;
    group.size += 1;
    sums.set(key, group);
  });
  const clusters = [...sums.values()];
  const n = clusters.length;
  const random = seeded(seed);
  const means = Array.from({ length: resamples }, () => {
    let sum = 0;
    let size = 0;
    for (let i = 0; i < n; i++) {
      const cluster = clusters[Math.floor(random() * n)]!;
      sum += cluster.sum;
      size += cluster.size;
    }
    return sum / size;
  }).sort((x, y) => x - y);
  return {
    mean: d.reduce((s, x) => s + x, 0) / d.length,
    low: means[Math.floor(resamples * 0.025)]!,
    high: means[Math.ceil(resamples * 0.975) - 1]!,
  };
}
