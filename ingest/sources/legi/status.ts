import type { CanonicalProvision, CanonicalVersion } from "../../model.ts";

/** LEGI states that end a provision whatever its dates say. */
const ENDED = new Set(["ABROGE", "ANNULE", "PERIME", "TRANSFERE", "DEPLACE", "DENONCE", "REMPLACE"]);
/** LEGI states of a version that end the provision by repeal. ABROGE_DIFF: a repeal scheduled for the end date. */
const REPEALS = new Set(["ABROGE", "ABROGE_DIFF", "ANNULE", "PERIME"]);
/** LEGI states of a version that moved the article away (renumbered elsewhere, transferred). */
const MOVED_AWAY = new Set(["TRANSFERE", "DEPLACE", "REMPLACE", "DENONCE"]);
/** LEGI states of a version that a later version replaced. */
const SUPERSEDED = new Set(["MODIFIE", "MODIFIE_MORT_NE"]);

function byDates(from: string | null, to: string | null, asOf: string): CanonicalProvision["status"] {
  if (from !== null && from > asOf) return "not_yet_in_force";
  if (to !== null && to <= asOf) return "repealed";
  return "in_force";
}

/**
 * Status of the current version of an article on the snapshot date. Dates decide unless the state
 * says the article has ended; MODIFIE on a current article means a dated future version exists.
 */
export function provisionStatus(
  etat: string | null,
  from: string | null,
  to: string | null,
  asOf: string,
): CanonicalProvision["status"] {
  if (etat && ENDED.has(etat)) return "repealed";
  return byDates(from, to, asOf);
}

export function versionStatus(
  etat: string | null,
  from: string | null,
  to: string | null,
  asOf: string,
): CanonicalVersion["status"] {
  if (etat && ENDED.has(etat)) return "repealed";
  if (etat && SUPERSEDED.has(etat) && to !== null && to <= asOf) return "superseded";
  return byDates(from, to, asOf);
}

/**
 * When a version ends the provision by repeal (or by a move away): its end date, unless another
 * version of the article starts that very day, in which case the article was replaced, not
 * ended (LEGI files "Annexe I repealed and replaced on 1 March" that way).
 */
export function repealDate(etat: string | null, to: string | null, continued: boolean): string | null {
  if (!etat || to === null || continued) return null;
  return REPEALS.has(etat) || MOVED_AWAY.has(etat) ? to : null;
}
