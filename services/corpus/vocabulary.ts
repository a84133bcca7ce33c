import { abbreviationReadings } from "../search/abbreviations.ts";
import type { Synonyms } from "../search/synonyms.ts";
import type { Database } from "../store/database.ts";
import { listGuideAbbreviations } from "../store/guides.ts";

/**
 * The words a search expands: the synonyms file's groups, and the abbreviations the loaded guides
 * define (services/search/abbreviations.ts: « CSSCT » searched as « commission santé, sécurité et
 * conditions de travail »), read at most once a minute per store, as the agreements' names are:
 * a search costs no extra statement, and guides just loaded are read within a minute.
 */
const vocabularies = new WeakMap<
  Database,
  { until: number; base: Synonyms; vocabulary: Promise<Synonyms> }
>();

export function searchVocabulary(db: Database, synonyms: Synonyms): Promise<Synonyms> {
  const cached = vocabularies.get(db);
  if (cached && cached.base === synonyms && cached.until > Date.now()) return cached.vocabulary;
  const vocabulary = listGuideAbbreviations(db).then(
    ({ definitions, words }) => synonyms.withAbbreviations(abbreviationReadings(definitions, words)),
    // A failed read is not kept: this search has the file's synonyms, the next asks again.
    () => {
      vocabularies.delete(db);
      return synonyms;
    },
  );
  vocabularies.set(db, { until: Date.now() + 60_000, base: synonyms, vocabulary });
  return vocabulary;
}

/** The next search reads the store's abbreviations again (the evaluation, after loading guides). */
export function forgetVocabulary(db: Database): void {
  vocabularies.delete(db);
}
