import { InputError } from "../../../services/core/errors.ts";
import { slugify } from "../../../services/core/public-ids.ts";
import type {
  CanonicalDocumentInput,
  CanonicalLink,
  CanonicalProvision,
  CanonicalSection,
  CanonicalVersion,
} from "../../model.ts";
import { legiDate } from "./dates.ts";
import { provisionStatus, repealDate, versionStatus } from "./status.ts";
import type { LegiArticle, LegiCode, LegiIndexEntry, LegiLink, LegiSection } from "./types.ts";

export interface LegiAdapterResult {
  document: CanonicalDocumentInput;
  /**
   * Source ids that appeared more than once with identical content (possibly under another
   * section); the first placement is kept and the copies are dropped.
   */
  duplicatesDropped: string[];
}

const collapse = (value: string) => value.replace(/\s+/g, " ").trim();
const orNull = (value: string | null | undefined) => (value ? value : null);

function requireString(value: unknown, file: string, field: string): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw new InputError(file, field, "missing or empty");
  }
  return value;
}

function toLink(link: LegiLink): CanonicalLink {
  return {
    actId: link.textCid,
    actTitle: orNull(link.textTitle),
    actKind: orNull(link.natureText),
    relation: link.linkType,
    direction: link.linkOrientation === "cible" ? "amended_by" : "amends",
    actArticleId: orNull(link.articleId),
    actArticleNumber: orNull(link.articleNum),
    publishedOn: legiDate(link.datePubliTexte),
    signedOn: legiDate(link.dateSignaTexte),
    effectiveOn: legiDate(link.dateDebutCible),
  };
}

/**
 * Turns one LEGI code file into the canonical model. Pure: no I/O, so it is unit-tested on real
 * excerpts. `file` is only used to name the culprit in errors.
 */
export function adaptLegiCode(
  code: LegiCode,
  file: string,
  snapshot: string | null,
  index?: LegiIndexEntry,
): LegiAdapterResult {
  if (code?.type !== "code" || !code.data)
    throw new InputError(file, "type", 'expected a LEGI code (type "code")');
  const documentId = requireString(code.data.id ?? code.data.cid, file, "data.id");
  const title = collapse(requireString(code.data.title, file, "data.title"));
  const asOf = legiDate(code.data.dateModif) ?? legiDate(code.data.dateDebutVersion) ?? "1970-01-01";

  const sections: CanonicalSection[] = [];
  const provisions: CanonicalProvision[] = [];
  const seen = new Map<string, string>();
  const duplicatesDropped: string[] = [];

  const visit = (nodes: Array<LegiSection | LegiArticle>, parentId: string | null, path: string) => {
    nodes.forEach((node, i) => {
      const at = `${path}[${i}]`;
      if (node.type === "section") {
        const id = requireString(node.data?.id, file, `${at}.data.id`);
        sections.push({
          id,
          parentId,
          title: collapse(node.data.title ?? "") || "(untitled)",
          status: orNull(node.data.etat),
          effectiveFrom: legiDate(node.data.dateDebut),
          effectiveTo: legiDate(node.data.dateFin),
        });
        visit(node.children ?? [], id, `${at}.children`);
      } else if (node.type === "article") {
        const provision = adaptArticle(node, file, at, parentId, asOf);
        // LEGI sometimes files the same article under two sections; the content decides.
        const { sectionId: _placement, ...content } = provision;
        const fingerprint = JSON.stringify(content);
        const previous = seen.get(provision.sourceId);
        if (previous === undefined) {
          seen.set(provision.sourceId, fingerprint);
          provisions.push(provision);
        } else if (previous === fingerprint) {
          duplicatesDropped.push(provision.sourceId);
        } else {
          throw new InputError(
            file,
            `${at}.data.cid`,
            `article ${provision.sourceId} appears twice with different content`,
          );
        }
      } else {
        throw new InputError(
          file,
          `${at}.type`,
          `unknown node type ${JSON.stringify((node as { type?: unknown }).type)}`,
        );
      }
    });
  };
  visit(code.children ?? [], null, "children");

  return {
    duplicatesDropped,
    document: {
      source: { name: "legi", documentId, version: snapshot },
      publicId: slugify(title),
      kind: "code",
      title,
      jurisdiction: "FR",
      status: provisionStatus(
        index?.etat ?? code.data.etat,
        legiDate(index?.date_debut),
        legiDate(index?.date_fin),
        asOf,
      ),
      sourceStatus: orNull(code.data.etat),
      effectiveFrom: legiDate(index?.date_debut),
      effectiveTo: legiDate(index?.date_fin),
      modifiedOn: legiDate(code.data.dateModif),
      sections,
      provisions,
    },
  };
}

function adaptArticle(
  node: LegiArticle,
  file: string,
  at: string,
  sectionId: string | null,
  asOf: string,
): CanonicalProvision {
  const a = node.data;
  if (!a) throw new InputError(file, `${at}.data`, "missing");
  const versionId = requireString(a.id, file, `${at}.data.id`);
  const sourceId = requireString(a.cid ?? a.id, file, `${at}.data.cid`);
  const number = collapse(requireString(a.num, file, `${at}.data.num`));
  const text = requireString(a.texte, file, `${at}.data.texte`);
  const effectiveFrom = legiDate(a.dateDebut);
  const effectiveTo = legiDate(a.dateFin);

  const starts = new Set([...(a.articleVersions ?? []).map((v) => legiDate(v.dateDebut)), effectiveFrom]);
  const versions: CanonicalVersion[] = (a.articleVersions ?? []).map((v, j) => {
    const from = legiDate(v.dateDebut);
    const to = legiDate(v.dateFin);
    return {
      versionId: requireString(v.id, file, `${at}.data.articleVersions[${j}].id`),
      label: orNull(v.version),
      status: versionStatus(orNull(v.etat), from, to, asOf),
      sourceStatus: orNull(v.etat),
      effectiveFrom: from,
      effectiveTo: to,
      text: v.id === versionId ? text : null,
      repealedOn: repealDate(orNull(v.etat), to, starts.has(to)),
    };
  });
  if (!versions.some((v) => v.versionId === versionId)) {
    versions.push({
      versionId,
      label: null,
      status: versionStatus(orNull(a.etat), effectiveFrom, effectiveTo, asOf),
      sourceStatus: orNull(a.etat),
      effectiveFrom,
      effectiveTo,
      text,
      repealedOn: repealDate(orNull(a.etat), effectiveTo, starts.has(effectiveTo)),
    });
  }

  return {
    sourceId,
    versionId,
    number,
    text,
    html: orNull(a.texteHtml),
    notes: orNull(a.nota),
    status: provisionStatus(orNull(a.etat), effectiveFrom, effectiveTo, asOf),
    sourceStatus: orNull(a.etat),
    effectiveFrom,
    effectiveTo,
    sectionId,
    versions,
    links: (a.lienModifications ?? []).filter((link) => link?.textCid).map(toLink),
  };
}
