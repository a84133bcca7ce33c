import { compile } from "html-to-text";
import { InputError } from "../../../services/core/errors.ts";
import { slugify } from "../../../services/core/public-ids.ts";
import type {
  CanonicalDocumentInput,
  CanonicalLink,
  CanonicalProvision,
  CanonicalSection,
} from "../../model.ts";
import { toLink } from "../legi/links.ts";
import { RawReader } from "../legi/raw.ts";
import type { KaliAgreement } from "./types.ts";

/**
 * One collective agreement of KALI (`@socialgouv/kali-data`) as a canonical document. Pure: no
 * I/O, unit-tested on real excerpts; `file` only names the culprit in errors.
 *
 * - Public id: `idcc-<IDCC>` (`idcc-1486`), the number every branch is cited by and which a new
 *   title never changes; `kali-<short title>` for an agreement the source gives no IDCC.
 * - The tree is kept as the source gives it: the base text, then the groups of attached texts
 *   (« Textes Attachés », « Textes Salaires »), each text, its sections, its articles. The groups
 *   have no id in the source; theirs is `<agreement id>/<group title slug>`.
 * - Article numbers, as a lawyer cites them. In the base text, the article's `num` (« 3.4 »). In an
 *   attached text (an amendment, an agreement, a salary scale), numbers start again at 1, so the
 *   number names the text first, by its title up to its date: « Avenant n° 8 du 14 février 2025,
 *   art. 2 ». About one article in six has no `num` (a preamble, the single article of a salary
 *   text): its own title (`surtitre`) stands for it, else the title of the section holding it,
 *   else (an article directly in an attached text) the text alone. A number still repeated (two texts
 *   of the same date and kind) gets `~<digits of its source id>` in its public id
 *   (services/core/public-ids.ts).
 * - The article's own title (`surtitre`, « Période d'essai ») is its heading: it ends its section
 *   path, where search reads headings.
 * - Text: the article's HTML as plain text (tables kept as aligned rows). Articles with no text
 *   at all (a heading over numbered sub-articles) are dropped and counted.
 * - The agreement is dated by its snapshot (`snapshot.date`, when the package version was
 *   published): an older snapshot never rolls a newer one back, and what a newer snapshot
 *   reveals without a date of its own (an article gone, one new) happened between the two.
 *   The texts' `modifDate` is no such date: it runs months ahead of publication.
 * - Dates: KALI gives one version per article and no dates of its own; the current version took
 *   effect on the latest date an act created or amended it (its links), else the source does not
 *   say (null). Status from the state: VIGUEUR_DIFF (deferred) is not yet in force, ended states
 *   are repealed, every other VIGUEUR… state is in force.
 */
export interface KaliAdapterResult {
  /** Undefined when the agreement holds no article: the package lists some by title only. */
  document: CanonicalDocumentInput | undefined;
  /** Source ids of articles with no text. */
  withoutText: string[];
  idcc: string | null;
}

const ENDED = new Set(["ABROGE", "ANNULE", "PERIME", "DENONCE", "REMPLACE"]);
/** Relations by which an act starts a version of the article. */
const STARTS_VERSION = new Set(["CREE", "CREATION", "MODIFIE", "MODIFICATION"]);

/** Windows-1252 punctuation the source sometimes carries as C1 control characters. */
const CP1252: Record<string, string> = {
  "\u0080": "€",
  "\u0085": "…",
  "\u0091": "‘",
  "\u0092": "’",
  "\u0093": "“",
  "\u0094": "”",
  "\u0096": "–",
  "\u0097": "—",
};

/**
 * Text hygiene, the same for every text the source gives: composed accents (NFC), the C1 control
 * characters that stand for Windows-1252 punctuation read as what they stand for, and characters
 * that only hint at layout dropped (soft hyphens, zero-width spaces) or made plain spaces (en, em,
 * thin and hair spaces), and « nº » written as everywhere else, « n° ». Postgres reads such
 * characters by the server's locale and unaccent rules: « responsa­bilités » with a soft hyphen was
 * one word on PGlite and two on a server, and « nº » was « no » on one and « nº » on the other.
 * The `html` field keeps the source as given.
 */
export function cleanText(value: string): string {
  return value
    .normalize("NFC")
    .replace(/[\u0080-\u009f]/g, (c) => CP1252[c] ?? "")
    .replace(/[\u00ad\u200b-\u200d\u2060\ufeff]/g, "")
    .replace(/[\u2000-\u200a\u202f\u205f\u3000]/g, " ")
    .replaceAll("º", "°");
}

const collapse = (value: string) => cleanText(value).replace(/\s+/g, " ").trim();

/** A text's title up to its date: « Avenant n° 8 du 14 février 2025 à l'accord du… » → « Avenant n° 8 du 14 février 2025 ». */
const UP_TO_DATE = /^(.*?\bdu \d{1,2}(?:er)? [^\P{L}]+ \d{4})/u;
/** Where a title without a date stops naming the text and starts saying what it is about. */
const SUBJECT = /\s+(?:relatif|relative|relatifs|relatives|portant|concernant)\b/u;

/** How an attached text is named in its articles' numbers. */
export function textLabel(title: string): string {
  const dated = UP_TO_DATE.exec(title);
  if (dated) return dated[1]!;
  const subject = SUBJECT.exec(title);
  if (subject && subject.index > 0) return title.slice(0, subject.index);
  if (title.length <= 60) return title;
  const cut = title.lastIndexOf(" ", 60);
  return `${title.slice(0, cut > 20 ? cut : 60)}…`;
}

/** The text an article belongs to: null for the base text (and anything outside every text). */
interface TextContext {
  label: string | null;
}

const htmlToText = compile({
  wordwrap: false,
  selectors: [
    { selector: "a", options: { ignoreHref: true } },
    { selector: "img", format: "skip" },
    { selector: "table", format: "dataTable", options: { uppercaseHeaderCells: false } },
  ],
});

/** The article's HTML as plain text: paragraphs on lines of their own, no trailing spaces. */
export function kaliText(html: string): string {
  return cleanText(htmlToText(html))
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

function kaliStatus(etat: string | null): CanonicalProvision["status"] {
  if (etat === "VIGUEUR_DIFF") return "not_yet_in_force";
  if (etat && ENDED.has(etat)) return "repealed";
  return "in_force";
}

/** The latest day an act created or amended this version; null when no link dates it. */
function versionStart(links: CanonicalLink[]): string | null {
  let latest: string | null = null;
  for (const link of links) {
    if (link.direction !== "amended_by" || !STARTS_VERSION.has(link.relation)) continue;
    if (link.effectiveOn && (latest === null || link.effectiveOn > latest)) latest = link.effectiveOn;
  }
  return latest;
}

/** `1486`, `"0016"` → `1486`, `16`; anything but digits is refused. */
function readIdcc(raw: RawReader, value: unknown): string | null {
  if (value === null || value === undefined || value === "") return null;
  const text = String(value).trim();
  if (!/^\d{1,5}$/.test(text))
    raw.fail("data.num", `expected an IDCC (digits), found ${JSON.stringify(value)}`);
  return String(Number(text));
}

export function adaptKaliAgreement(
  agreement: KaliAgreement,
  file: string,
  snapshot: { label: string | null; date: string | null },
): KaliAdapterResult {
  const raw = new RawReader(file);
  const root = agreement as { type?: unknown; data?: { nature?: unknown } } | null;
  // A container covering several branches is split into one file per IDCC, typed as a section.
  if (root?.type !== "convention collective" && !(root?.type === "section" && root.data?.nature === "IDCC"))
    throw new InputError(file, "type", 'expected a KALI agreement (type "convention collective")');
  const data = raw.object(agreement.data, "data");
  const documentId = raw.requiredText(data.id, "data.id");
  const title = collapse(raw.requiredText(data.title, "data.title"));
  const shortTitle = raw.text(data.shortTitle, "data.shortTitle");
  const idcc = readIdcc(raw, data.num);

  const sections: CanonicalSection[] = [];
  const provisions: CanonicalProvision[] = [];
  const withoutText: string[] = [];
  const sectionIds = new Set<string>();

  const visit = (nodes: unknown[], parent: CanonicalSection | null, text: TextContext, path: string) => {
    nodes.forEach((value, i) => {
      const at = `${path}[${i}]`;
      const node = raw.object(value, at);
      if (node.type === "section") {
        const s = raw.object(node.data, `${at}.data`);
        const heading = collapse(raw.text(s.title, `${at}.data.title`) ?? "") || "(untitled)";
        const id =
          raw.text(s.id, `${at}.data.id`) ?? `${parent ? parent.id : documentId}/${slugify(heading) || i}`;
        if (sectionIds.has(id)) raw.fail(`${at}.data.id`, `section ${id} appears twice`);
        sectionIds.add(id);
        const section: CanonicalSection = {
          id,
          parentId: parent?.id ?? null,
          title: heading,
          status: raw.text(s.etat, `${at}.data.etat`),
          effectiveFrom: null,
          effectiveTo: null,
        };
        sections.push(section);
        // The base text comes first; every other KALITEXT is an attached text.
        const attached = id.startsWith("KALITEXT") && !/^Texte de base\b/.test(heading);
        visit(
          raw.list(node.children, `${at}.children`),
          section,
          attached ? { label: textLabel(heading) } : text,
          `${at}.children`,
        );
      } else if (node.type === "article") {
        const article = adaptArticle(raw, node, at, parent, text);
        if (article.provision) provisions.push(article.provision);
        else withoutText.push(article.sourceId);
      } else {
        raw.fail(`${at}.type`, `unknown node type ${JSON.stringify(node.type)}`);
      }
    });
  };
  visit(raw.list(agreement.children, "children"), null, { label: null }, "children");

  const seen = new Set<string>();
  for (const p of provisions) {
    if (seen.has(p.sourceId)) raw.fail("children", `article ${p.sourceId} appears twice`);
    seen.add(p.sourceId);
  }
  if (provisions.length === 0) return { document: undefined, withoutText, idcc };

  return {
    idcc,
    withoutText,
    document: {
      source: { name: "kali", documentId, version: snapshot.label },
      publicId: idcc ? `idcc-${idcc}` : `kali-${slugify(shortTitle ?? title)}`,
      kind: "collective_agreement",
      title,
      shortTitle: shortTitle ? collapse(shortTitle) || null : null,
      aliases: [],
      jurisdiction: "FR",
      status: "in_force",
      sourceStatus: null,
      effectiveFrom: null,
      effectiveTo: null,
      modifiedOn: snapshot.date,
      sections,
      provisions,
    },
  };
}

function adaptArticle(
  raw: RawReader,
  node: Record<string, unknown>,
  at: string,
  section: CanonicalSection | null,
  inText: TextContext,
): { sourceId: string; provision: CanonicalProvision | undefined } {
  const a = raw.object(node.data, `${at}.data`);
  const versionId = raw.requiredText(a.id, `${at}.data.id`);
  const sourceId = raw.text(a.cid, `${at}.data.cid`) ?? versionId;
  const html = raw.text(a.content, `${at}.data.content`) ?? "";
  const text = kaliText(html);
  // No text at all: nothing to store, only to count.
  if (text === "") return { sourceId, provision: undefined };
  const etat = raw.text(a.etat, `${at}.data.etat`);
  const surtitre = raw.text(a.surtitre, `${at}.data.surtitre`);
  const heading = surtitre ? collapse(surtitre) || null : null;
  const num = collapse(raw.text(a.num, `${at}.data.num`) ?? "");
  // In an attached text, the section holding an unnumbered article, unless it is the text itself.
  const within = section && !section.id.startsWith("KALITEXT") ? section.title : null;
  const number =
    inText.label === null
      ? num || heading || section?.title || "Article"
      : [inText.label, num ? `art. ${num}` : (heading ?? within)].filter(Boolean).join(", ");
  const links = raw
    .list(a.lstLienModification, `${at}.data.lstLienModification`)
    .flatMap((link, k) => toLink(raw, link, `${at}.data.lstLienModification[${k}]`) ?? []);
  const notes = [raw.text(a.nota, `${at}.data.nota`), raw.text(a.historique, `${at}.data.historique`)]
    .map((note) => (note ? kaliText(note) : ""))
    .filter((note) => note !== "");
  const status = kaliStatus(etat);
  const effectiveFrom = versionStart(links);
  const provision: CanonicalProvision = {
    sourceId,
    versionId,
    number,
    text,
    html: html || null,
    notes: notes.length > 0 ? notes.join("\n\n") : null,
    status,
    sourceStatus: etat,
    effectiveFrom,
    effectiveTo: null,
    sectionId: section?.id ?? null,
    // A number made of the heading does not repeat it as a heading.
    heading: num ? heading : null,
    versions: [
      {
        versionId,
        label: null,
        status,
        sourceStatus: etat,
        effectiveFrom,
        effectiveTo: null,
        text,
        repealedOn: null,
      },
    ],
    links,
  };
  return { sourceId, provision };
}
