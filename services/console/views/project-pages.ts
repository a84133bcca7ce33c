import { KEY_PREFIX } from "../../access/api-key.ts";
import { DEFAULT_SCOPES, SCOPES, type Scope } from "../../access/scopes.ts";
import { DOMAINS } from "../../core/domains.ts";
import type { ApiKeyRow, PlanRow, ProjectRow } from "../../store/access.ts";
import { count, type Html, html, when } from "../html.ts";
import {
  csrfField,
  errorSummary,
  type FieldErrors,
  notice,
  type PageContext,
  page,
  textField,
} from "./layout.ts";
import { usageChart } from "./usage-chart.ts";

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  "search:read": "search provisions (/search)",
  "corpus:read": "read provisions, documents, fields of law and coverage; MCP",
  "changes:read": "list changes (/changes)",
  "answer:write": "evidence-bound answers (/answer)",
  "ingest:write": "submit ingest runs (editors only)",
};

export function projectsPage(
  pc: PageContext,
  projects: ProjectRow[],
  form: { name?: string | undefined; errors?: FieldErrors } = {},
): Html {
  const errors = form.errors ?? {};
  return page(
    "Your projects",
    pc,
    html`${
      projects.length === 0
        ? html`<p>You have no project yet. Start with one named after the application that will call the API.</p>`
        : html`<table>
  <caption class="visually-hidden">Your projects</caption>
  <thead><tr><th scope="col">Project</th><th scope="col">Plan</th><th scope="col">Created</th></tr></thead>
  <tbody>${projects.map(
    (p) =>
      html`<tr><td><a href="/console/projects/${p.id}">${p.name}</a></td><td>${p.plan}</td><td>${when(p.createdAt)}</td></tr>`,
  )}</tbody>
</table>`
    }
<h2>New project</h2>
${errorSummary(errors, { name: "Project name" })}
<form method="post" action="/console/projects" novalidate>
  ${csrfField(pc)}
  ${textField({ name: "name", label: "Project name", value: form.name, error: errors.name, hint: "Name it after the application that calls the API, for example billing-backend. Letters, digits, spaces, dots, dashes and underscores." })}
  <button type="submit">Create project</button>
</form>`,
  );
}

export interface ProjectView {
  project: ProjectRow;
  plan: PlanRow;
  keys: ApiKeyRow[];
  usage: { minute: { used: number; limit: number }; month: { used: number; limit: number; period: string } };
  daily: Array<{ day: string; requests: number }>;
  notice?: string | undefined;
  /** What was submitted, shown again with its errors. */
  form?: { label?: string | undefined; scopes?: string[]; domains?: string[]; errors?: FieldErrors };
}

/** `used` may pass the limit: refused requests count against the minute too. */
function usageMeter(id: string, label: string, used: number, limit: number): Html {
  const shown = Math.min(used, limit);
  return html`<div class="usage">
  <label for="${id}">${label}: <strong>${count(shown)}</strong> of ${count(limit)} requests${used >= limit ? " (limit reached)" : ""}</label>
  <meter id="${id}" min="0" max="${limit}" low="${Math.round(limit * 0.7)}" high="${Math.round(limit * 0.9)}" optimum="0" value="${shown}">${count(shown)} of ${count(limit)}</meter>
</div>`;
}

function keysTable(pc: PageContext, view: ProjectView): Html {
  if (view.keys.length === 0) return html`<p>No key yet: create one below.</p>`;
  return html`<div class="table-scroll"><table class="stack">
  <caption class="visually-hidden">API keys of ${view.project.name}</caption>
  <thead><tr><th scope="col">Key</th><th scope="col">Label</th><th scope="col">Scopes</th><th scope="col">Fields of law</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th></tr></thead>
  <tbody>${view.keys.map(
    (k) => html`<tr${k.revokedAt ? html` class="revoked"` : null}>
    <td data-label="Key"><code>${KEY_PREFIX}_live_${k.lookupId}_…</code></td>
    <td data-label="Label">${k.label ?? ""}</td>
    <td data-label="Scopes">${k.scopes.join(", ")}</td>
    <td data-label="Fields of law">${k.domains ? k.domains.join(", ") : "all"}</td>
    <td data-label="Created">${when(k.createdAt)}</td>
    <td data-label="Last used">${when(k.lastUsedAt)}</td>
    <td data-label="Status">${
      k.revokedAt
        ? html`Revoked ${when(k.revokedAt)}`
        : html`Active
      <form method="post" action="/console/projects/${view.project.id}/keys/${k.lookupId}/revoke" class="inline" data-confirm="Revoke key ${k.lookupId}? Requests with it are refused at once; this cannot be undone.">
        ${csrfField(pc)}
        <button type="submit" class="danger" aria-label="Revoke key ${k.lookupId}">Revoke</button>
      </form>`
    }</td>
  </tr>`,
  )}</tbody>
</table></div>`;
}

function newKeyForm(pc: PageContext, view: ProjectView): Html {
  const errors = view.form?.errors ?? {};
  const scopes = SCOPES.filter((s) => s !== "ingest:write" || pc.account?.role === "editor");
  const tickedScopes: string[] = view.form?.scopes ?? DEFAULT_SCOPES;
  const tickedDomains: string[] = view.form?.domains ?? [];
  return html`<h3>New key</h3>
${errorSummary(errors, { label: "Label", scopes: "Scopes", domains: "Fields of law" })}
<form method="post" action="/console/projects/${view.project.id}/keys" novalidate>
  ${csrfField(pc)}
  ${textField({ name: "label", label: "Label (optional)", value: view.form?.label, error: errors.label, required: false, hint: "Where the key is used, for example production server." })}
  <fieldset id="scopes"${errors.scopes ? html` aria-describedby="scopes-error"` : null}>
    <legend>Scopes</legend>
    ${errors.scopes ? html`<p class="error" id="scopes-error">${errors.scopes}</p>` : null}
    ${scopes.map((scope) => {
      const unavailable = scope === "answer:write" && !view.plan.answerEnabled;
      const id = `scope-${scope.replace(":", "-")}`;
      return html`<div class="check">
      <input type="checkbox" id="${id}" name="scopes" value="${scope}"${tickedScopes.includes(scope) ? html` checked` : null}${unavailable ? html` disabled aria-describedby="${id}-hint"` : null}>
      <label for="${id}"><code>${scope}</code>: ${SCOPE_DESCRIPTIONS[scope]}</label>
      ${unavailable ? html`<p class="hint" id="${id}-hint">Not on the ${view.plan.name} plan.</p>` : null}
    </div>`;
    })}
  </fieldset>
  <fieldset id="domains"${errors.domains ? html` aria-describedby="domains-error"` : null}>
    <legend>Fields of law</legend>
    ${errors.domains ? html`<p class="error" id="domains-error">${errors.domains}</p>` : null}
    <p class="hint">Leave all unticked for every field. A key limited to some fields gets 403 for the others.</p>
    <div class="columns">${DOMAINS.map(
      (domain) =>
        html`<div class="check"><input type="checkbox" id="domain-${domain}" name="domains" value="${domain}"${tickedDomains.includes(domain) ? html` checked` : null}><label for="domain-${domain}">${domain}</label></div>`,
    )}</div>
  </fieldset>
  <button type="submit">Create key</button>
</form>`;
}

export function projectPage(pc: PageContext, view: ProjectView): Html {
  const { plan } = view;
  return page(
    view.project.name,
    pc,
    html`${notice(view.notice)}
<section aria-labelledby="plan-heading">
  <h2 id="plan-heading">Plan and usage</h2>
  <p>Plan <strong>${plan.name}</strong>: ${count(plan.requestsPerMinute)} requests a minute,
  ${count(plan.requestsPerMonth)} a month, answer endpoint ${plan.answerEnabled ? "included" : "not included"}.</p>
  ${usageMeter("usage-minute", "This minute", view.usage.minute.used, view.usage.minute.limit)}
  ${usageMeter("usage-month", `This month (${view.usage.month.period})`, view.usage.month.used, view.usage.month.limit)}
  ${usageChart(view.daily)}
</section>
<section aria-labelledby="keys-heading">
  <h2 id="keys-heading">API keys</h2>
  <p>Keys are shown by their lookup id; the secret part is shown once, when the key is created.</p>
  ${keysTable(pc, view)}
  ${newKeyForm(pc, view)}
</section>`,
  );
}

/** The only page that ever shows a key's secret: not cached (the route sets no-store). */
export function keyCreatedPage(pc: PageContext, project: ProjectRow, key: string, baseUrl: string): Html {
  return page(
    "Your new API key",
    pc,
    html`<div class="warning" role="alert">
  <p><strong>Copy the key now: this is the only time it is shown.</strong> We keep only a hash of it,
  so it cannot be shown again. If you lose it, revoke it and create a new one.</p>
  <p>Keep it on your server (an environment variable or a secret manager). Never put it in browser
  code, a mobile app or a public repository.</p>
</div>
<div class="field">
  <label for="new-key">API key for ${project.name}</label>
  <div class="copy-row">
    <input id="new-key" type="text" readonly value="${key}" spellcheck="false" autocomplete="off">
    <button type="button" data-copy="new-key" aria-describedby="copy-status">Copy</button>
  </div>
  <p id="copy-status" class="hint" role="status" aria-live="polite"></p>
</div>
<h2>Try it</h2>
<pre class="wrap"><code>curl -H "Authorization: Bearer $LEGAL_CORPUS_KEY" "${baseUrl}/api/v1/search?q=licenciement"</code></pre>
<p><a href="/console/projects/${project.id}">Back to ${project.name}</a></p>`,
  );
}
