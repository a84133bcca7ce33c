import type { Domain } from "../core/domains.ts";
import type { Database } from "./database.ts";

/** Read side of the corpus for the API: SQL only, rows out; presenters shape responses. */

export interface ProvisionRecord {
  id: number;
  publicId: string;
  number: string;
  text: string;
  textHtml: string | null;
  notes: string | null;
  status: "in_force" | "repealed" | "not_yet_in_force";
  sourceStatus: string | null;
  effectiveFrom: string | null;
  effectiveTo: string | null;
  sectionSourceId: string | null;
  sectionPath: string[];
  domains: Domain[];
  sourceId: string;
  versionId: string;
  presentInSource: boolean;
  updatedAt: Date;
  document: {
    publicId: string;
    title: string;
    source: string;
    sourceId: string;
    sourceVersion: string | null;
  };
}

const PROVISION_SELECT = `
  SELECT p.id, p.public_id, p.number, p.text, p.text_html, p.notes, p.status, p.source_status, p.effective_from,
         p.effective_to, p.section_source_id, p.section_path, p.domains, p.source_id, p.version_id,
         p.present_in_source, p.updated_at, d.public_id AS document_public_id, d.title AS document_title,
         d.source AS document_source, d.source_id AS document_source_id, d.source_version AS document_source_version
  FROM provisions p JOIN documents d ON d.id = p.document_id`;

function toProvision(r: Record<string, unknown>): ProvisionRecord {
  return {
    id: r.id as number,
    publicId: r.public_id as string,
    number: r.number as string,
    text: r.text as string,
    textHtml: (r.text_html as string | null) ?? null,
    notes: (r.notes as string | null) || null,
    status: r.status as ProvisionRecord["status"],
    sourceStatus: (r.source_status as string | null) ?? null,
    effectiveFrom: (r.effective_from as string | null) ?? null,
    effectiveTo: (r.effective_to as string | null) ?? null,
    sectionSourceId: (r.section_source_id as string | null) ?? null,
    sectionPath: r.section_path as string[],
    domains: r.domains as Domain[],
    sourceId: r.source_id as string,
    versionId: r.version_id as string,
    presentInSource: r.present_in_source as boolean,
    updatedAt: new Date(r.updated_at as string),
    document: {
      publicId: r.document_public_id as string,
      title: r.document_title as string,
      source: r.document_source as string,
      sourceId: r.document_source_id as string,
      sourceVersion: (r.document_source_version as string | null) ?? null,
    },
  };
}

/** By public id, or by a source id: the article's stable id or the id of any of its versions. */
export async function findProvision(db: Database, id: string): Promise<ProvisionRecord | undefined> {
  const byPublic = await db.query(`${PROVISION_SELECT} WHERE p.public_id = $1`, [id]);
  if (byPublic.rows[0]) return toProvision(byPublic.rows[0]);
  const bySource = await db.query(
    `${PROVISION_SELECT} WHERE p.source_id = $1 OR p.version_id = $1
       OR p.id IN (SELECT provision_id FROM provision_versions WHERE version_id = $1)
     ORDER BY p.present_in_source DESC, p.id LIMIT 1`,
    [id],
  );
  return bySource.rows[0] ? toProvision(bySource.rows[0]) : undefined;
}

export interface VersionRecord {
  versionId: string;
  label: string | null;
  status: string;
  effectiveFrom: string | null;
  effectiveTo: string | null;
  /** Set when this version ends by repeal: the date it takes effect. */
  repealedOn: string | null;
  hasText: boolean;
  /** Only when asked for (withText); null when we do not hold it. */
  text?: string | null;
}

/** A provision's versions, oldest first. Texts are read only when asked for. */
export async function listVersions(
  db: Database,
  provisionId: number,
  options: { withText?: boolean } = {},
): Promise<VersionRecord[]> {
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT version_id, label, status, effective_from, effective_to, repealed_on, text IS NOT NULL AS has_text
       ${options.withText ? ", text" : ""}
     FROM provision_versions WHERE provision_id = $1 ORDER BY effective_from NULLS FIRST, version_id`,
    [provisionId],
  );
  return rows.map((r) => ({
    versionId: r.version_id as string,
    label: (r.label as string | null) ?? null,
    status: r.status as string,
    effectiveFrom: (r.effective_from as string | null) ?? null,
    effectiveTo: (r.effective_to as string | null) ?? null,
    repealedOn: (r.repealed_on as string | null) ?? null,
    hasText: r.has_text as boolean,
    ...(options.withText ? { text: (r.text as string | null) ?? null } : {}),
  }));
}

export interface AmendingActRecord {
  actId: string;
  actTitle: string | null;
  actKind: string | null;
  relation: string;
  effectiveOn: string | null;
  publishedOn: string | null;
}

export async function listAmendingActs(db: Database, provisionId: number): Promise<AmendingActRecord[]> {
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT act_id, act_title, act_kind, relation, effective_on, act_published_on FROM provision_links
     WHERE provision_id = $1 AND direction = 'amended_by' ORDER BY effective_on NULLS FIRST, position`,
    [provisionId],
  );
  return rows.map((r) => ({
    actId: r.act_id as string,
    actTitle: (r.act_title as string | null) ?? null,
    actKind: (r.act_kind as string | null) ?? null,
    relation: r.relation as string,
    effectiveOn: (r.effective_on as string | null) ?? null,
    publishedOn: (r.act_published_on as string | null) ?? null,
  }));
}

export interface DocumentRecord {
  id: number;
  publicId: string;
  title: string;
  kind: string;
  jurisdiction: string;
  status: string;
  effectiveFrom: string | null;
  effectiveTo: string | null;
  modifiedOn: string | null;
  domains: Domain[];
  source: string;
  sourceId: string;
  sourceVersion: string | null;
  provisionCount: number;
  updatedAt: Date;
}

/** A loaded document's public id, named by it or by its source id (LEGITEXT…); undefined if none. */
export async function documentPublicId(db: Database, id: string): Promise<string | undefined> {
  const { rows } = await db.query<{ public_id: string }>(
    "SELECT public_id FROM documents WHERE public_id = $1 OR source_id = $1 ORDER BY public_id = $1 DESC LIMIT 1",
    [id],
  );
  return rows[0]?.public_id;
}

export async function findDocument(db: Database, id: string): Promise<DocumentRecord | undefined> {
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT d.*, (SELECT count(*)::int FROM provisions p WHERE p.document_id = d.id AND p.present_in_source) AS provision_count
     FROM documents d WHERE d.public_id = $1 OR d.source_id = $1 LIMIT 1`,
    [id],
  );
  const r = rows[0];
  if (!r) return undefined;
  return {
    id: r.id as number,
    publicId: r.public_id as string,
    title: r.title as string,
    kind: r.kind as string,
    jurisdiction: r.jurisdiction as string,
    status: r.status as string,
    effectiveFrom: (r.effective_from as string | null) ?? null,
    effectiveTo: (r.effective_to as string | null) ?? null,
    modifiedOn: (r.modified_on as string | null) ?? null,
    domains: r.domains as Domain[],
    source: r.source as string,
    sourceId: r.source_id as string,
    sourceVersion: (r.source_version as string | null) ?? null,
    provisionCount: r.provision_count as number,
    updatedAt: new Date(r.updated_at as string),
  };
}

export interface SectionRecord {
  sourceId: string;
  parentSourceId: string | null;
  depth: number;
  title: string;
}

export async function listSections(db: Database, documentId: number): Promise<SectionRecord[]> {
  const { rows } = await db.query<Record<string, unknown>>(
    "SELECT source_id, parent_source_id, depth, title FROM sections WHERE document_id = $1 ORDER BY position",
    [documentId],
  );
  return rows.map((r) => ({
    sourceId: r.source_id as string,
    parentSourceId: (r.parent_source_id as string | null) ?? null,
    depth: r.depth as number,
    title: r.title as string,
  }));
}

/** A page of a document's provisions in document order; `section` narrows to one section's subtree. */
export async function listDocumentProvisions(
  db: Database,
  documentId: number,
  page: { limit: number; offset: number; sectionIds: string[] | null; domains: string[] | null },
): Promise<ProvisionRecord[]> {
  const { rows } = await db.query(
    `${PROVISION_SELECT} WHERE p.document_id = $1 AND p.present_in_source
       AND ($4::text[] IS NULL OR p.section_source_id = ANY($4::text[]))
       AND ($5::text[] IS NULL OR p.domains && $5::text[])
     ORDER BY p.position LIMIT $2 OFFSET $3`,
    [documentId, page.limit, page.offset, page.sectionIds, page.domains],
  );
  return rows.map(toProvision);
}

export async function countDocumentProvisions(
  db: Database,
  documentId: number,
  sectionIds: string[] | null,
  domains: string[] | null = null,
): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM provisions p WHERE p.document_id = $1 AND p.present_in_source
       AND ($2::text[] IS NULL OR p.section_source_id = ANY($2::text[]))
       AND ($3::text[] IS NULL OR p.domains && $3::text[])`,
    [documentId, sectionIds, domains],
  );
  return rows[0]?.n ?? 0;
}

/**
 * Provisions with this number (number key), in these documents if given: present in the current
 * source first, then in force, then by public id in byte order (the same twenty on any database's
 * collation). For reading citations.
 */
export async function provisionIdsByNumber(
  db: Database,
  numberKey: string,
  documentPublicIds: string[] | null,
): Promise<string[]> {
  const { rows } = await db.query<{ public_id: string }>(
    `SELECT p.public_id FROM provisions p JOIN documents d ON d.id = p.document_id
     WHERE p.number_key = $1 AND ($2::text[] IS NULL OR d.public_id = ANY($2))
     ORDER BY p.present_in_source DESC, (p.status = 'in_force') DESC, d.public_id COLLATE "C", p.public_id COLLATE "C"
     LIMIT 20`,
    [numberKey, documentPublicIds],
  );
  return rows.map((r) => r.public_id);
}

/** Documents holding a provision no rule classified: best_effort domain filters read their titles. */
export async function documentsWithUnclassified(
  db: Database,
): Promise<Array<{ publicId: string; title: string }>> {
  const { rows } = await db.query<{ public_id: string; title: string }>(
    `SELECT DISTINCT d.public_id, d.title FROM documents d JOIN provisions p ON p.document_id = d.id
     WHERE cardinality(p.domains) = 0`,
  );
  return rows.map((r) => ({ publicId: r.public_id, title: r.title }));
}

/** Every loaded document's public id and title (a handful: codes and acts). */
export interface DocumentNames {
  publicId: string;
  title: string;
  shortTitle: string | null;
  aliases: string[];
  /** ingest/model.ts's document kinds: code, collective_agreement, law… */
  kind: string;
}

export async function listDocumentTitles(db: Database): Promise<DocumentNames[]> {
  const { rows } = await db.query<{
    public_id: string;
    title: string;
    short_title: string | null;
    aliases: string[];
    kind: string;
  }>("SELECT public_id, title, short_title, aliases, kind FROM documents ORDER BY title");
  return rows.map((r) => ({
    publicId: r.public_id,
    title: r.title,
    shortTitle: r.short_title,
    aliases: r.aliases,
    kind: r.kind,
  }));
}

export interface ProvisionText {
  publicId: string;
  number: string;
  text: string;
  /** Headings of the sections that hold it, outermost first. */
  headings: string[];
  /**
   * The wording of the official guides that cite it (`corpus ingest guides`: their titles, and
   * their paragraphs when loaded with --paragraphs), '' if none.
   */
  guides: string;
  status: string;
  effectiveFrom: string | null;
  effectiveTo: string | null;
  document: { publicId: string; title: string };
}

/** Current texts of provisions, in the order asked. */
export async function provisionTexts(db: Database, publicIds: string[]): Promise<ProvisionText[]> {
  if (publicIds.length === 0) return [];
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT p.public_id, p.number, p.text, p.section_path, p.guides, p.status, p.effective_from, p.effective_to,
            d.public_id AS document_public_id, d.title AS document_title
     FROM provisions p JOIN documents d ON d.id = p.document_id WHERE p.public_id = ANY($1)`,
    [publicIds],
  );
  const byId = new Map(
    rows.map((r) => [
      r.public_id as string,
      {
        publicId: r.public_id as string,
        number: r.number as string,
        text: r.text as string,
        headings: r.section_path as string[],
        guides: r.guides as string,
        status: r.status as string,
        effectiveFrom: (r.effective_from as string | null) ?? null,
        effectiveTo: (r.effective_to as string | null) ?? null,
        document: { publicId: r.document_public_id as string, title: r.document_title as string },
      },
    ]),
  );
  return publicIds.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}

/**
 * How many provisions of the corpus use each word (French stemming, accents folded), and how
 * many provisions there are: the rarity of a question's words, for weighting them. A word the
 * French dictionary drops as a stop word ("ayant", "soit") has no entry.
 */
export async function wordFrequencies(
  db: Database,
  words: string[],
): Promise<{ corpusSize: number; frequencies: Map<string, number> }> {
  // Read from the term statistics search keeps (migration 009); a word analysed into several
  // lexemes (hyphenated) is as frequent as its rarest part.
  const { rows } = await db.query<{ word: string | null; n: string | null }>(
    `SELECT NULL AS word, provisions AS n FROM search_totals
     UNION ALL
     SELECT w, (SELECT min(coalesce(l.df, 0))
                FROM unnest(tsvector_to_array(corpus_tsvector(w))) AS x(lexeme)
                     LEFT JOIN search_lexemes l ON l.lexeme = x.lexeme)
     FROM unnest($1::text[]) AS w`,
    [words],
  );
  const frequencies = new Map<string, number>();
  let corpusSize = 0;
  for (const row of rows) {
    if (row.word === null) corpusSize = Number(row.n);
    else if (row.n !== null) frequencies.set(row.word, Number(row.n));
  }
  return { corpusSize, frequencies };
}

export interface AgreementRow {
  publicId: string;
  title: string;
  shortTitle: string | null;
  aliases: string[];
  snapshot: string | null;
  provisions: number;
}

/** Every collective agreement loaded, by IDCC, with its provisions still in its source. */
export async function listAgreementRows(db: Database): Promise<AgreementRow[]> {
  const { rows } = await db.query<{
    public_id: string;
    title: string;
    short_title: string | null;
    aliases: string[];
    source_version: string | null;
    provisions: number;
  }>(
    `SELECT d.public_id, d.title, d.short_title, d.aliases, d.source_version,
            (SELECT count(*) FROM provisions p WHERE p.document_id = d.id AND p.present_in_source)::int AS provisions
     FROM documents d WHERE d.kind = 'collective_agreement'
     ORDER BY d.public_id`,
  );
  return rows.map((r) => ({
    publicId: r.public_id,
    title: r.title,
    shortTitle: r.short_title,
    aliases: r.aliases,
    snapshot: r.source_version,
    provisions: r.provisions,
  }));
}
