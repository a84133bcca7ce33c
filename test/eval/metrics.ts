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
