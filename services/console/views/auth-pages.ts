import { type Html, html } from "../html.ts";
import { csrfField, errorSummary, type FieldErrors, type PageContext, page, textField } from "./layout.ts";

const LABELS = { email: "E-mail address", password: "Password" };

interface AuthForm {
  email?: string | undefined;
  errors?: FieldErrors;
  /** A problem with the form as a whole (wrong password, too many attempts). */
  problem?: string | undefined;
}

function credentialsFields(form: AuthForm, passwordAutocomplete: string, passwordHint?: string): Html {
  const errors = form.errors ?? {};
  return html`${textField({ name: "email", label: LABELS.email, type: "email", value: form.email, error: errors.email, autocomplete: "email" })}
${textField({ name: "password", label: LABELS.password, type: "password", error: errors.password, autocomplete: passwordAutocomplete, ...(passwordHint ? { hint: passwordHint } : {}) })}`;
}

const problem = (text: string | undefined) =>
  text ? html`<div class="error-summary" role="alert" tabindex="-1"><p>${text}</p></div>` : null;

export function signUpPage(pc: PageContext, form: AuthForm = {}): Html {
  return page(
    "Create an account",
    pc,
    html`<p>An account holds your projects and their API keys. Keys are for your servers: the API is
never called from a browser or a mobile app.</p>
${errorSummary(form.errors ?? {}, LABELS)}${problem(form.problem)}
<form method="post" action="/console/sign-up" novalidate>
  ${csrfField(pc)}
  ${credentialsFields(form, "new-password", "At least 12 characters. A passphrase of several words is easiest to remember.")}
  <button type="submit">Create account</button>
</form>
<p>Have an account already? <a href="/console/sign-in">Sign in</a>.</p>`,
  );
}

export function signInPage(pc: PageContext, form: AuthForm = {}): Html {
  return page(
    "Sign in",
    pc,
    html`${errorSummary(form.errors ?? {}, LABELS)}${problem(form.problem)}
<form method="post" action="/console/sign-in" novalidate>
  ${csrfField(pc)}
  ${credentialsFields(form, "current-password")}
  <button type="submit">Sign in</button>
</form>
<p>No account yet? <a href="/console/sign-up">Create one</a>.</p>`,
  );
}
