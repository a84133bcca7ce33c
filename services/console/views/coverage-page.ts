import { DOMAINS } from "../../core/domains.ts";
import { COVERAGE_RULE } from "../../presenters/catalogue.ts";
import type { CorpusStats } from "../../store/stats.ts";
import { count, type Html, html, when } from "../html.ts";
import { type PageContext, page } from "./layout.ts";

/**
 * The public coverage page that `meta.coverage_note` and the `x-coverage-url` header point to:
 * what is loaded, per domain and per document, from which source and snapshot, and when.
 */
export function coveragePage(pc: PageContext, stats: CorpusStats): Html {
  const domains = DOMAINS.filter((d) => (stats.perDomain[d] ?? 0) > 0).map(
    (d) => [d, stats.perDomain[d]!] as const,
  );
  const empty = DOMAINS.filter((d) => !stats.perDomain[d]);
  const titleOf = new Map(stats.perDocument.map((d) => [d.publicId, d.title]));
  return page(
    "What the corpus holds",
    pc,
    html`<div class="rule" role="note">
  <p><strong>${COVERAGE_RULE}</strong> Before telling anyone that a law does not exist, check that
  the act is listed here.</p>
</div>
<p>${count(stats.documents)} documents and ${count(stats.provisions)} provisions are loaded
(${count(stats.provisionsInForce)} in force; ${count(stats.provisionsUnclassified)} not classified
in any field of law). Last ingest: ${
      stats.lastIngest
        ? html`${when(stats.lastIngest.finishedAt)}, from ${stats.lastIngest.sourceVersion ?? stats.lastIngest.source}`
        : "none yet"
    }.</p>

<h2 id="by-domain">By field of law</h2>
${
  domains.length === 0
    ? html`<p>No provision is classified in a field of law yet.</p>`
    : html`<div class="table-scroll"><table>
  <thead><tr><th scope="col">Field of law</th><th scope="col" class="num">Provisions</th><th scope="col">Documents</th></tr></thead>
  <tbody>${domains.map(
    ([domain, n]) =>
      html`<tr><th scope="row">${domain}</th><td class="num">${count(n)}</td><td>${(stats.documentsPerDomain[domain] ?? []).map((id) => titleOf.get(id) ?? id).join("; ")}</td></tr>`,
  )}</tbody>
</table></div>`
}
${
  empty.length > 0
    ? html`<p id="not-loaded">Nothing is loaded yet in: ${empty.join(", ")}. A search restricted to these fields returns
nothing, and that says nothing about the law.</p>`
    : null
}

<h2 id="documents">Documents</h2>
${
  stats.perDocument.length === 0
    ? html`<p>Nothing is loaded yet.</p>`
    : html`<div class="table-scroll"><table>
  <thead><tr><th scope="col">Document</th><th scope="col">Fields of law</th><th scope="col" class="num">Provisions</th><th scope="col">Source and snapshot</th><th scope="col">Last loaded</th></tr></thead>
  <tbody>${stats.perDocument.map(
    (d) =>
      html`<tr><th scope="row">${d.title}<br><span class="id">${d.publicId}</span></th><td>${d.domains.length ? d.domains.join(", ") : "not classified"}</td><td class="num">${count(d.provisions)}</td><td>${d.sourceVersion ?? d.source}</td><td>${when(d.loadedAt)}</td></tr>`,
  )}</tbody>
</table></div>`
}
<h2 id="guides">Guides search reads</h2>
${
  stats.guides.length === 0
    ? html`<p>No guide is loaded: search reads the provisions' own words only.</p>`
    : html`<p>Search also reads the wording of official guides that cite a provision (never part of its text), and the abbreviations they define as their full form.</p>
<div class="table-scroll"><table>
  <thead><tr><th scope="col">Guides</th><th scope="col">Snapshot</th><th scope="col" class="num">Guides</th><th scope="col" class="num">Provisions cited</th><th scope="col" class="num">Abbreviations</th><th scope="col">Loaded</th></tr></thead>
  <tbody>${stats.guides.map(
    (g) =>
      html`<tr><th scope="row">${g.source}</th><td>${g.version}${g.withParagraphs ? " (titles and paragraphs)" : " (titles)"}</td><td class="num">${count(g.guides)}</td><td class="num">${count(g.provisions)}</td><td class="num">${count(g.abbreviations)}</td><td>${when(g.loadedAt)}</td></tr>`,
  )}</tbody>
</table></div>`
}

<p>The same information as JSON: <code>GET /api/v1/coverage</code> (scope <code>corpus:read</code>), and the
MCP resource <code>corpus://coverage</code>.</p>`,
  );
}
