import { foldAccents, numberKey } from "../core/public-ids.ts";

/**
 * Reading a citation as a person writes it: "article L. 1237-1-1 du code du travail",
 * "art. R4451-39 C. trav.", "CSS L161-1", "article 1 du CRPA". Pure: it finds the article
 * number and which loaded document the rest names; the store looks the provision up.
 */

export interface CitedDocument {
  publicId: string;
  title: string;
}

export interface ParsedCitation {
  /** The article number as written, normalised to the store's number key. */
  numberKey: string | null;
  number: string | null;
  /** Loaded documents the citation names (none when it names none we hold). */
  documents: CitedDocument[];
  /** Text that named a document we could not match: it may not be loaded. */
  unmatchedDocumentText: string | null;
}

const SMALL_WORDS = new Set([
  "de",
  "du",
  "des",
  "la",
  "le",
  "les",
  "l",
  "et",
  "entre",
  "d",
  "a",
  "au",
  "aux",
]);

const normalise = (text: string) =>
  foldAccents(text)
    .toLowerCase()
    .replace(/[’']/g, " ")
    .replace(/[^a-z0-9.\s-]/g, " ")
    .replace(/\s+/g, " ")
    .trim();

/** Ways people name a document: its title, its title without "code", its initials, usual abbreviations. */
export function documentAliases(title: string): string[] {
  const words = normalise(title)
    .replace(/\./g, " ")
    .split(" ")
    .filter((w) => w && !SMALL_WORDS.has(w));
  const aliases = new Set([normalise(title).replace(/\./g, ""), words.join(" ")]);
  if (words.length >= 2) aliases.add(words.map((w) => w[0]).join(""));
  if (words[0] === "code" && words.length >= 2) {
    // "C. trav.", "c trav", "code trav": the first letters of the first subject word.
    const subject = words.slice(1);
    aliases.add(`c ${subject.map((w) => w.slice(0, 4)).join(" ")}`);
    aliases.add(`c ${subject.map((w) => w.slice(0, 3)).join(" ")}`);
    aliases.add(`code ${subject.map((w) => w.slice(0, 4)).join(" ")}`);
    aliases.add(`code ${subject[0]}`);
    aliases.add(`c ${subject[0]!.slice(0, 4)}`);
    aliases.add(`c ${subject[0]!.slice(0, 3)}`);
  }
  return [...aliases].filter((a) => a.length >= 2);
}

/**
 * An article number: an optional letter prefix (L, R, D, A, LO) with or without a dot, digits
 * with hyphenated parts, and Latin suffixes (bis, ter…). "Annexe" numbers are matched too.
 */
const NUMBER =
  /\b(?:articles?|art\.?)?\s*((?:LO|[LRDA])\s*\.?\s*\*?\s*\d+(?:\s*-\s*\d+)*(?:\s+(?:bis|ter|quater|quinquies|sexies|septies|octies|nonies|decies))?|annexe\s+[0-9ivxlc]+(?:-\d+)?|\d+(?:\s*-\s*\d+)*(?:\s+(?:bis|ter|quater|quinquies|sexies|septies|octies|nonies|decies))?)\b/i;

/**
 * The article number a search query names, as the store's number key, or null: "L1237-1-1",
 * "L. 1237-1-1", "l 1237-1-1", "article L. 1237-1-1", "art. R4451-39", "article 1", "annexe I".
 * A bare number ("35 heures", "2023") is an article number only after "article" or "art.".
 * The search engines rank the provision with that number first.
 */
export function articleNumberKey(query: string): string | null {
  for (const match of query.matchAll(new RegExp(NUMBER.source, "gi"))) {
    const named = /^(?:articles?|art\.?)\b/i.test(match[0].trim());
    // L, R and D in either case; A and LO only in capitals ("a 16 ans" is no article A16).
    const prefixed = /^[LRD]/i.test(match[1]!) || /^(?:LO|A)/.test(match[1]!) || /^annexe/i.test(match[1]!);
    if (named || prefixed)
      return numberKey(match[1]!.replace(/\s*-\s*/g, "-").replace(/^((?:LO|[LRDA]))\s*\.?\s*\*?\s*/i, "$1"));
  }
  return null;
}

export function parseCitation(text: string, loaded: CitedDocument[]): ParsedCitation {
  const match = NUMBER.exec(text);
  const number = match
    ? match[1]!
        .replace(/\s*-\s*/g, "-")
        .replace(/\s+/g, " ")
        .trim()
    : null;
  const rest = normalise(
    match ? text.slice(0, match.index) + " " + text.slice(match.index + match[0].length) : text,
  )
    .replace(/\./g, " ")
    .replace(/\s+/g, " ");
  const padded = ` ${rest} `;
  // The longest alias that appears as whole words wins; ties keep every document (ambiguity).
  let best = 0;
  let documents: CitedDocument[] = [];
  for (const doc of loaded) {
    for (const alias of documentAliases(doc.title)) {
      if (!padded.includes(` ${alias} `)) continue;
      if (alias.length > best) {
        best = alias.length;
        documents = [doc];
      } else if (alias.length === best && !documents.includes(doc)) documents.push(doc);
    }
  }
  const leftover = rest
    .replace(/\b(article|articles|art|du|de|la|le|des|l)\b/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return {
    number,
    numberKey: number ? numberKey(number) : null,
    documents,
    unmatchedDocumentText: documents.length === 0 && leftover ? leftover : null,
  };
}
