import { z } from "zod";
import type { Agreement } from "../corpus/agreements.ts";
import { type Meta, metaSchema } from "./envelope.ts";

/** The collective agreements loaded (the MCP tool list_agreements). */

export const agreementsResponseSchema = z
  .object({
    data: z.object({
      agreements: z.array(
        z.object({
          id: z
            .string()
            .meta({ description: "Public id of the document: idcc-<IDCC>.", example: "idcc-1486" }),
          idcc: z.string().meta({ example: "1486" }),
          title: z.string().meta({ description: "The official title." }),
          short_title: z.string().nullable(),
          usual_names: z.array(z.string()).meta({ description: "Names it is also cited by (« Syntec »)." }),
          snapshot: z.string().nullable().meta({ description: "The KALI snapshot loaded." }),
          provisions: z.number(),
          url: z.string().meta({ description: "The document: its table of contents and provisions." }),
        }),
      ),
      total: z.number(),
      rule: z.string().meta({ description: "How to read an agreement missing from the list." }),
    }),
    meta: metaSchema,
  })
  .meta({ id: "AgreementsResponse" });

export const AGREEMENTS_RULE =
  "Only the agreements listed are loaded; one missing is not loaded yet (or its source publishes its title only), which never means the branch has no agreement.";

export function presentAgreements(
  agreements: Agreement[],
  meta: Meta,
): z.infer<typeof agreementsResponseSchema> {
  return {
    data: {
      agreements: agreements.map((a) => ({
        id: a.publicId,
        idcc: a.idcc,
        title: a.title,
        short_title: a.shortTitle,
        usual_names: a.aliases,
        snapshot: a.snapshot,
        provisions: a.provisions,
        url: `/api/v1/documents/${a.publicId}`,
      })),
      total: agreements.length,
      rule: AGREEMENTS_RULE,
    },
    meta,
  };
}
