import { toCardinal } from "n2words/fr-FR";

/**
 * Numbers as the codes write them. The codes state quantities in words: « trente-cinq heures »,
 * « entreprises d'au moins cinquante salariés », « seize ans » (of the 29,115 texts of the four
 * codes, 4,870 state minutes, hours, days, weeks, months or years in words, 417 in digits). People
 * type digits: « 35h », « plus de 50 salariés », « retraite à 60 ans ». A number a query types on
 * its own is also searched as the codes write it (query-text.ts). Pure.
 */

/** A number a text types, where it stands, and how the codes write it. */
export interface NumberFound {
  start: number;
  end: number;
  /** As typed: « 35 », « 48h ». */
  typed: string;
  /** In the codes' words: « trente-cinq », « quarante-huit heures ». */
  written: string;
  /** What search also looks for, as phrases: « trente cinq »; « 48 heures », « quarante huit heures ». */
  searched: string[];
}

/** The months: the codes date acts and days in digits (« la loi du 8 août 2016 », « le 1er mai »). */
const MONTHS =
  "janvier|f[ée]vrier|mars|avril|mai|juin|juillet|ao[uû]t|septembre|octobre|novembre|d[ée]cembre";

/**
 * A number standing on its own, « h » (hours) optionally after it: not the number right after
 * « article », « alinéa », « numéro », « § » or an agreement's « IDCC » (« L1242-8 », « L. 1242 »,
 * « art. 4 », « al 2 », « IDCC 843 »), a date (« 01/05 », « 8 août »), a decimal (« 1,5 »), a grouped
 * amount (« 1 500 »), a percentage (« 10 % », « 10 pour cent ») or a sum of money, which the codes
 * write in digits themselves; nor a word (« 13e », « cc66 »). « 35 h », spaced, is not read as
 * hours.
 */
const STANDALONE = new RegExp(
  [
    "(?<![\\p{L}\\p{N}°§'’/-])", // inside a word or a number
    "(?<!\\p{N}[.,])", // a decimal's second part
    "(?!(?<=\\p{N}\\s+)\\p{N}{3}(?!\\p{N}))", // a grouped amount's second part
    // An article's, a paragraph's or an agreement's number (« IDCC 843 », « CC 66 »).
    "(?<!(?<![\\p{L}\\p{N}])(?:articles?|art\\.?|al\\.?|alin[ée]as?|num[ée]ros?|n°|no|§|[lrd]\\.?|idcc|cc)\\s*)",
    "(\\d{1,4})(h)?",
    "(?![\\p{L}\\p{N}°%€$/-])",
    "(?![.,]\\p{N})", // a decimal
    "(?!\\s+\\p{N}{3}(?!\\p{N}))", // an amount grouped by thousands
    "(?!\\s*(?:%|€|\\$|pour\\s+cent\\b|eur(?:os?)?\\b))", // a percentage, a sum
    `(?!\\s+(?:${MONTHS})(?![\\p{L}]))`, // a day of a date
  ].join(""),
  "giu",
);

/**
 * Numbers whose words search cannot tell, searched as typed unless « h » follows (« neuf
 * heures » is a phrase of two words): one ending in « un », a stop word, so that « vingt et un »
 * would search « vingt » alone (21, 31, 81, 101…); « neuf », also « new »; « cent », which the
 * codes write in « pour cent ».
 */
const UNREADABLE = /(?:^|[\s-])un$|^neuf$|^cent$/;

/** A four-digit number from 1900 to 2099 in a query is a year (« dispositif de formation 2019 »). */
const isYear = (n: number) => n >= 1900 && n <= 2099;

/**
 * The numbers a text types on its own, from 2 (« un » is a stop word, read nowhere) to 9,999,
 * years aside, each with the codes' wording: traditional French spelling (« soixante et onze »,
 * « quatre-vingts », « mille six cent sept »), as the codes spell; « h » reads « heures ».
 */
export function numbersIn(text: string): NumberFound[] {
  return [...text.matchAll(STANDALONE)].flatMap((match) => {
    const [typed, digits, hours] = match;
    const n = Number(digits);
    // « 06h » is six hours; « 01 » or « 2019 » alone is no quantity the codes write in words.
    if (n < 2 || (!hours && (digits!.startsWith("0") || isYear(n)))) return [];
    const words = toCardinal(n);
    if (!hours && UNREADABLE.test(words)) return [];
    const written = hours ? `${words.replace(/\bun$/, "une")} heures` : words;
    const searched = hours ? [`${n} heures`, written] : [written];
    return [
      {
        start: match.index,
        end: match.index + typed.length,
        typed,
        written,
        searched: searched.map((phrase) => phrase.replace(/-/g, " ")),
      },
    ];
  });
}

/**
 * The text with each number typed for hours spelled so (« 35h »: « 35 heures »): how an answer
 * reads a question (answer/service.ts). The number itself stays in digits, which an answer's
 * sentences need not state (answer/text.ts): a question often asks whether a quantity holds
 * (« la période d'essai d'un cadre est-elle de 6 mois ? ») where the provision states another.
 */
export function hoursSpelled(text: string): string {
  let spelled = text;
  for (const number of numbersIn(text).reverse())
    if (/h$/i.test(number.typed))
      spelled = `${spelled.slice(0, number.start)}${number.typed.slice(0, -1)} heures${spelled.slice(number.end)}`;
  return spelled;
}
