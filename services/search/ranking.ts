import { z } from "zod";
import { InputError } from "../core/errors.ts";

/**
 * The ranking model every engine implements: Okapi BM25 over the provision's fields, with the
 * same constants everywhere, so a query ranks alike on Postgres, OpenSearch and Elasticsearch.
 * k1 and b are the textbook values (Robertson and Zaragoza), not tuned to our query sets.
 */
const DEFAULTS = {
  /** How fast a word's repeats stop adding to its score. */
  k1: 1.2,
  /** How much a long field is penalised for its length (0: not at all, 1: fully). */
  b: 0.75,
  /**
   * Weight of a word found in each field. Headings name what a whole section is about, so a word
   * there says more than a word in the text; headings and text are one field (BM25F). Guides, the
   * names a provision is known by (the lay wording of official guides citing it, and the notion
   * its text defines: « Constitue un licenciement pour motif économique… », migration 013), are
   * scored as a field of their own and added with this weight.
   */
  fields: { text: 1, headings: 2, guides: 1 },
  /**
   * b of the guides field. Its length is how many guides cite the provision, not how long it is: a
   * provision many guides cite is no less about each one's topic, so no length penalty.
   */
  guidesB: 0,
  /**
   * Proximity: each pair of consecutive query words found within PAIR_SLOP positions adds this
   * many times the pair's BM25 as a phrase in the text or the headings, the better of the two
   * (postgres-ranking-sql.ts's PAIRS): found once, adjacent, in a field of average length, about what
   * the two words would add again, found once each.
   */
  proximity: 1,
  /**
   * Proximity and priors apply to this many of the best provisions by words, whatever page is
   * asked; the provisions after them follow in the order of their words. A fixed window keeps pages
   * consistent: a window that grew with the page would let a provision re-scored for page 3 climb
   * into pages 1–2, which the client already holds, and another drop out unseen (Elasticsearch's
   * rescore documentation says the same of `window_size`).
   */
  rescoreWindow: 100,
  /**
   * Priors a lawyer would name, multiplying the score of words: 1 + authority × ln(1 + the number
   * of other provisions citing it) + legislative when it is a law's article (number L…), not a
   * decree's (R…, D…). Among provisions matching alike, the one the code refers to and the law
   * before its implementing decree.
   */
  authority: 0.1,
  legislative: 0.1,
  /**
   * Added to the priors when the provision opens its division (migration 020): a code is written
   * general rule first, so the first article in force of « Section 3 : Rupture conventionnelle »
   * (L1237-11) states what the articles after it apply. Among provisions matching alike, that one;
   * the same tenth as the legislative prior, not a value fitted to a query set (docs/RELEVANCE.md,
   * row 25). Not within a division of derogations, exceptions, particular, penal or transitional
   * provisions (migration 020), where every division opens with a special case. An article stating
   * only where or to whom its division applies (« Les dispositions du présent titre sont
   * applicables… ») leaves it to the next (migration 021, row 26).
   */
  opening: 0.1,
  /**
   * The reach of a text, a rule a lawyer states: a code binds everyone, a collective agreement
   * only the employers of its branch. Unless a search is within one document (`document=`, or a
   * query naming the agreement), an agreement's provision weighs this share of its score, as a
   * text out of force weighs OUT_OF_FORCE_WEIGHT (engine.ts) and for the same reason: among equals
   * the law that binds everyone comes first, and an agreement's article still comes first when
   * it alone matches well (« prime d'ancienneté », a branch's own notion). The same half as for
   * a text out of force, not a value fitted to a query set (docs/RELEVANCE.md: the sets without it
   * and with it, the only value run).
   */
  agreement: 0.5,
};

export type Ranking = typeof DEFAULTS;

const overridesSchema = z
  .object({
    k1: z.number().positive(),
    b: z.number().min(0).max(1),
    guidesB: z.number().min(0).max(1),
    fields: z
      .object({ text: z.number().min(0), headings: z.number().min(0), guides: z.number().min(0) })
      .partial(),
    proximity: z.number().min(0),
    rescoreWindow: z.number().int().min(1).max(1000),
    authority: z.number().min(0),
    legislative: z.number().min(0),
    opening: z.number().min(0),
    agreement: z.number().positive().max(1),
  })
  .partial()
  .strict();

/**
 * The model's constants, with the overrides SEARCH_RANKING may give as JSON
 * (e.g. `{"authority":0}`): for measuring a change with eval:relevance, not for production, where
 * it stays unset. Read once, when the engines' queries are first built; a bad value stops the
 * start naming the variable.
 */
export function rankingFrom(json: string | undefined): Ranking {
  if (!json) return DEFAULTS;
  let parsed: z.infer<typeof overridesSchema>;
  try {
    parsed = overridesSchema.parse(JSON.parse(json));
  } catch (error) {
    throw new InputError("SEARCH_RANKING", "(json)", (error as Error).message);
  }
  return { ...DEFAULTS, ...parsed, fields: { ...DEFAULTS.fields, ...parsed.fields } };
}

/** The document kind RANKING.agreement applies to (ingest/model.ts). */
export const AGREEMENT_KIND = "collective_agreement";

/** What a provision's score is multiplied by for the reach of its document (RANKING.agreement). */
export function reachWeight(ranking: Ranking, documentKind: string, withinDocument: boolean): number {
  return !withinDocument && documentKind === AGREEMENT_KIND ? ranking.agreement : 1;
}

export const RANKING: Ranking = rankingFrom(process.env.SEARCH_RANKING);

/**
 * What the provision a query names by its number ("L1237-11", "article L. 1237-11") gets: more
 * than any score of words, so it comes first.
 */
export const NUMBER_BONUS = 1000;

/**
 * How far apart two consecutive query words may stand and still count as a pair for proximity:
 * a Lucene phrase's slop (positions beyond adjacent, either order: up to four after, two before).
 */
export const PAIR_SLOP = 3;
