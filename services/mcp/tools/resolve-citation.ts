import { z } from "zod";
import { provisionBody, provisionSchema } from "../../api/routes/provisions.ts";
import { metaSchema } from "../../api/schemas.ts";
import { AppError } from "../../core/errors.ts";
import { parseCitation } from "../../search/citations.ts";
import { listDocumentTitles, provisionIdsByNumber } from "../../store/corpus-queries.ts";
import { defineTool } from "../tool.ts";

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

export const resolveCitationTool = defineTool({
  name: "resolve_citation",
  title: "Find the provision a citation names",
  description:
    "Turns a reference written as a person writes it ('article L. 1237-1-1 du code du travail', 'art. R4451-39 C. trav.', 'CSS L161-1') into the provision, with its text and dates. Says plainly when the document is not loaded.",
  scope: "corpus:read",
  input: z.object({
    citation: z
      .string()
      .trim()
      .min(1)
      .max(300)
      .describe("The reference, as written: article number and, ideally, the code or act."),
  }),
  output: resolveCitationOutput,
  run: async ({ ctx, who, meta }, { citation }) => {
    const loaded = await listDocumentTitles(ctx.db);
    const parsed = parseCitation(citation, loaded);
    const understood = {
      number: parsed.number,
      documents: parsed.documents.map((d) => ({ id: d.publicId, title: d.title })),
      unmatched_document_text: parsed.unmatchedDocumentText,
    };
    const answer = (
      status: z.infer<typeof resolveCitationOutput>["data"]["status"],
      note: string,
      extra = {},
    ) => ({
      data: { status, understood, provision: null, candidates: [], note, ...extra },
      meta,
    });
    if (!parsed.numberKey)
      return answer(
        "unreadable",
        "No article number found: write it as printed, e.g. 'L. 1237-1-1' or 'article 12'.",
      );
    if (parsed.unmatchedDocumentText && parsed.documents.length === 0) {
      return answer(
        "not_found",
        `"${parsed.unmatchedDocumentText}" names no document we have loaded (${loaded.map((d) => d.title).join(", ")}): it is not loaded yet, which is no evidence that the article does not exist.`,
      );
    }
    const scope = parsed.documents.length ? parsed.documents.map((d) => d.publicId) : null;
    const found = await provisionIdsByNumber(ctx.db, parsed.numberKey, scope);
    // A key limited to some fields of law resolves only to provisions it may read; when it may read
    // none of them, it is told so (403), not that the article is missing.
    let refusal: AppError | undefined;
    const readable = await Promise.all(
      found.map((id) =>
        provisionBody(ctx, who, id, undefined, meta).then(
          (body) => body.data,
          (error: unknown) => {
            if (!(error instanceof AppError && error.code === "forbidden")) throw error;
            refusal ??= error;
            return undefined;
          },
        ),
      ),
    );
    const provisions = readable.flatMap((p) => (p ? [p] : []));
    if (provisions.length === 0 && refusal) throw refusal;
    if (provisions.length === 0) {
      return answer(
        "not_found",
        `No loaded provision is numbered ${parsed.number}${scope ? ` in ${understood.documents.map((d) => d.title).join(" or ")}` : ""}. It may be not loaded yet: check the coverage before saying it does not exist.`,
      );
    }
    if (provisions.length === 1) {
      const provision = provisions[0]!;
      return answer("resolved", `Resolved to ${provision.id} (${provision.document.title}).`, { provision });
    }
    const candidates = provisions.map((p) => ({
      id: p.id,
      number: p.number,
      document: { id: p.document.id, title: p.document.title },
      status: p.status,
      effective_from: p.effective_from,
      effective_to: p.effective_to,
      url: p.url,
    }));
    return answer(
      "ambiguous",
      `Several loaded provisions are numbered ${parsed.number}: name the code or act to choose (e.g. '${parsed.number} du ${candidates[0]!.document.title.toLowerCase()}').`,
      { candidates },
    );
  },
});
