import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * Counts taken straight from raw LEGI files, independently of the adapter, so ingest counts can
 * be checked against something it did not compute itself.
 */
export interface RawCodeCounts {
  file: string;
  title: string;
  articles: number;
  uniqueArticles: number;
  sections: number;
  versions: number;
  links: number;
  /** stable article id → current version id, for "fully old or fully new" checks. */
  currentVersions: Map<string, string>;
}

interface RawNode {
  type: string;
  data: {
    id: string;
    cid?: string;
    title?: string;
    articleVersions?: Array<{ id: string }>;
    lienModifications?: Array<{ textCid?: string }>;
  };
  children?: RawNode[];
}

export function countRawCode(file: string): RawCodeCounts {
  const code = JSON.parse(readFileSync(file, "utf8")) as RawNode;
  const counts: RawCodeCounts = {
    file: path.basename(file),
    title: code.data.title ?? "",
    articles: 0,
    uniqueArticles: 0,
    sections: 0,
    versions: 0,
    links: 0,
    currentVersions: new Map(),
  };
  const walk = (node: RawNode) => {
    if (node.type === "section") counts.sections += 1;
    if (node.type === "article") {
      counts.articles += 1;
      const cid = node.data.cid ?? node.data.id;
      if (counts.currentVersions.has(cid)) return;
      counts.currentVersions.set(cid, node.data.id);
      const versions = node.data.articleVersions ?? [];
      counts.versions += versions.length + (versions.some((v) => v.id === node.data.id) ? 0 : 1);
      counts.links += (node.data.lienModifications ?? []).filter((l) => l.textCid).length;
      return;
    }
    for (const child of node.children ?? []) walk(child);
  };
  walk(code);
  counts.uniqueArticles = counts.currentVersions.size;
  return counts;
}
