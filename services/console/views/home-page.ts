import { COVERAGE_RULE } from "../../presenters/catalogue.ts";
import type { CorpusStats } from "../../store/stats.ts";
import { count, type Html, html } from "../html.ts";
import { page } from "./layout.ts";

/**
 * The landing page at `/`: what the service is and where everything is, for a person who typed
 * the address (before, a JSON 404). Public, the same for everyone.
 */
export function homePage(publicUrl: string, stats: CorpusStats): Html {
  return page(
    "Legal corpus: French law as an API",
    { account: undefined, csrf: "" },
    html`<p>Published French law (codes and acts from the official LEGI data) as a read-only JSON
API: full-text search filtered by field of law, provisions and documents with their versions,
what changed since a date, answers bound to cited provisions, and an endpoint for AI agents
(Model Context Protocol). ${count(stats.documents)} documents and ${count(stats.provisions)}
provisions are loaded.</p>
<div class="rule" role="note"><p><strong>${COVERAGE_RULE}</strong></p></div>

<h2>Where to go</h2>
<ul class="links">
  <li><a href="/api/v1/docs">API reference</a>: every endpoint, its parameters and errors
    (<a href="/api/v1/openapi.json">OpenAPI 3.1 document</a>).</li>
  <li><a href="/console/sign-up">Console</a>: sign up, create a project and an API key, follow
    usage (<a href="/console/sign-in">sign in</a>).</li>
  <li><a href="/coverage">Coverage</a>: what the corpus holds, per field of law and per document.</li>
  <li><a href="/readyz">Status</a>: whether the store, search and rate limits are ready.</li>
</ul>

<h2>First request</h2>
<pre class="wrap"><code>curl -H "Authorization: Bearer &lt;API_KEY&gt;" \\
  "${publicUrl}/api/v1/search?q=rupture+conventionnelle"</code></pre>

<h2>For AI agents</h2>
<p>The MCP endpoint is <code>${publicUrl}/mcp</code> (Streamable HTTP, the same API key as a
bearer token).</p>`,
  );
}
