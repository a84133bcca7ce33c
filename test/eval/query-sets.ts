import { createRequire } from "node:module";

/**
 * Query sets for the evaluations: queries with the provisions that answer them, named by their
 * source ids (LEGI article ids), which every store maps to its own public ids. A new set is one
 * more function returning a QuerySet.
 */
export interface QuerySet {
  name: string;
  description: string;
  queries: Array<{ query: string; relevant: string[] }>;
}

const CODE_DU_TRAVAIL = "LEGITEXT000006072050";

interface Fiche {
  title: string;
  sections: Array<{
    title: string;
    references?: Record<string, { articles?: Array<{ cid: string }> }>;
  }>;
}

/**
 * The Ministry of Labour's practical guides (@socialgouv/fiches-travail-data): each section title
 * is a query; the Code du travail articles the section references are its relevant set.
 */
export function fichesTravail(options: { questionsOnly?: boolean; withGuideTitle?: boolean } = {}): QuerySet {
  const require = createRequire(import.meta.url);
  const { version } = require("@socialgouv/fiches-travail-data/package.json") as { version: string };
  const fiches = require("@socialgouv/fiches-travail-data/data/fiches-travail.json") as Fiche[];
  const queries = fiches.flatMap((fiche) =>
    fiche.sections
      .filter((s) => s.title.trim() && (!options.questionsOnly || s.title.trim().endsWith("?")))
      .map((s) => ({
        query: options.withGuideTitle ? `${s.title.trim()} (${fiche.title.trim()})` : s.title.trim(),
        relevant: [...new Set((s.references?.[CODE_DU_TRAVAIL]?.articles ?? []).map((a) => a.cid))],
      }))
      .filter((q) => q.relevant.length > 0),
  );
  return {
    name: `fiches-travail${options.withGuideTitle ? "" : "-titles"}@${version}`,
    description: `section titles of the Ministry of Labour's guides${options.withGuideTitle ? ", each followed by its guide's title in parentheses" : ", bare"}; relevant: the Code du travail articles they reference`,
    queries,
  };
}

/** The sets eval:relevance knows, by the name EVAL_SET takes. */
export const QUERY_SETS: Record<string, () => QuerySet> = {
  /** Default: a section title alone is often no query ("Textes de référence", "Contenu"); its guide says what it is about. */
  "fiches-travail": () => fichesTravail({ withGuideTitle: true }),
  "fiches-travail-titles": () => fichesTravail(),
};
