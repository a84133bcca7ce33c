import type { Domain } from "../../services/core/domains.ts";
import { contentHash } from "../../services/core/hash.ts";
import { numberKey } from "../../services/core/public-ids.ts";
import type {
  DocumentRow,
  LinkRow,
  ProvisionRow,
  SectionRow,
  VersionRow,
} from "../../services/store/documents.ts";
import type { CanonicalDocument, CanonicalProvision } from "../model.ts";

/**
 * The rows a canonical document becomes, column for column. Pure: persist.ts writes them
 * and the ingest benchmark's COPY floor loads exactly the same ones.
 */

/** Covers everything but the snapshot label, so a new snapshot of an unchanged code is "unchanged". */
export function documentHash(doc: CanonicalDocument): string {
  const { source, shortTitle, aliases, ...content } = doc;
  // Names enter the hash only when a document has them: documents stored before they existed
  // keep their hash, and are not rewritten for nothing.
  const names = shortTitle !== null || aliases.length > 0 ? { names: { shortTitle, aliases } } : {};
  return contentHash({ source: { name: source.name, documentId: source.documentId }, content, ...names });
}

export function documentRow(
  doc: CanonicalDocument,
  domains: Domain[],
  rulesHash: string,
  runId: number,
): DocumentRow {
  return {
    public_id: doc.publicId,
    source: doc.source.name,
    source_id: doc.source.documentId,
    source_version: doc.source.version,
    kind: doc.kind,
    title: doc.title,
    short_title: doc.shortTitle,
    aliases: doc.aliases,
    jurisdiction: doc.jurisdiction,
    status: doc.status,
    source_status: doc.sourceStatus,
    effective_from: doc.effectiveFrom,
    effective_to: doc.effectiveTo,
    modified_on: doc.modifiedOn,
    domains,
    content_hash: documentHash(doc),
    rules_hash: rulesHash,
    last_run_id: runId,
  };
}

/** Sections in document order with their depth in the tree. */
export function sectionRows(doc: CanonicalDocument): SectionRow[] {
  const depths = new Map<string, number>();
  return doc.sections.map((s, position) => {
    const depth = s.parentId ? (depths.get(s.parentId) ?? 0) + 1 : 0;
    depths.set(s.id, depth);
    return {
      source_id: s.id,
      parent_source_id: s.parentId,
      position,
      depth,
      title: s.title,
      status: s.status,
      effective_from: s.effectiveFrom,
      effective_to: s.effectiveTo,
    };
  });
}

/** Section id → headings from the top of the document down to that section. */
export function sectionPaths(doc: CanonicalDocument): Map<string, string[]> {
  const paths = new Map<string, string[]>();
  for (const section of doc.sections) {
    const parent = section.parentId ? (paths.get(section.parentId) ?? []) : [];
    paths.set(section.id, [...parent, section.title]);
  }
  return paths;
}

/**
 * When the provision is in force, whichever of its versions is: the dates of the version whose
 * text we hold, carried on through the versions the source lists as starting the day the previous
 * one ends (an amendment, not a repeal), and back through those ending the day the next one
 * starts, until one is open-ended (null) or none joins. A LEGI snapshot holds the text of one
 * version and lists the others without it: the Code de la sécurité sociale's L461-1 holds the
 * text in force from 2018-07-01 to 2026-09-30, four earlier versions (from 1985-12-21) and three
 * later ones (2026-09-30, 2026-11-01, 2027-01-01, open-ended), so it is in force in 2010 and today
 * though the text we show is neither day's (search says so). A version that never took effect (it
 * ends when it starts) joins nothing.
 */
export function inForceSpan(p: Pick<CanonicalProvision, "effectiveFrom" | "effectiveTo" | "versions">): {
  from: string | null;
  to: string | null;
} {
  // As the change log reads them: a start not known counts as later than any day.
  const tookEffect = p.versions.filter(
    (v) => v.effectiveTo === null || (v.effectiveFrom !== null && v.effectiveTo > v.effectiveFrom),
  );
  let to = p.effectiveTo;
  while (to !== null) {
    const day = to;
    const next = tookEffect.filter((v) => v.effectiveFrom === day);
    if (next.length === 0) break;
    // Two versions joining that day (a source's slip): the wider span.
    to = next.some((v) => v.effectiveTo === null) ? null : next.map((v) => v.effectiveTo!).reduce(later);
  }
  let from = p.effectiveFrom;
  while (from !== null) {
    const day = from;
    const previous = tookEffect.filter((v) => v.effectiveTo === day);
    if (previous.length === 0) break;
    // A version that took effect and ends has a start.
    from = previous.map((v) => v.effectiveFrom!).reduce(earlier);
  }
  return { from, to };
}

const later = (a: string, b: string) => (a > b ? a : b);
const earlier = (a: string, b: string) => (a < b ? a : b);

export function provisionRow(
  p: CanonicalProvision,
  publicId: string,
  position: number,
  path: string[],
  domains: string[],
): ProvisionRow {
  const span = inForceSpan(p);
  const row = {
    public_id: publicId,
    source_id: p.sourceId,
    version_id: p.versionId,
    number: p.number,
    number_key: numberKey(p.number),
    text: p.text,
    text_html: p.html,
    notes: p.notes,
    status: p.status,
    source_status: p.sourceStatus,
    effective_from: p.effectiveFrom,
    effective_to: p.effectiveTo,
    in_force_from: span.from,
    in_force_to: span.to,
    section_source_id: p.sectionId,
    section_path: p.heading ? [...path, p.heading] : path,
    position,
    domains,
  };
  // Position is left out: an article inserted earlier in the code must not make every later one
  // "changed"; so is the in-force span, which the versions (hashed) decide.
  const { position: _order, in_force_from: _from, in_force_to: _to, ...content } = row;
  return { ...row, content_hash: contentHash([content, p.versions, p.links]) };
}

export function versionRows(provisionId: number, p: CanonicalProvision): VersionRow[] {
  return p.versions.map((v) => ({
    provision_id: provisionId,
    version_id: v.versionId,
    label: v.label,
    status: v.status,
    source_status: v.sourceStatus,
    effective_from: v.effectiveFrom,
    effective_to: v.effectiveTo,
    text: v.text,
    repealed_on: v.repealedOn,
  }));
}

export function linkRows(provisionId: number, p: CanonicalProvision): LinkRow[] {
  return p.links.map((l, position) => ({
    provision_id: provisionId,
    position,
    act_id: l.actId,
    act_title: l.actTitle,
    act_kind: l.actKind,
    relation: l.relation,
    direction: l.direction,
    act_article_id: l.actArticleId,
    act_article_number: l.actArticleNumber,
    act_published_on: l.publishedOn,
    act_signed_on: l.signedOn,
    effective_on: l.effectiveOn,
  }));
}
