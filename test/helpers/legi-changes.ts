import { readFileSync } from "node:fs";

/**
 * The change log's expected content, computed straight from raw LEGI files with the rules the
 * README states, without the adapter or ingest/pipeline/derive-changes.ts: the oracle the
 * change-tracking test compares the store with. Keys are `<article cid>|<kind>|<version id>` (renumberings:
 * `<cid>|renumbered|<old>|<new>`), counted per kind.
 */

interface RawVersion {
  id: string;
  etat: string | null;
  dateDebut: number;
  dateFin: number;
}

interface RawArticle {
  id: string;
  cid: string;
  num: string;
  etat: string | null;
  dateDebut: number;
  dateFin: number;
  articleVersions?: RawVersion[];
}

interface RawNode {
  type: string;
  data: RawArticle;
  children?: RawNode[];
}

/** LEGI's placeholders: 2222-02-22 (a date not yet known) and 2999-01-01 (no end), and later. */
const OPEN = Date.UTC(2222, 1, 22);
const REPEAL = new Set(["ABROGE", "ABROGE_DIFF", "ANNULE", "PERIME"]);
const MOVED_AWAY = new Set(["TRANSFERE", "DEPLACE", "REMPLACE", "DENONCE"]);

/** First placement of every article in a code file. */
export function rawArticles(file: string): Map<string, RawArticle> {
  const articles = new Map<string, RawArticle>();
  const walk = (nodes: RawNode[] | undefined) => {
    for (const node of nodes ?? []) {
      if (node.type === "article") {
        if (!articles.has(node.data.cid)) articles.set(node.data.cid, node.data);
      } else walk(node.children);
    }
  };
  walk((JSON.parse(readFileSync(file, "utf8")) as { children: RawNode[] }).children);
  return articles;
}

/** The events an article's version history records. */
function historyKeys(a: RawArticle): string[] {
  const versions = [...(a.articleVersions ?? [])];
  if (!versions.some((v) => v.id === a.id))
    versions.push({ id: a.id, etat: a.etat, dateDebut: a.dateDebut, dateFin: a.dateFin });
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const effective = versions
    .map((v, i) => ({ v, i }))
    .filter(({ v }) => !(v.dateFin < OPEN && day(v.dateDebut) >= day(v.dateFin)))
    .sort((x, y) => day(x.v.dateDebut).localeCompare(day(y.v.dateDebut)) || x.i - y.i)
    .map(({ v }) => v);
  const keys: string[] = [];
  let previousRepealed = true;
  for (const v of effective) {
    keys.push(`${a.cid}|${previousRepealed ? "added" : "amended"}|${v.id}`);
    const continued = versions.some((w) => day(w.dateDebut) === day(v.dateFin));
    const repealed =
      v.dateFin < OPEN && !continued && !!v.etat && (REPEAL.has(v.etat) || MOVED_AWAY.has(v.etat));
    if (repealed) keys.push(`${a.cid}|repealed|${v.id}`);
    previousRepealed = repealed;
  }
  return keys;
}

const numberKey = (n: string) =>
  n
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toUpperCase()
    .replace(/[\s.*°]+/g, "");

export type KindCounts = { added: number; amended: number; repealed: number };

const countKinds = (keys: Iterable<string>): KindCounts => {
  const counts = { added: 0, amended: 0, repealed: 0 };
  for (const key of keys) {
    const kind = key.split("|")[1]!;
    counts[(kind === "renumbered" ? "amended" : kind) as keyof KindCounts] += 1;
  }
  return counts;
};

/** What the first ingest of a code records: its whole history. */
export function expectedFirstIngest(file: string): KindCounts {
  return countKinds([...rawArticles(file).values()].flatMap(historyKeys));
}

/** What ingesting `newer` over `older` records: new history, vanished articles, renumberings. */
export function expectedReingest(olderFile: string, newerFile: string): KindCounts {
  const older = rawArticles(olderFile);
  const newer = rawArticles(newerFile);
  const known = new Set([...older.values()].flatMap(historyKeys));
  const recorded = new Set<string>();
  for (const a of newer.values()) {
    for (const key of historyKeys(a)) if (!known.has(key)) recorded.add(key);
    const before = older.get(a.cid);
    if (before && before.id === a.id && numberKey(before.num) !== numberKey(a.num))
      recorded.add(`${a.cid}|renumbered|${before.num}|${a.num}`);
  }
  for (const a of older.values()) {
    const key = `${a.cid}|repealed|${a.id}`;
    if (!newer.has(a.cid) && !known.has(key)) recorded.add(key);
  }
  return countKinds(recorded);
}
