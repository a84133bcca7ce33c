import { InputError } from "../../../services/core/errors.ts";
import { slugify } from "../../../services/core/public-ids.ts";
import type {
  CanonicalDocument,
  CanonicalProvision,
  CanonicalSection,
  CanonicalVersion,
} from "../../model.ts";
import { legiDate } from "./dates.ts";
import { toLink } from "./links.ts";
import { RawReader } from "./raw.ts";
import { provisionStatus, repealDate, versionStatus } from "./status.ts";
import type { LegiCode, LegiIndexEntry } from "./types.ts";

export interface LegiAdapterResult {
  document: CanonicalDocument;
  /**
   * Source ids that appeared more than once with identical content (possibly under another
   * section); the first placement is kept and the copies are dropped.
   */
  duplicatesDropped: string[];
}

const collapse = (value: string) => value.replace(/\s+/g, " ").trim();

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
  const raw = new RawReader(file);
  if ((code as { type?: unknown } | null)?.type !== "code")
    throw new InputError(file, "type", 'expected a LEGI code (type "code")');
  const data = raw.object(code.data, "data");
  const documentId = raw.requiredText(data.id ?? data.cid, "data.id");
  const title = collapse(raw.requiredText(data.title, "data.title"));
  const asOf =
    raw.date(data.dateModif, "data.dateModif") ??
    raw.date(data.dateDebutVersion, "data.dateDebutVersion") ??
    "1970-01-01";

  const sections: CanonicalSection[] = [];
  const provisions: CanonicalProvision[] = [];
  const seen = new Map<string, string>();
  const duplicatesDropped: string[] = [];

  const visit = (nodes: unknown[], parentId: string | null, path: string) => {
    nodes.forEach((value, i) => {
      const at = `${path}[${i}]`;
      const node = raw.object(value, at);
      if (node.type === "section") {
        const section = raw.object(node.data, `${at}.data`);
        const id = raw.requiredText(section.id, `${at}.data.id`);
        sections.push({
          id,
          parentId,
          title: collapse(raw.text(section.title, `${at}.data.title`) ?? "") || "(untitled)",
          status: raw.text(section.etat, `${at}.data.etat`),
          effectiveFrom: raw.date(section.dateDebut, `${at}.data.dateDebut`),
          effectiveTo: raw.date(section.dateFin, `${at}.data.dateFin`),
        });
        visit(raw.list(node.children, `${at}.children`), id, `${at}.children`);
      } else if (node.type === "article") {
        const provision = adaptArticle(raw, node, at, parentId, asOf);
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
        raw.fail(`${at}.type`, `unknown node type ${JSON.stringify(node.type)}`);
      }
    });
  };
  visit(raw.list(code.children, "children"), null, "children");

  return {
    duplicatesDropped,
    document: {
      source: { name: "legi", documentId, version: snapshot },
      publicId: slugify(title),
      kind: "code",
      title,
      // Every field of the canonical shape, defaults too: the ingest benchmark's floor reads it unvalidated.
      shortTitle: null,
      aliases: [],
      jurisdiction: "FR",
      status: provisionStatus(
        index?.etat ?? raw.text(data.etat, "data.etat"),
        legiDate(index?.date_debut),
        legiDate(index?.date_fin),
        asOf,
      ),
      sourceStatus: raw.text(data.etat, "data.etat"),
      effectiveFrom: legiDate(index?.date_debut),
      effectiveTo: legiDate(index?.date_fin),
      modifiedOn: raw.date(data.dateModif, "data.dateModif"),
      sections,
      provisions,
    },
  };
}

function adaptArticle(
  raw: RawReader,
  node: Record<string, unknown>,
  at: string,
  sectionId: string | null,
  asOf: string,
): CanonicalProvision {
  const a = raw.object(node.data, `${at}.data`);
  const versionId = raw.requiredText(a.id, `${at}.data.id`);
  const sourceId = raw.requiredText(a.cid ?? a.id, `${at}.data.cid`);
  const number = collapse(raw.requiredText(a.num, `${at}.data.num`));
  const text = raw.requiredText(a.texte, `${at}.data.texte`);
  const etat = raw.text(a.etat, `${at}.data.etat`);
  const effectiveFrom = raw.date(a.dateDebut, `${at}.data.dateDebut`);
  const effectiveTo = raw.date(a.dateFin, `${at}.data.dateFin`);

  const rawVersions = raw.list(a.articleVersions, `${at}.data.articleVersions`).map((value, j) => {
    const where = `${at}.data.articleVersions[${j}]`;
    const v = raw.object(value, where);
    return {
      id: raw.requiredText(v.id, `${where}.id`),
      label: raw.text(v.version, `${where}.version`),
      etat: raw.text(v.etat, `${where}.etat`),
      from: raw.date(v.dateDebut, `${where}.dateDebut`),
      to: raw.date(v.dateFin, `${where}.dateFin`),
    };
  });
  const starts = new Set([...rawVersions.map((v) => v.from), effectiveFrom]);
  const versions: CanonicalVersion[] = rawVersions.map((v) => ({
    versionId: v.id,
    label: v.label,
    status: versionStatus(v.etat, v.from, v.to, asOf),
    sourceStatus: v.etat,
    effectiveFrom: v.from,
    effectiveTo: v.to,
    text: v.id === versionId ? text : null,
    repealedOn: repealDate(v.etat, v.to, starts.has(v.to)),
  }));
  if (!versions.some((v) => v.versionId === versionId)) {
    versions.push({
      versionId,
      label: null,
      status: versionStatus(etat, effectiveFrom, effectiveTo, asOf),
      sourceStatus: etat,
      effectiveFrom,
      effectiveTo,
      text,
      repealedOn: repealDate(etat, effectiveTo, starts.has(effectiveTo)),
    });
  }

  return {
    sourceId,
    versionId,
    number,
    text,
    html: raw.text(a.texteHtml, `${at}.data.texteHtml`),
    notes: raw.text(a.nota, `${at}.data.nota`),
    status: provisionStatus(etat, effectiveFrom, effectiveTo, asOf),
    sourceStatus: etat,
    effectiveFrom,
    effectiveTo,
    sectionId,
    heading: null,
    versions,
    links: raw
      .list(a.lienModifications, `${at}.data.lienModifications`)
      .flatMap((link, k) => toLink(raw, link, `${at}.data.lienModifications[${k}]`) ?? []),
  };
}
