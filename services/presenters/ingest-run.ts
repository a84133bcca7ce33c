import { z } from "zod";
import type { IngestRun } from "../store/ingest-runs.ts";
import { metaSchema } from "./envelope.ts";

/** An ingest run, as corpus editors follow it. */

const ingestRunSchema = z
  .object({
    id: z.number(),
    status: z.enum(["queued", "running", "succeeded", "failed"]),
    source: z.string(),
    snapshot: z.string().nullable(),
    progress: z.object({ documents_done: z.number(), documents_total: z.number() }),
    summary: z
      .record(z.string(), z.unknown())
      .meta({ description: "Counts of documents, provisions and versions, and seconds." }),
    error: z
      .string()
      .nullable()
      .meta({ description: "Why the run failed, naming the file and field for bad input." }),
    requested_by: z
      .string()
      .nullable()
      .meta({ description: "The lookup id of the key that submitted it, or `cli`." }),
    started_at: z.string(),
    finished_at: z.string().nullable(),
    url: z.string(),
  })
  .meta({ id: "IngestRun" });

export const ingestRunResponseSchema = z
  .object({ data: ingestRunSchema, meta: metaSchema })
  .meta({ id: "IngestRunResponse" });
export const ingestRunsResponseSchema = z
  .object({ data: z.array(ingestRunSchema), meta: metaSchema })
  .meta({ id: "IngestRunsResponse" });

export function presentRun(run: IngestRun): z.infer<typeof ingestRunSchema> {
  return {
    id: run.id,
    status: run.status,
    source: run.source,
    snapshot: run.sourceVersion,
    progress: { documents_done: run.documentsDone, documents_total: run.documentsTotal },
    summary: run.summary,
    error: run.error,
    requested_by: run.requestedBy,
    started_at: run.startedAt.toISOString(),
    finished_at: run.finishedAt?.toISOString() ?? null,
    url: `/api/v1/admin/ingest-runs/${run.id}`,
  };
}
