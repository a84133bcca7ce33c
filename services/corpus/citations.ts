import type { Principal } from "../access/keys.ts";
import { AppError } from "../core/errors.ts";
import { type CitedDocument, type ParsedCitation, parseCitation } from "../search/citations.ts";
import { listDocumentTitles, provisionIdsByNumber } from "../store/corpus-queries.ts";
import type { Database } from "../store/database.ts";
import { type ProvisionReading, readProvision } from "./provisions.ts";

/** A reference as a person writes it ("art. L. 1237-1-1 C. trav.") read into the provisions it names. */

export interface CitationResolution {
  /**
   * unreadable: no article number; not_found: no loaded document or provision matches;
   * resolved: one provision; ambiguous: several (the reference names no document that tells them apart).
   */
  status: "unreadable" | "not_found" | "resolved" | "ambiguous";
  parsed: ParsedCitation;
  /** Every loaded document, which the reference was read against. */
  loaded: CitedDocument[];
  provisions: ProvisionReading[];
}

export async function resolveCitation(
  db: Database,
  who: Principal,
  text: string,
): Promise<CitationResolution> {
  const loaded = await listDocumentTitles(db);
  const parsed = parseCitation(text, loaded);
  const outcome = (status: CitationResolution["status"], provisions: ProvisionReading[] = []) => ({
    status,
    parsed,
    loaded,
    provisions,
  });
  if (!parsed.numberKey) return outcome("unreadable");
  if (parsed.unmatchedDocumentText && parsed.documents.length === 0) return outcome("not_found");
  const scope = parsed.documents.length ? parsed.documents.map((d) => d.publicId) : null;
  const found = await provisionIdsByNumber(db, parsed.numberKey, scope);
  // A key limited to some fields of law resolves only to provisions it may read; when it may read
  // none of them, it is told so (403), not that the article is missing.
  let refusal: AppError | undefined;
  const readable = await Promise.all(
    found.map((id) =>
      readProvision(db, who, id).catch((error: unknown) => {
        if (!(error instanceof AppError && error.code === "forbidden")) throw error;
        refusal ??= error;
        return undefined;
      }),
    ),
  );
  const provisions = readable.filter((p) => p !== undefined);
  if (provisions.length === 0 && refusal) throw refusal;
  if (provisions.length === 0) return outcome("not_found");
  return outcome(provisions.length === 1 ? "resolved" : "ambiguous", provisions);
}
