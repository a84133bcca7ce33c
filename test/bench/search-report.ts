import type { SetupKind } from "./api-setup.ts";
import type { LoadSummary } from "./latency.ts";
import type { ReferenceTiming } from "./reference-timing.ts";
import { markdownTable } from "./report.ts";
import { KIND_LABELS, QUERY_KINDS, type QueryKind, SEARCH_QUERIES } from "./search-queries.ts";

/** The concurrencies every cell of bench:search is measured at: an idle server, and the load. */
export const CONCURRENCIES = [1, 32] as const;
export type Concurrency = (typeof CONCURRENCIES)[number];

/** The targets (issue 17); missing one is printed plainly, never an exit code. */
export const SEARCH_TARGETS = {
  /** Embedded question p50 over OpenSearch raw `_search` question p50. */
  embeddedOverOpenSearch: 2,
  /** Any long query's p50 over the question p50, on the same set-up. */
  longOverQuestion: 3,
  /** /healthz p99 under 32 long searches over one question's p50 (embedded, one connection). */
  healthOverQuestion: 1,
};

/** One load phase: its latencies, the requests that failed, and how busy other work kept the machine. */
export interface Cell {
  summary: LoadSummary;
  failed: number;
  /** Share of the CPUs other work took during the window (0–1); undefined where /proc cannot tell. */
  otherWork: number | undefined;
}

export interface KindFigures {
  api: Record<Concurrency, Cell>;
  raw: Record<Concurrency, Cell>;
}

/** /healthz sampled on an idle server, then while 32 connections send long searches. */
export interface HealthFigures {
  idle: LoadSummary;
  underLoad: LoadSummary;
  load: Cell;
  /**
   * The same probe on a bare HTTP server on the server's CPUs, idle and under the same load: the
   * machine's floor for a new-connection probe, measured in the same run.
   */
  bare: { idle: LoadSummary; underLoad: LoadSummary };
  failed: number;
}

export interface SetupFigures {
  kind: SetupKind;
  label: string;
  /** "raw engine" (PostgresSearchEngine.search in the benchmark process) or "raw _search". */
  rawLabel: string;
  byKind: Record<QueryKind, KindFigures>;
  health: HealthFigures | undefined;
  /** The API server's memory after its cells, its two processes summed (undefined where /proc cannot be read). */
  memory?: ServerMemory | undefined;
}

export interface ServerMemory {
  residentMb: number;
  peakMb: number;
}

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : "—");
const ratio = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : "—");
const share = (cell: Cell) => (cell.otherWork === undefined ? "?" : `${Math.round(cell.otherWork * 100)}%`);
const verdict = (value: number, target: number) =>
  Number.isFinite(value) ? (value <= target ? "**met**" : "**missed**") : "not measured";

/** One row per query kind and path (API, then the raw engine): p50 and p99 at each concurrency. */
export function formatSetupTable(setup: SetupFigures): string {
  const rows = QUERY_KINDS.flatMap((kind) => {
    const figures = setup.byKind[kind];
    const row = (path: string, cells: Record<Concurrency, Cell>) => [
      KIND_LABELS[kind],
      path,
      ms(cells[1].summary.p50Ms),
      ms(cells[1].summary.p99Ms),
      ms(cells[32].summary.p50Ms),
      ms(cells[32].summary.p99Ms),
      Math.round(cells[32].summary.perSecond).toString(),
      `${cells[1].failed + cells[32].failed}`,
      `${share(cells[1])}, ${share(cells[32])}`,
    ];
    return [row("API", figures.api), row(setup.rawLabel, figures.raw)];
  });
  return markdownTable(
    [
      "query kind",
      "path",
      "c=1 p50 ms",
      "c=1 p99 ms",
      "c=32 p50 ms",
      "c=32 p99 ms",
      "c=32 per s",
      "errors",
      "other work",
    ],
    rows,
  );
}

/** The in-process BM25 reference, one loop: no c=32 column, a synchronous ranker has no concurrency. */
export function formatReferenceTable(reference: ReferenceTiming): string {
  return markdownTable(
    ["query kind", "p50 ms", "p99 ms", "calls"],
    QUERY_KINDS.map((kind) => {
      const s = reference.byKind[kind];
      return [KIND_LABELS[kind], ms(s.p50Ms), ms(s.p99Ms), s.calls.toString()];
    }),
  );
}

/** The API's p50 over its baselines' (raw engine and BM25 reference), per kind, at one connection. */
export function formatBaselineRatios(setups: SetupFigures[], reference: ReferenceTiming | undefined): string {
  const rows = setups.flatMap((setup) =>
    QUERY_KINDS.map((kind) => {
      const api = setup.byKind[kind].api;
      const raw = setup.byKind[kind].raw;
      return [
        setup.label,
        KIND_LABELS[kind],
        ratio(api[1].summary.p50Ms / raw[1].summary.p50Ms),
        ratio(api[32].summary.p50Ms / raw[32].summary.p50Ms),
        reference ? ratio(api[1].summary.p50Ms / reference.byKind[kind].p50Ms) : "—",
      ];
    }),
  );
  return markdownTable(
    ["set-up", "query kind", "API / raw p50, c=1", "API / raw p50, c=32", "API / BM25 reference p50, c=1"],
    rows,
  );
}

/** What a query looks like in a table: its start, and its length. */
export function describeQuery(q: string): string {
  const start = q.length > 40 ? `${q.slice(0, 40).trimEnd()}…` : q;
  return `"${start.replaceAll("|", "\\|")}" (${q.length} chars)`;
}

/** Each long query's own p50 at one connection, and its ratio to the same set-up's question p50. */
export function formatLongQueries(setups: SetupFigures[]): string {
  return markdownTable(
    ["long query", ...setups.map((s) => `${s.label} p50 ms (× questions)`)],
    SEARCH_QUERIES.long.map((query, i) => [
      describeQuery(query.q),
      ...setups.map((setup) => {
        const p50 = setup.byKind.long.api[1].summary.perQueryP50Ms?.[i] ?? Number.NaN;
        return `${ms(p50)} (${ratio(p50 / setup.byKind.questions.api[1].summary.p50Ms)})`;
      }),
    ]),
  );
}

/** The worst long query's p50 over the question p50, on one set-up, at one connection. */
export function worstLongRatio(setup: SetupFigures): { ratio: number; query: string } {
  const perQuery = setup.byKind.long.api[1].summary.perQueryP50Ms ?? [];
  const question = setup.byKind.questions.api[1].summary.p50Ms;
  let worst = { ratio: Number.NaN, query: "" };
  perQuery.forEach((p50, i) => {
    const r = p50 / question;
    if (!(r <= worst.ratio)) worst = { ratio: r, query: SEARCH_QUERIES.long[i]!.q };
  });
  return worst;
}

/** One row per target: the figure it is judged on, and whether it is met. */
export function formatTargets(setups: SetupFigures[]): string {
  const find = (kind: SetupKind) => setups.find((s) => s.kind === kind);
  const rows: string[][] = [];
  const embedded = find("embedded");
  const openSearch = find("opensearch");
  for (const c of CONCURRENCIES) {
    const mine = embedded?.byKind.questions.api[c].summary.p50Ms ?? Number.NaN;
    const theirs = openSearch?.byKind.questions.raw[c].summary.p50Ms ?? Number.NaN;
    rows.push([
      `embedded question p50 ≤ ${SEARCH_TARGETS.embeddedOverOpenSearch}× OpenSearch raw \`_search\` question p50, c=${c}${c === 1 ? "" : " (for information)"}`,
      `${ms(mine)} / ${ms(theirs)} ms = ${ratio(mine / theirs)}`,
      c === 1 ? verdict(mine / theirs, SEARCH_TARGETS.embeddedOverOpenSearch) : "",
    ]);
  }
  for (const setup of setups) {
    const question = setup.byKind.questions.api[1].summary.p50Ms;
    const long = setup.byKind.long.api[1].summary.p50Ms;
    const worst = worstLongRatio(setup);
    rows.push([
      `every long query's p50 ≤ ${SEARCH_TARGETS.longOverQuestion}× the question p50, ${setup.label}, c=1`,
      `long kind ${ms(long)} / ${ms(question)} ms = ${ratio(long / question)}; worst ${ratio(worst.ratio)} (${describeQuery(worst.query)})`,
      verdict(worst.ratio, SEARCH_TARGETS.longOverQuestion),
    ]);
  }
  const health = embedded?.health;
  if (embedded && health) {
    const question = embedded.byKind.questions.api[1].summary.p50Ms;
    rows.push([
      "/healthz p99 while 32 long searches run ≤ one question's p50 (embedded, c=1)",
      `${ms(health.underLoad.p99Ms)} ms (p50 ${ms(health.underLoad.p50Ms)}, idle p99 ${ms(health.idle.p99Ms)}; a bare HTTP server's p99 ${ms(health.bare.underLoad.p99Ms)} under the same load, ${ms(health.bare.idle.p99Ms)} idle) vs ${ms(question)} ms = ${ratio(health.underLoad.p99Ms / question)}`,
      verdict(health.underLoad.p99Ms / question, SEARCH_TARGETS.healthOverQuestion),
    ]);
  }
  return markdownTable(["target", "figure", "verdict"], rows);
}

/** The /healthz sample of the embedded set-up, beside the load it ran under. */
export function formatHealth(health: HealthFigures): string {
  const row = (label: string, s: LoadSummary) => [label, ms(s.p50Ms), ms(s.p99Ms), s.calls.toString()];
  return markdownTable(
    ["/healthz", "p50 ms", "p99 ms", "probes"],
    [
      row("idle server", health.idle),
      row(
        `while 32 connections send long searches (${ms(health.load.summary.p50Ms)} ms p50 each)`,
        health.underLoad,
      ),
      row("bare HTTP server on the same CPUs (the floor), idle", health.bare.idle),
      row("bare HTTP server, while the same load runs again", health.bare.underLoad),
    ],
  );
}

/** Everything the run prints and writes into docs/PERFORMANCE.md, after its heading. */
export function formatReport(setups: SetupFigures[], reference: ReferenceTiming | undefined): string {
  const parts: string[] = [];
  for (const setup of setups) {
    const memory = setup.memory
      ? ` API server (front and API process): ${setup.memory.residentMb.toFixed(0)} MB resident after its cells, ${setup.memory.peakMb.toFixed(0)} MB at their peaks.`
      : "";
    parts.push(`**${setup.label}** (raw = ${setup.rawLabel}):${memory}`, formatSetupTable(setup));
  }
  if (reference)
    parts.push(
      `**BM25 reference in process** (${reference.provisions} provisions, built in ${reference.buildSeconds.toFixed(1)} s; one loop):`,
      formatReferenceTable(reference),
    );
  if (setups.length > 0) {
    parts.push("**API p50 over its baselines:**", formatBaselineRatios(setups, reference));
    parts.push("**Each long query at one connection:**", formatLongQueries(setups));
  }
  const health = setups.find((s) => s.kind === "embedded")?.health;
  if (health) parts.push("**/healthz on the embedded set-up:**", formatHealth(health));
  parts.push("**Targets:**", formatTargets(setups));
  return parts.join("\n\n");
}

/**
 * `text` with whatever lies between the two markers replaced by `block`; undefined when the
 * markers are missing or out of order. The markers stay, so the next run finds them again.
 */
export function replaceBetweenMarkers(
  text: string,
  start: string,
  end: string,
  block: string,
): string | undefined {
  const at = text.indexOf(start);
  const until = text.indexOf(end, at + start.length);
  if (at < 0 || until < 0) return undefined;
  return `${text.slice(0, at + start.length)}\n\n${block}\n\n${text.slice(until)}`;
}
