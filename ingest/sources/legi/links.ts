import type { CanonicalLink } from "../../model.ts";
import type { RawReader } from "./raw.ts";

/**
 * A link between a provision and the act that amended it (or that it amends), as DILA's API writes
 * it in LEGI and in KALI alike; undefined for the links the source lists without an act.
 */
export function toLink(raw: RawReader, value: unknown, at: string): CanonicalLink | undefined {
  const link = raw.object(value, at);
  const actId = raw.text(link.textCid, `${at}.textCid`);
  if (!actId) return undefined;
  return {
    actId,
    actTitle: raw.text(link.textTitle, `${at}.textTitle`),
    actKind: raw.text(link.natureText, `${at}.natureText`),
    relation: raw.requiredText(link.linkType, `${at}.linkType`),
    direction: link.linkOrientation === "cible" ? "amended_by" : "amends",
    actArticleId: raw.text(link.articleId, `${at}.articleId`),
    actArticleNumber: raw.text(link.articleNum, `${at}.articleNum`),
    publishedOn: raw.date(link.datePubliTexte, `${at}.datePubliTexte`),
    signedOn: raw.date(link.dateSignaTexte, `${at}.dateSignaTexte`),
    effectiveOn: raw.date(link.dateDebutCible, `${at}.dateDebutCible`),
  };
}
