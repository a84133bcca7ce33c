import { z } from "zod";
import type { CitationResolution } from "../corpus/citations.ts";
import { type Meta, metaSchema } from "./envelope.ts";
import { presentProvision, provisionSchema } from "./provision.ts";

/** A citation read: what was understood, the provision or candidates, and a note saying what to do next. */

const candidateSchema = z.object({
  id: z.string(),
  number: z.string(),
  document: z.object({ id: z.string(), title: z.string() }),
  status: z.string(),
  effective_from: z.string().nullable(),
  effective_to: z.string().nullable(),
  url: z.string(),
});

export const resolveCitationOutput = z
  .object({
    data: z.object({
      status: z.enum(["resolved", "ambiguous", "not_found", "unreadable"]).meta({
        description:
          "resolved: one provision (in provision); ambiguous: several (in candidates); not_found: nothing loaded matches; unreadable: no article number found.",
      }),
      understood: z.object({
        number: z.string().nullable(),
        documents: z.array(z.object({ id: z.string(), title: z.string() })),
        unmatched_document_text: z.string().nullable(),
      }),
      provision: provisionSchema.nullable(),
      candidates: z.array(candidateSchema),
      note: z.string(),
    }),
    meta: metaSchema,
  })
  .meta({ id: "ResolvedCitation" });

/** The documents loaded, by title; past a dozen (the collective agreements), a count and where to look. */
const loadedList = (loaded: Array<{ title: string }>) =>
  loaded.length <= 12
    ? loaded.map((d) => d.title).join(", ")
    : `${loaded.length} documents, listed on the coverage; collective agreements by list_agreements`;

export function presentCitation(
  { status, parsed, loaded, provisions }: CitationResolution,
  meta: Meta,
): z.infer<typeof resolveCitationOutput> {
  const understood = {
    number: parsed.number,
    documents: parsed.documents.map((d) => ({ id: d.publicId, title: d.title })),
    unmatched_document_text: parsed.unmatchedDocumentText,
  };
  const answer = (note: string, found: Partial<z.infer<typeof resolveCitationOutput>["data"]> = {}) => ({
    data: { status, understood, provision: null, candidates: [], note, ...found },
    meta,
  });
  const shown = provisions.map((reading) => presentProvision(reading, meta).data);
  switch (status) {
    case "unreadable":
      return answer("No article number found: write it as printed, e.g. 'L. 1237-1-1' or 'article 12'.");
    case "not_found":
      return answer(
        parsed.documents.length === 0 && parsed.unmatchedDocumentText
          ? `"${parsed.unmatchedDocumentText}" names no document we have loaded (${loadedList(loaded)}): it is not loaded yet, which is no evidence that the article does not exist.`
          : `No loaded provision is numbered ${parsed.number}${parsed.documents.length ? ` in ${understood.documents.map((d) => d.title).join(" or ")}` : ""}. It may be not loaded yet: check the coverage before saying it does not exist.`,
      );
    case "resolved": {
      const provision = shown[0]!;
      return answer(`Resolved to ${provision.id} (${provision.document.title}).`, { provision });
    }
    case "ambiguous": {
      const candidates = shown.map((p) => ({
        id: p.id,
        number: p.number,
        document: { id: p.document.id, title: p.document.title },
        status: p.status,
        effective_from: p.effective_from,
        effective_to: p.effective_to,
        url: p.url,
      }));
      return answer(
        `Several loaded provisions are numbered ${parsed.number}: name the code or act to choose (e.g. '${parsed.number} du ${candidates[0]!.document.title.toLowerCase()}').`,
        { candidates },
      );
    }
  }
}
