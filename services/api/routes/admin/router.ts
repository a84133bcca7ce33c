import express, { Router } from "express";
import { AppError } from "../../../core/errors.ts";
import { submitIngestRun } from "../../../jobs/ingest-run-job.ts";
import { ingestRunRequestSchema } from "../../../jobs/ingest-run-request.ts";
import { presentRun } from "../../../presenters/ingest-run.ts";
import type { AppContext } from "../../../runtime/context.ts";
import { findIngestRun, listIngestRuns } from "../../../store/ingest-runs.ts";
import { meta } from "../../envelope.ts";
import { type access, principal } from "../../middleware/access.ts";
import { noQuery, parsed, validate } from "../../middleware/validate.ts";

/** A canonical file can hold a long act: the admin routes take up to 10 MB, every other route 64 kB. */
export const MAX_ADMIN_BODY_BYTES = 10 * 1024 * 1024;

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
        const { run, handedOver } = await submitIngestRun(ctx.db, ctx.runs, request, principal(res).lookupId);
        if (!handedOver)
          ctx.logger.warn(
            { runId: run.id },
            "ingest run recorded, but Redis did not take its job: the worker will queue it",
          );
        res
          .status(202)
          .location(`/api/v1/admin/ingest-runs/${run.id}`)
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
