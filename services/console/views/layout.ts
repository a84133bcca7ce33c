import type { AccountRow } from "../../store/accounts.ts";
import { type Html, html } from "../html.ts";

/** What every page needs besides its content: who is signed in, and the form token. */
export interface PageContext {
  account: AccountRow | undefined;
  /** The CSRF token every form posts back (csrf-csrf's double-submit pattern). */
  csrf: string;
}

/** `refreshSeconds`: console.js reloads the page that often (the editor view while a run is under way). */
export function page(
  title: string,
  pc: PageContext,
  content: Html,
  options: { refreshSeconds?: number } = {},
): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Legal corpus</title>
<link rel="stylesheet" href="/console/assets/console.css">
<link rel="icon" href="/console/assets/favicon.svg" type="image/svg+xml">
<script src="/console/assets/console.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site">
  <a class="brand" href="/console">Legal corpus</a>
  <nav aria-label="Main">
    <ul>
      <li><a href="/coverage">Coverage</a></li>
      <li><a href="/api/v1/docs">API reference</a></li>
      ${
        pc.account
          ? html`<li><a href="/console">Projects</a></li>
      ${pc.account.role === "editor" ? html`<li><a href="/console/editor">Editor</a></li>` : null}
      <li>
        <form method="post" action="/console/sign-out" class="inline">
          ${csrfField(pc)}
          <button type="submit" class="link">Sign out <span class="who">(${pc.account.email})</span></button>
        </form>
      </li>`
          : html`<li><a href="/console/sign-in">Sign in</a></li>
      <li><a href="/console/sign-up">Sign up</a></li>`
      }
    </ul>
  </nav>
</header>
<main id="main"${options.refreshSeconds ? html` data-refresh="${options.refreshSeconds}"` : null}>
<h1>${title}</h1>
${content}
</main>
</body>
</html>`;
}

export const csrfField = (pc: PageContext) => html`<input type="hidden" name="_csrf" value="${pc.csrf}">`;

/** Field errors, keyed by form field name: shown beside the field and listed at the top. */
export type FieldErrors = Partial<Record<string, string>>;

export function errorSummary(errors: FieldErrors, labels: Record<string, string>): Html | null {
  const entries = Object.entries(errors).filter(([, message]) => message);
  if (entries.length === 0) return null;
  return html`<div class="error-summary" role="alert" tabindex="-1">
  <h2>There is a problem</h2>
  <ul>${entries.map(([field, message]) => html`<li><a href="#${field}">${labels[field] ?? field}: ${message}</a></li>`)}</ul>
</div>`;
}

export function textField(options: {
  name: string;
  label: string;
  type?: string;
  value?: string | undefined;
  hint?: string;
  error?: string | undefined;
  autocomplete?: string;
  required?: boolean;
}): Html {
  const hintId = `${options.name}-hint`;
  const errorId = `${options.name}-error`;
  const describedBy = [options.hint ? hintId : "", options.error ? errorId : ""].filter(Boolean).join(" ");
  return html`<div class="field${options.error ? " has-error" : ""}">
  <label for="${options.name}">${options.label}</label>
  ${options.hint ? html`<p class="hint" id="${hintId}">${options.hint}</p>` : null}
  ${options.error ? html`<p class="error" id="${errorId}">${options.error}</p>` : null}
  <input id="${options.name}" name="${options.name}" type="${options.type ?? "text"}"
    value="${options.value ?? ""}"${options.autocomplete ? html` autocomplete="${options.autocomplete}"` : null}
    ${options.required === false ? null : html`required`}${describedBy ? html` aria-describedby="${describedBy}"` : null}${options.error ? html` aria-invalid="true"` : null}>
</div>`;
}

/** A notice at the top of a page (after an action), announced to screen readers. */
export const notice = (text: string | undefined) =>
  text ? html`<p class="notice" role="status">${text}</p>` : null;
