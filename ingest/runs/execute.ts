import type { Config } from "../../services/core/config.ts";
import type { Database } from "../../services/store/database.ts";
import { findIngestRun, finishIngestRun } from "../../services/store/ingest-runs.ts";
import { ingestCanonicalContent, ingestLegi } from "../commands.ts";
import type { IngestProgress } from "../pipeline/ingest.ts";
import { ingestRunRequestSchema } from "./request.ts";

/**
 * Executes a queued run, whoever runs it (the worker, the embedded server). Running it again after
 * a crash reaches the same final state: documents already written are unchanged the second time.
 */
export async function executeIngestRun(
  db: Database,
  config: Config,
  runId: number,
  onProgress?: (progress: IngestProgress) => void,
): Promise<void> {
  const run = await findIngestRun(db, runId);
  if (!run) throw new Error(`no ingest run ${runId}`);
  if (run.status === "succeeded") return;
  const parsed = ingestRunRequestSchema.safeParse(run.request);
  if (!parsed.success) {
    await finishIngestRun(db, runId, {}, `invalid request: ${parsed.error.issues[0]?.message}`);
    return;
  }
  const request = parsed.data;
  try {
    if (request.source === "legi") {
      await ingestLegi(db, config, { version: request.version, codes: request.codes, runId, onProgress });
    } else {
      await ingestCanonicalContent(db, config, request.file, request.name, { runId, onProgress });
    }
  } catch (error) {
    // ingest() records its own failures; this covers what fails before it starts (bad file, fetch).
    const current = await findIngestRun(db, runId);
    if (current?.status !== "failed") await finishIngestRun(db, runId, {}, (error as Error).message);
    throw error;
  }
}
