/**
 * A browser-less console client for integration tests: keeps cookies like a browser, reads the
 * CSRF token from the last page's forms and posts forms as a browser does.
 */
export interface PageResponse {
  status: number;
  text: string;
  headers: Headers;
  location: string | null;
}

export class ConsoleClient {
  readonly cookies = new Map<string, string>();
  private csrf = "";

  constructor(private readonly baseUrl: string) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  private async send(path: string, init: RequestInit): Promise<PageResponse> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      ...init,
      redirect: "manual",
      headers: { ...(init.headers as Record<string, string>), cookie: this.cookieHeader() },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const [name, ...value] = pair!.split("=");
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(cookie)) this.cookies.delete(name!);
      else this.cookies.set(name!, value.join("="));
    }
    const text = await response.text();
    const token = /name="_csrf" value="([^"]+)"/.exec(text);
    if (token) this.csrf = token[1]!;
    return {
      status: response.status,
      text,
      headers: response.headers,
      location: response.headers.get("location"),
    };
  }

  get(path: string): Promise<PageResponse> {
    return this.send(path, { method: "GET" });
  }

  /** Posts a form with the CSRF token of the last page read (unless the form sets `_csrf` itself). */
  post(path: string, form: Record<string, string | string[]>): Promise<PageResponse> {
    const body = new URLSearchParams();
    if (!("_csrf" in form)) body.append("_csrf", this.csrf);
    for (const [name, value] of Object.entries(form)) {
      for (const v of Array.isArray(value) ? value : [value]) body.append(name, v);
    }
    return this.send(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: body.toString(),
    });
  }

  /** Signs up (from the sign-up page, as a person would) and follows the redirect. */
  async signUp(email: string, password: string): Promise<PageResponse> {
    await this.get("/console/sign-up");
    const response = await this.post("/console/sign-up", { email, password });
    if (response.status !== 303) throw new Error(`sign-up failed: ${response.status}\n${response.text}`);
    return this.get(response.location!);
  }
}

/** The text of a page without its markup, for assertions about what a person reads. */
export const visibleText = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, "")
    .replace(/<\/?(?:strong|code|span|a|em)\b[^>]*>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
