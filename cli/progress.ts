import cliProgress from "cli-progress";
import type { IngestProgress } from "../ingest/pipeline/ingest.ts";

/**
 * A progress bar on a terminal; one line per step otherwise (CI logs, pipes), so long runs always
 * show where they are.
 */
export function progressReporter(stream: { write(text: string): unknown; isTTY?: boolean } = process.stderr) {
  if (!stream.isTTY) {
    return {
      update: (p: IngestProgress) =>
        stream.write(
          `[${p.documentsDone}/${p.documentsTotal}] ${p.current} (${p.provisions} provisions so far)\n`,
        ),
      stop: () => undefined,
    };
  }
  const bar = new cliProgress.SingleBar(
    {
      stream: stream as NodeJS.WritableStream,
      format: "{bar} {value}/{total} documents | {provisions} provisions | {current} | ETA {eta_formatted}",
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update: (p: IngestProgress) => {
      if (!started) {
        bar.start(p.documentsTotal, p.documentsDone, { provisions: p.provisions, current: p.current });
        started = true;
      }
      bar.update(p.documentsDone, { provisions: p.provisions, current: p.current });
    },
    stop: () => bar.stop(),
  };
}
