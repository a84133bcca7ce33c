import type { Domain } from "../core/domains.ts";
import type { Database, Queryable } from "../store/database.ts";
import { readSearchGeneration } from "../store/search-snapshot.ts";
import { articleNumberKey } from "./citations.ts";
import type { SearchEngine, SearchHit, SearchQuery, SearchResult } from "./engine.ts";
import { MemorySearch, type MemorySearchEvents } from "./memory-search.ts";
import { GENERATION, PAGE_OF_IDS, RANKED_PAGE } from "./postgres-ranking-sql.ts";
import { hyphensApart, isHyphenatedWord, queryTerms } from "./query-text.ts";
import { buildSnippet } from "./snippets.ts";
import { Synonyms } from "./synonyms.ts";

/**
 * Postgres search: BM25 over the postings the store keeps of `provisions.search_vector`
 * (migration 003: French stemming with accents folded; number, headings and text weighted A, B,
 * C; migration 009: postings and term statistics). Domains are a column of the same row, so a
 * domain filter is always exact. The model, as SQL, is postgres-ranking-sql.ts; kept in memory
 * (the embedded store), the same model ranks in a thread of its own (memory-index.ts).
 */
interface Row {
  public_id: string;
  number: string;
  document_public_id: string;
  document_title: string;
  section_path: string[];
  text: string;
  status: SearchHit["status"];
  effective_from: string | null;
  effective_to: string | null;
  in_force_from: string | null;
  in_force_to: string | null;
  domains: Domain[];
  score: number;
  total?: number;
  every_term?: boolean;
}

/** The store's search generation, and each alternative ($1) analysed as postgres-ranking-sql.ts's TERMS analyses it. */
const ANALYSE = `SELECT (SELECT value::text FROM search_generation) AS generation,
    ARRAY(SELECT corpus_tsvector(a)::text FROM unnest($1::text[]) WITH ORDINALITY AS x(a, n)
          ORDER BY n) AS vectors`;

/**
 * Alternatives analysed by the store as postgres-ranking-sql.ts's TERMS analyses them (tsvector text, in order), with the
 * store's search generation read in the same statement. Also eval:weights' analysis.
 */
export async function analyseAlternatives(
  db: Queryable,
  alternatives: string[],
  signal?: AbortSignal,
): Promise<{ generation: string; vectors: string[] }> {
  const { rows } = await db.query<{ generation: string; vectors: string[] }>(ANALYSE, [alternatives], {
    signal,
  });
  return rows[0]!;
}

/** Alternatives analysed (tsvector text): the analysis never changes, so it is asked once. */
const ANALYSED_LIMIT = 50_000;

export interface PostgresSearchOptions {
  /**
   * Rank in memory (memory-index.ts) while the copy is current, SQL otherwise: the same model,
   * the same results. Built in the background from the store when the engine starts and after
   * the corpus changes.
   */
  memory?: boolean;
  memoryEvents?: MemorySearchEvents;
}

export class PostgresSearchEngine implements SearchEngine {
  readonly name = "postgres" as const;
  private readonly memory: MemorySearch | undefined;
  private readonly memoryEvents: MemorySearchEvents;
  /** Alternatives as the store analyses them (tsvector text), by alternative. */
  private readonly analysed = new Map<string, string>();

  constructor(
    private readonly db: Database,
    private readonly synonyms: Synonyms = Synonyms.bundled(),
    options: PostgresSearchOptions = {},
  ) {
    this.memoryEvents = options.memoryEvents ?? {};
    if (options.memory) {
      this.memory = new MemorySearch(db, this.memoryEvents);
      void this.memory.refresh();
    }
  }

  /** Resolves once the in-memory copy, if the engine keeps one, is current (tests, benchmarks). */
  async ready(): Promise<void> {
    if (!this.memory) return;
    // A build that saw the corpus move is dropped: try again, a few times.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      if (this.memory.current(await readSearchGeneration(this.db))) return;
      await this.memory.refresh();
    }
    throw new Error(
      "the in-memory search model could not be built: the corpus kept changing, or see the logs",
    );
  }

  async search(query: SearchQuery): Promise<SearchResult> {
    const terms = queryTerms(query.q, query.synonyms ?? this.synonyms).map(withHyphensApart);
    if (this.memory) {
      // A copy that is not current, or a thread that failed (logged), leaves the search to SQL.
      const result = await this.searchInMemory(this.memory, query, terms).catch((error: Error) => {
        this.memoryEvents.failed?.(error);
        return undefined;
      });
      if (result) return result;
    }
    return this.searchInSql(query, terms);
  }

  /** The in-memory model's page, or undefined when its copy is not current. */
  private async searchInMemory(
    memory: MemorySearch,
    query: SearchQuery,
    terms: TermAlternative[][],
  ): Promise<SearchResult | undefined> {
    const flat = terms.flat();
    const alternatives = flat.map((a) => a.text);
    // Words not seen before are analysed by the store, which tells its generation meanwhile;
    // otherwise the copy the thread holds ranks, and the page's rows tell whether it was current.
    const missing = [...new Set(alternatives.filter((a) => !this.analysed.has(a)))];
    let copy = memory.generation;
    if (missing.length > 0) {
      const { generation, vectors } = await analyseAlternatives(this.db, missing, query.signal);
      if (this.analysed.size + missing.length > ANALYSED_LIMIT) this.analysed.clear();
      for (const [i, alternative] of missing.entries()) this.analysed.set(alternative, vectors[i]!);
      copy = memory.current(generation) ? generation : undefined;
    }
    if (copy === undefined) {
      void memory.refresh();
      return undefined;
    }
    const termOf = terms.flatMap((list, term) => list.map(() => term));
    const page = await memory.search(copy, {
      alternatives: flat.map((alternative, i) => ({
        term: termOf[i]!,
        vector: this.analysed.get(alternative.text) ?? "",
        inOrder: alternative.inOrder,
      })),
      numberKey: articleNumberKey(query.q),
      matchAny: query.match === "any",
      domains: query.domains,
      unclassifiedDocuments: query.unclassifiedDocuments ?? [],
      document: query.document,
      inForce: query.inForce,
      asOf: query.asOf,
      limit: query.limit,
      offset: query.offset,
    });
    // The thread let go of that copy meanwhile (a rebuild finished): SQL answers this once.
    if (!page) return undefined;
    const { rows } =
      page.hits.length === 0
        ? await this.db.query<Row & { generation: string }>(GENERATION, [], { signal: query.signal })
        : await this.db.query<Row & { generation: string }>(
            PAGE_OF_IDS,
            [page.hits.map((hit) => hit.id), page.hits.map((hit) => hit.score)],
            { signal: query.signal },
          );
    // The corpus moved since the copy that ranked was built (rows gone, or another generation):
    // SQL answers, and the copy is rebuilt. A rebuild may have finished meanwhile, current at the
    // store's generation: the page is still the older copy's, so SQL answers this once too.
    const generation = rows[0]?.generation;
    if (generation === undefined || !memory.current(generation) || generation !== copy) return undefined;
    const hits = page.hits.length === 0 ? [] : rows;
    const marks = marked(terms);
    return {
      total: page.total,
      holdsEveryTerm: page.holdsEveryTerm,
      filterMode: "exact",
      hits: hits.map((r) => toHit(r, marks)),
    };
  }

  private async searchInSql(query: SearchQuery, terms: TermAlternative[][]): Promise<SearchResult> {
    // The page is chosen first; snippets are computed for that page only.
    const { rows } = await this.db.query<Row>(
      RANKED_PAGE,
      [
        terms.flat().map((a) => a.text),
        terms.flatMap((alternatives, term) => alternatives.map(() => term)),
        query.match === "any",
        articleNumberKey(query.q),
        query.domains,
        query.document,
        query.inForce,
        query.asOf,
        query.unclassifiedDocuments ?? [],
        query.limit,
        query.offset,
        terms.flat().map((a) => a.inOrder),
      ],
      { signal: query.signal },
    );
    // A page past the end still reports the total: the first page's.
    if (rows.length === 0 && query.offset > 0)
      return { ...(await this.searchInSql({ ...query, offset: 0, limit: 1 }, terms)), hits: [] };
    const marks = marked(terms);
    return {
      total: rows[0]?.total ?? 0,
      holdsEveryTerm: rows[0]?.every_term ?? false,
      filterMode: "exact",
      hits: rows.map((r) => toHit(r, marks)),
    };
  }

  describe(): string {
    if (!this.memory) return "ranked in SQL";
    const { built, building } = this.memory.state;
    if (!built) return "ranked in SQL until the in-memory copy is built";
    return building ? "ranked in memory, the copy being rebuilt" : "ranked in memory";
  }

  async ping(): Promise<boolean> {
    try {
      await this.db.query("SELECT 1");
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.memory?.close();
  }
}

/**
 * One alternative of a query term, as Postgres looks for it: its words must all be in the
 * provision and, when `inOrder`, side by side in that order (checked on the provision's vector).
 */
export interface TermAlternative {
  text: string;
  inOrder: boolean;
}

/**
 * A hyphen between two letters joins words (« chèque-vacances », « casse-croûte »). Postgres's
 * parser indexes such a compound as one more lexeme before its parts ('cheque-vac', 'chequ',
 * 'vacanc'), and a query word requires all three: « chèque-vacances » missed the code's
 * « chèques-vacances », and any text writing the words apart. A hyphenated word is also searched
 * as its parts, anywhere in the provision, as the index engines read it (their tokenizer splits at
 * the hyphen and the word's clause requires every part, dsl.ts): so a slug typed as a query
 * (« rupture-contrat-apprentissage ») finds the provisions that hold its words, as on OpenSearch.
 * Within a phrase (a synonym: « compte épargne-temps ») the parts stay side by side, in line with
 * the phrase's other words, as the index engines' phrase query keeps them. The alternative as typed
 * stays first. Article numbers keep their hyphen (« L1237-11 »: a digit before it).
 */
export function withHyphensApart(alternatives: string[]): TermAlternative[] {
  const found = new Map<string, boolean>();
  const add = (text: string, inOrder: boolean) => found.set(text, (found.get(text) ?? true) && inOrder);
  for (const alternative of alternatives) {
    add(alternative, true);
    const apart = hyphensApart(alternative);
    if (apart !== alternative) add(apart, !isHyphenatedWord(alternative));
  }
  return [...found].map(([text, inOrder]) => ({ text, inOrder }));
}

/** Each term's alternatives as snippets read them (snippets.ts marks a hyphenated word's parts). */
const marked = (terms: TermAlternative[][]): string[][] => terms.map((list) => list.map((a) => a.text));

function toHit(r: Row, terms: string[][]): SearchHit {
  return {
    publicId: r.public_id,
    number: r.number,
    document: { publicId: r.document_public_id, title: r.document_title },
    sectionPath: r.section_path,
    snippet: buildSnippet(r.text, r.section_path, terms),
    status: r.status,
    effectiveFrom: r.effective_from,
    effectiveTo: r.effective_to,
    inForceFrom: r.in_force_from,
    inForceTo: r.in_force_to,
    domains: r.domains,
    score: Math.round(r.score * 10000) / 10000,
  };
}
