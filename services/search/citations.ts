import { foldAccents, numberKey } from "../core/public-ids.ts";

/**
 * Reading a citation as a person writes it: "article L. 1237-1-1 du code du travail",
 * "art. R4451-39 C. trav.", "CSS L161-1", "article 1 du CRPA". Pure: it finds the article
 * number and which loaded document the rest names; the store looks the provision up.
 */

export interface CitedDocument {
  publicId: string;
  title: string;
  /** A short title (a collective agreement's « Journalistes »), read as another of its names. */
  shortTitle?: string | null;
  /** Usual names (« Syntec », « CCN 66 »). */
  aliases?: string[];
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
 * with hyphenated parts, and Latin suffixes (bis, ter…); a bare number may have dotted parts, as
 * collective agreements number their articles (3.4, 1.2.1), and be written 1er. "Annexe"
 * numbers are matched too.
 */
const NUMBER =
  /\b(?:articles?|art\.?)?\s*((?:LO|[LRDA])\s*\.?\s*\*?\s*\d+(?:\s*-\s*\d+)*(?:\s+(?:bis|ter|quater|quinquies|sexies|septies|octies|nonies|decies))?|annexe\s+[0-9ivxlc]+(?:-\d+)?|\d+(?:er)?(?:(?:\s*-\s*|\.)\d+)*(?:\s+(?:bis|ter|quater|quinquies|sexies|septies|octies|nonies|decies))?)\b/i;

/**
 * The article number a search query names, as the store's number key, or null: "L1237-1-1",
 * "L. 1237-1-1", "l 1237-1-1", "article L. 1237-1-1", "art. R4451-39", "article 1", "annexe I".
 * A bare number ("35 heures", "2023") is an article number only after "article" or "art.".
 * The search engines rank the provision with that number first.
 */
const readNumber = (written: string) =>
  written
    .replace(/\s*-\s*/g, "-")
    .replace(/\s+/g, " ")
    .trim();

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

/** The IDCC of a collective agreement's document (`idcc-1486`), or null for any other document. */
export const idccOf = (publicId: string): string | null => /^idcc-(\d+)$/.exec(publicId)?.[1] ?? null;

/** Lower case, accents folded, character for character: positions in it are positions in `text`. */
function foldInPlace(text: string): string {
  let folded = "";
  for (const c of text) {
    const f = foldAccents(c).toLowerCase();
    folded += f.length === c.length ? f : c.toLowerCase().length === c.length ? c.toLowerCase() : c;
  }
  return folded.replace(/[’`]/g, "'");
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A name as a pattern: accents folded, any run of spaces or punctuation between its words. */
function namePattern(name: string): string | null {
  const words = foldInPlace(name)
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  return words.length ? words.map(escapeRegExp).join("[^a-z0-9]+") : null;
}

/** The short title up to its first colon or bracket: « Immobilier : administrateurs… » → « Immobilier ». */
const shortTitleHead = (shortTitle: string) => shortTitle.split(/\s*[:(]/)[0]!.trim();

/** Where a text names a document (a collective agreement, a code), and which. */
export interface DocumentMention {
  publicId: string;
  /** The words that name it, as written. */
  text: string;
  start: number;
  end: number;
}

const AGREEMENT_WORDS = "(?:convention collective(?: nationale)?|ccn|cc)";
const OF = "(?:(?:de la|de l'|des|du|de|d')\\s*)?";

/** « IDCC 1486 », « idcc n° 0016 »; « convention collective 2216 », « CCN 1486 »: an IDCC. */
const NUMBERED_MENTIONS = [
  /(?<![a-z0-9])idcc\s*(?:n\s*°?|no|num[eé]ro)?\s*:?\s*0*(\d{1,5})(?![0-9])/gu,
  new RegExp(`(?<![a-z0-9])${AGREEMENT_WORDS}\\s*(?:n\\s*°?\\s*)?0*(\\d{1,5})(?![0-9.])`, "gu"),
];

/**
 * How people name a collective agreement: « IDCC 1486 » (« idcc n° 1486 », « IDCC 0016 »),
 * « convention collective 2216 » (its IDCC), « convention collective des journalistes » or
 * « CCN Syntec » (« convention collective » or « CCN » before its short title, the short title's
 * head, or a usual name), or a usual name alone (« Syntec », « HCR », « CCN 66 »: names the rules
 * file gives, distinctive by choice). A short title alone (« sport », « banque ») is an ordinary
 * word and names nothing. Only loaded agreements are named; when the text names several, the first
 * is returned.
 *
 * The loaded agreements' names are compiled once: search asks the reader of every query.
 */
export function agreementReader(loaded: CitedDocument[]): (text: string) => DocumentMention | null {
  const agreements = loaded.filter((doc) => idccOf(doc.publicId) !== null);
  const byIdcc = new Map(agreements.map((doc) => [idccOf(doc.publicId)!, doc.publicId]));
  const names: Array<{ pattern: RegExp; publicId: string }> = [];
  const add = (pattern: string, publicId: string) =>
    names.push({ pattern: new RegExp(`(?<![a-z0-9])${pattern}(?![a-z0-9])`, "u"), publicId });
  for (const doc of agreements) {
    for (const alias of doc.aliases ?? []) {
      const name = namePattern(alias);
      if (name) add(`(?:${AGREEMENT_WORDS}\\s+${OF})?${name}`, doc.publicId);
    }
    for (const title of doc.shortTitle ? [doc.shortTitle, shortTitleHead(doc.shortTitle)] : []) {
      const name = namePattern(title);
      if (name) add(`${AGREEMENT_WORDS}\\s+${OF}${name}`, doc.publicId);
    }
  }
  return (text) => {
    const folded = foldInPlace(text);
    const found: DocumentMention[] = [];
    const mention = (index: number, length: number, publicId: string) =>
      found.push({ publicId, text: text.slice(index, index + length), start: index, end: index + length });
    for (const { pattern, publicId } of names) {
      const match = pattern.exec(folded);
      if (match) mention(match.index, match[0].length, publicId);
    }
    for (const pattern of NUMBERED_MENTIONS) {
      for (const match of folded.matchAll(pattern)) {
        const publicId = byIdcc.get(String(Number(match[1])));
        if (publicId) mention(match.index, match[0].length, publicId);
      }
    }
    return earliest(found);
  };
}

/** The earliest mention, and of those the longest (« CCN 66 » over « CCN » followed by 66). */
const earliest = (found: DocumentMention[]): DocumentMention | null =>
  found.sort((a, b) => a.start - b.start || b.end - a.end)[0] ?? null;

/**
 * Where a text names one of the loaded codes (documents of kind `code`): its title, without a
 * bracketed remark (« code du travail », « code de la sécurité sociale », « code forestier » for
 * « Code forestier (nouveau) »), or, for a title joined by « et », its head (« code rural » for the
 * « Code rural et de la pêche maritime »). A code's abbreviations (« CT », « CSS ») never name it
 * here: only a citation's reading (parseCitation) takes them. « code du travail numérique » names
 * the Ministry's website, not the code; a text citing an act (« loi », « décret », « ordonnance »,
 * « arrêté » and a number: « ordonnance 2007-329 relative au code du travail ») names that act,
 * not the code it amends. When the text names several codes, the earliest is returned.
 */
export function codeReader(
  loaded: Array<CitedDocument & { kind?: string }>,
): (text: string) => DocumentMention | null {
  const names: Array<{ pattern: RegExp; publicId: string }> = [];
  for (const doc of loaded) {
    if (doc.kind !== "code") continue;
    const title = doc.title.replace(/\s*\([^)]*\)\s*$/, "");
    const head = /^(code \S+) et /i.exec(title)?.[1];
    for (const written of head ? [title, head] : [title]) {
      const name = namePattern(written);
      if (name)
        names.push({
          pattern: new RegExp(`(?<![a-z0-9])${name}(?![a-z0-9])(?![^a-z0-9]+numerique)`, "u"),
          publicId: doc.publicId,
        });
    }
  }
  return (text) => {
    const folded = foldInPlace(text);
    if (CITED_ACT.test(folded)) return null;
    const found: DocumentMention[] = [];
    for (const { pattern, publicId } of names) {
      const match = pattern.exec(folded);
      if (match) {
        const end = match.index + match[0].length;
        found.push({ publicId, text: text.slice(match.index, end), start: match.index, end });
      }
    }
    return earliest(found);
  };
}

/** An act cited by its kind and number: « loi n° 2016-1088 », « ordonnance 2007-329 », « décret du 7 mars 2008 ». */
const CITED_ACT =
  /(?<![a-z0-9])(?:loi|decret|ordonnance|arrete)s?(?:\s+(?:n\s*°?|no|organique))?\s+(?:\d|du\s+\d)/u;

/** One text read against the loaded agreements (agreementReader, for a single use). */
export const agreementMention = (text: string, loaded: CitedDocument[]): DocumentMention | null =>
  agreementReader(loaded)(text);

export function parseCitation(text: string, loaded: CitedDocument[]): ParsedCitation {
  // An agreement named by its IDCC holds a number that is not the article's.
  const agreement = agreementMention(text, loaded);
  if (agreement) {
    const rest = `${text.slice(0, agreement.start)} ${text.slice(agreement.end)}`;
    const match = NUMBER.exec(rest);
    const number = match ? readNumber(match[1]!) : null;
    return {
      number,
      numberKey: number ? numberKey(number) : null,
      documents: loaded.filter((doc) => doc.publicId === agreement.publicId),
      unmatchedDocumentText: null,
    };
  }
  const match = NUMBER.exec(text);
  const number = match ? readNumber(match[1]!) : null;
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
    const names = [doc.title, ...(doc.shortTitle ? [doc.shortTitle] : []), ...(doc.aliases ?? [])];
    for (const alias of new Set(names.flatMap(documentAliases))) {
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
