import type { Principal } from "../access/keys.ts";
import type { Domain } from "../core/domains.ts";
import { AppError } from "../core/errors.ts";
import {
  countDocumentProvisions,
  type DocumentRecord,
  findDocument,
  listDocumentProvisions,
  listDocumentTitles,
  listSections,
  type ProvisionRecord,
  type SectionRecord,
} from "../store/corpus-queries.ts";
import type { Database } from "../store/database.ts";

/** Reading a document: its sections and a page of its provisions, as far as the calling key may read. */

export const MAX_DOCUMENT_PAGE = 200;

/** A `document` filter naming no loaded document: a mistake to report, on search and changes alike. */
export const unknownDocument = (id: string) =>
  new AppError("invalid_request", `document: no document ${id} is loaded`, "document");

export interface DocumentPage {
  document: DocumentRecord;
  sections: SectionRecord[];
  provisions: ProvisionRecord[];
  /** Provisions in the listing (under the section, in the key's domains), all pages together. */
  total: number;
  /** The key's fields of law, when it is limited to some: only provisions in them are listed. */
  domains: Domain[] | null;
}

/** Every loaded document's public id and title, by title. */
export const listDocuments = (db: Database) => listDocumentTitles(db);

/** The source ids of a section and every section under it. */
function subtree(sections: SectionRecord[], rootId: string): string[] {
  const ids = new Set([rootId]);
  for (const s of sections) if (s.parentSourceId && ids.has(s.parentSourceId)) ids.add(s.sourceId);
  return [...ids];
}

export async function readDocument(
  db: Database,
  who: Principal,
  id: string,
  page: { limit: number; offset: number; section?: string | undefined },
): Promise<DocumentPage> {
  const document = await findDocument(db, id);
  if (!document)
    throw new AppError(
      "not_found",
      `No published document with id ${id}. It may not be loaded yet: see the coverage.`,
    );
  // A key limited to some fields of law reads the document's provisions in them, if it has any.
  const domains = who.domains;
  if (domains && (await countDocumentProvisions(db, document.id, null, domains)) === 0) {
    throw new AppError(
      "forbidden",
      `This key is limited to ${domains.join(", ")}; document ${document.publicId} has no provision in them.`,
    );
  }
  const sections = await listSections(db, document.id);
  if (page.section && !sections.some((s) => s.sourceId === page.section)) {
    throw new AppError(
      "invalid_request",
      `section: no section ${page.section} in ${document.publicId}`,
      "section",
    );
  }
  const sectionIds = page.section ? subtree(sections, page.section) : null;
  const provisions = await listDocumentProvisions(db, document.id, {
    limit: page.limit,
    offset: page.offset,
    sectionIds,
    domains,
  });
  const total =
    sectionIds || domains
      ? await countDocumentProvisions(db, document.id, sectionIds, domains)
      : document.provisionCount;
  return { document, sections, provisions, total, domains };
}
