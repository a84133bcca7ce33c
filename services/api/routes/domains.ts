import { Router } from "express";
import { z } from "zod";
import { mayUse } from "../../access/domains.ts";
import type { Principal } from "../../access/keys.ts";
import { DOMAINS, domainSchema } from "../../core/domains.ts";
import { corpusStats } from "../../store/stats.ts";
import type { AppContext } from "../context.ts";
import { type Meta, meta } from "../envelope.ts";
import { type access, principal } from "../middleware/access.ts";
import { noQuery } from "../middleware/validate.ts";
import { metaSchema } from "../schemas.ts";

export const domainsResponseSchema = z
  .object({
    data: z.array(
      z.object({
        domain: domainSchema,
        allowed: z
          .boolean()
          .meta({ description: "Whether the calling key may use this domain as a filter." }),
        provisions: z.number().meta({ description: "Provisions loaded in this domain now." }),
      }),
    ),
    unclassified_provisions: z
      .number()
      .meta({ description: "Loaded provisions no rule classified; no domain filter finds them." }),
    meta: metaSchema,
  })
  .meta({ id: "DomainsResponse" });

/** The domain list for a key, for the HTTP route and the MCP tool alike. */
export async function domainsBody(
  ctx: AppContext,
  who: Principal,
  meta: Meta,
): Promise<z.infer<typeof domainsResponseSchema>> {
  const stats = await corpusStats(ctx.db);
  return {
    data: DOMAINS.map((domain) => ({
      domain,
      allowed: mayUse(who, domain),
      provisions: stats.perDomain[domain] ?? 0,
    })),
    unclassified_provisions: stats.provisionsUnclassified,
    meta,
  };
}

export function domainsRouter(ctx: AppContext, guard: ReturnType<typeof access>): Router {
  return Router().get("/domains", guard("corpus:read"), noQuery(), async (_req, res) => {
    res.json(await domainsBody(ctx, principal(res), meta(res)));
  });
}
