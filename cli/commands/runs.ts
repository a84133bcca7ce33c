import path from "node:path";
import type { Command } from "commander";
import { readJsonFile } from "../../ingest/sources/read-json.ts";
import { AppError } from "../../services/core/errors.ts";
import { submitIngestRun } from "../../services/jobs/ingest-run-job.ts";
import { type IngestRunRequest, ingestRunRequestSchema } from "../../services/jobs/ingest-run-request.ts";
import { findIngestRun, type IngestRun, listIngestRuns } from "../../services/store/ingest-runs.ts";
import { list } from "../options.ts";
import { table } from "../output.ts";
import { progressReporter } from "../progress.ts";
import type { CliRuntime } from "../runtime.ts";

const describeRun = (run: IngestRun) =>
  `run ${run.id}: ${run.status}, ${run.documentsDone}/${run.documentsTotal} documents${run.error ? ` — ${run.error}` : ""}`;

/** Follows a run until it ends, with a progress bar; a failed run is exit code 2. */
async function waitFor(rt: CliRuntime, id: number): Promise<IngestRun> {
  const progress = progressReporter(rt.progress);
  try {
    for (;;) {
      const run = await rt.withStore((db) => findIngestRun(db, id));
      if (!run) throw new AppError("not_found", `no ingest run ${id}`, "id");
      if (run.status === "running" && run.documentsTotal > 0) {
        progress.update({
          documentsDone: run.documentsDone,
          documentsTotal: run.documentsTotal,
          current: run.sourceVersion ?? run.source,
          provisions: Number((run.summary as { provisions?: { total?: number } }).provisions?.total ?? 0),
        });
      }
      if (run.status === "succeeded" || run.status === "failed") return run;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    progress.stop();
  }
}

/** `corpus runs …`: submit ingest runs to whoever runs them (worker or server) and follow them. */
export function addRunsCommands(program: Command, rt: CliRuntime) {
  const runs = program
    .command("runs")
    .description("Ingest runs submitted to the worker (or the running server), with status and progress.");

  const submit = async (request: IngestRunRequest, wait: boolean) => {
    const checked = ingestRunRequestSchema.safeParse(request);
    if (!checked.success)
      throw new AppError(
        "invalid_request",
        checked.error.issues[0]!.message,
        String(checked.error.issues[0]!.path[0]),
      );
    const executor = await rt.runs();
    if (!executor) {
      throw new AppError(
        "invalid_request",
        "nothing here runs submitted ingest runs: set REDIS_URL (a worker runs them), start the server (it runs them when embedded), or load directly with `corpus ingest`",
      );
    }
    const { run, handedOver } = await rt.withStore((db) =>
      submitIngestRun(db, executor, checked.data, "cli"),
    );
    const id = run.id;
    rt.out(
      handedOver
        ? `Run ${id} queued (${executor.kind === "queue" ? "the worker will run it" : "the server runs it"}). Follow it: corpus runs show ${id} --wait`
        : `Run ${id} recorded, but Redis did not answer: the worker queues it once Redis is back. Follow it: corpus runs show ${id} --wait`,
    );
    if (wait) finish(await waitFor(rt, id));
  };
  const finish = (run: IngestRun) => {
    rt.out(describeRun(run));
    if (run.status === "failed") throw new AppError("invalid_request", `run ${run.id} failed`);
  };

  const submitCmd = runs.command("submit").description("Queue a run.");
  submitCmd
    .command("legi")
    .option("--version <version>", "a published version of @socialgouv/legi-data")
    .option("--codes <ids...>", "only these codes (LEGITEXT… ids)")
    .option("--wait", "follow the run until it ends")
    .action(async (options: { version?: string; codes?: string[]; wait?: boolean }) => {
      await submit({ source: "legi", version: options.version, codes: options.codes }, options.wait ?? false);
    });
  submitCmd
    .command("kali")
    .description("Queue collective agreements (KALI): all of a snapshot, or some by IDCC.")
    .option("--version <version>", "a published version of @socialgouv/kali-data; default: the latest")
    .option("--idcc <numbers>", "only these agreements, by IDCC: 1486,2216", list)
    .option("--wait", "follow the run until it ends")
    .action(async (options: { version?: string; idcc?: string[]; wait?: boolean }) => {
      await submit({ source: "kali", version: options.version, idcc: options.idcc }, options.wait ?? false);
    });
  submitCmd
    .command("file <path>")
    .description("Queue a canonical JSON file (its content travels with the run).")
    .option("--wait", "follow the run until it ends")
    .action(async (file: string, options: { wait?: boolean }) => {
      const resolved = path.resolve(rt.cwd, file);
      await submit(
        { source: "canonical", name: path.basename(resolved), file: readJsonFile(resolved) },
        options.wait ?? false,
      );
    });

  runs.command("list").action(async () => {
    const rows = await rt.withStore((db) => listIngestRuns(db, 20));
    rt.out(
      table(
        ["id", "status", "source", "snapshot", "documents", "requested by", "started", "error"],
        rows.map((r) => [
          String(r.id),
          r.status,
          r.source,
          r.sourceVersion ?? "",
          `${r.documentsDone}/${r.documentsTotal}`,
          r.requestedBy ?? "",
          r.startedAt.toISOString().slice(0, 19),
          (r.error ?? "").slice(0, 60),
        ]),
      ),
    );
  });

  runs
    .command("show <id>")
    .option("--wait", "follow the run until it ends")
    .option("--json", "machine-readable output")
    .action(async (id: string, options: { wait?: boolean; json?: boolean }) => {
      const runId = Number(id);
      let run = await rt.withStore((db) => findIngestRun(db, runId));
      if (!run) throw new AppError("not_found", `no ingest run ${id}`, "id");
      if (options.wait) run = await waitFor(rt, runId);
      if (options.json) return rt.out(JSON.stringify(run));
      finish(run);
    });
}
