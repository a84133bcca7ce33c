import express, { Router } from "express";
import { z } from "zod";
import { ingestRunRequestSchema } from "../../../ingest/runs/request.ts";
import { AppError } from "../../core/errors.ts";
import { findIngestRun, type IngestRun, listIngestRuns, queueIngestRun } from "../../store/ingest-runs.ts";
import type { AppContext } from "../context.ts";
import { meta } from "../envelope.ts";
import { type access, principal } from "../middleware/access.ts";
import { noQuery, parsed, validate } from "../middleware/validate.ts";
import { metaSchema } from "../schemas.ts";

/** A canonical file can hold a long act: the admin routes take up to 10 MB, every other route 64 kB. */
export const MAX_ADMIN_BODY_BYTES = 10 * 1024 * 1024;

export const ingestRunSchema = z
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

const MAX_INTEGER = 2 ** 31 - 1;

/** Corpus editors submit ingest runs and follow them (scope `ingest:write`). */
export function adminRouter(ctx: AppContext, guard: ReturnType<typeof access>): Router {
  const write = guard("ingest:write");
  return Router()
    .post(
      "/admin/ingest-runs",
      write,
      express.json({ limit: MAX_ADMIN_BODY_BYTES }),
      noQuery(),
      validate("body", ingestRunRequestSchema),
      async (_req, res) => {
        const request = parsed(res, "body", ingestRunRequestSchema);
        const id = await queueIngestRun(ctx.db, {
          source: request.source,
          request,
          requestedBy: principal(res).lookupId,
        });
        // Recorded first: if the queue does not take the run now, the worker's sweep queues it later.
        if (!(await ctx.runs.submit(id)))
          ctx.logger.warn(
            { runId: id },
            "ingest run recorded, but Redis did not take its job: the worker will queue it",
          );
        const run = (await findIngestRun(ctx.db, id))!;
        res
          .status(202)
          .location(`/api/v1/admin/ingest-runs/${id}`)
          .json({ data: presentRun(run), meta: meta(res) });
      },
    )
    .get("/admin/ingest-runs", write, noQuery(), async (_req, res) => {
      const runs = await listIngestRuns(ctx.db, 50);
      res.json({ data: runs.map(presentRun), meta: meta(res) });
    })
    .get("/admin/ingest-runs/:id", write, noQuery(), async (req, res) => {
      // Run ids are Postgres integers: anything else ("1e3", 2^53) names no run.
      const id = /^\d{1,10}$/.test(String(req.params.id)) ? Number(req.params.id) : 0;
      const run = id >= 1 && id <= MAX_INTEGER ? await findIngestRun(ctx.db, id) : undefined;
      if (!run) throw new AppError("not_found", `No ingest run ${req.params.id}.`);
      res.json({ data: presentRun(run), meta: meta(res) });
    });
}
