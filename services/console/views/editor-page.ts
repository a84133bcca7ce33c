import type { ChangeRecord } from "../../store/change-log.ts";
import type { IngestRun } from "../../store/ingest-runs.ts";
import { count, type Html, html, when } from "../html.ts";
import { type PageContext, page } from "./layout.ts";

function progress(run: IngestRun): Html {
  if (run.status === "queued") return html`waiting for a worker`;
  const total = Math.max(run.documentsTotal, run.documentsDone);
  const label = `${count(run.documentsDone)} of ${count(total)} documents`;
  return html`<progress max="${Math.max(1, total)}" value="${run.documentsDone}" aria-label="Run ${run.id}: ${label}">${label}</progress> ${label}`;
}

/**
 * Ingest runs and the change log, for corpus editors; refreshes itself while a run is under way.
 * `refresh`: false when the reader turned the self-refresh off (it moves focus and the reading position).
 */
export function editorPage(
  pc: PageContext,
  runs: IngestRun[],
  changes: ChangeRecord[],
  refresh = true,
): Html {
  const underWay = runs.some((run) => run.status === "queued" || run.status === "running");
  return page(
    "Ingest runs and changes",
    pc,
    html`<section aria-labelledby="runs-heading">
  <h2 id="runs-heading">Ingest runs</h2>
  ${
    runs.length === 0
      ? html`<p>No ingest run yet.</p>`
      : html`<div class="table-scroll"><table>
    <thead><tr><th scope="col">Run</th><th scope="col">Source</th><th scope="col">Status</th><th scope="col">Progress</th><th scope="col">Started</th><th scope="col">Finished</th></tr></thead>
    <tbody>${runs.map(
      (run) => html`<tr>
      <td>${run.id}</td>
      <td>${run.sourceVersion ?? run.source}</td>
      <td><span class="status status-${run.status}">${run.status}</span>${run.error ? html`<br><span class="error">${run.error}</span>` : null}</td>
      <td>${progress(run)}</td>
      <td>${when(run.startedAt)}</td>
      <td>${run.finishedAt ? when(run.finishedAt) : ""}</td>
    </tr>`,
    )}</tbody>
  </table></div>`
  }
  ${
    underWay
      ? refresh
        ? html`<p class="hint">A run is under way: this page updates itself every 5 seconds.
  <a href="/console/editor?refresh=off">Stop updating</a></p>`
        : html`<p class="hint">A run is under way. <a href="/console/editor">Update every 5 seconds</a></p>`
      : null
  }
  <p>Runs are submitted with <code>npx corpus ingest …</code> or <code>POST /api/v1/admin/ingest-runs</code>
  (scope <code>ingest:write</code>).</p>
</section>
<section aria-labelledby="changes-heading">
  <h2 id="changes-heading">Change log</h2>
  <p>The latest ${changes.length} entries, newest first; clients read them from <code>GET /api/v1/changes</code>.</p>
  ${
    changes.length === 0
      ? html`<p>No change recorded yet.</p>`
      : html`<div class="table-scroll"><table>
    <thead><tr><th scope="col">Recorded</th><th scope="col">Change</th><th scope="col">Provision</th><th scope="col">Document</th><th scope="col">In effect</th><th scope="col">Amending act</th></tr></thead>
    <tbody>${changes.map(
      (c) => html`<tr>
      <td>${when(c.recordedAt)}</td>
      <td><span class="kind kind-${c.kind}">${c.kind}</span></td>
      <td>${c.provision.number}</td>
      <td>${c.document.title}</td>
      <td>${c.effectiveOn ?? c.listedOn}</td>
      <td>${c.act?.title ?? ""}</td>
    </tr>`,
    )}</tbody>
  </table></div>`
  }
</section>`,
    underWay && refresh ? { refreshSeconds: 5 } : {},
  );
}
