import { foldAccents } from "../core/public-ids.ts";
import { numbersIn } from "./numbers.ts";
import { capitalsTell, type Synonyms } from "./synonyms.ts";
import { asSearched, ELIDED, isStopWord } from "./words.ts";

/**
 * What a free-text query asks for, engine-agnostic. People type questions ("Quelle est la durée
 * du mandat ?"): the interrogatives and auxiliaries are not in Postgres's or Lucene's French stop
 * lists, and requiring them finds nothing. Pure; both engines build their queries from it.
 */

/**
 * The verbs that ask what a text says or a word means (« que dit le code du travail sur… », « que
 * veut dire… », « que signifie… »), accents folded: no word a provision must hold, nor one an
 * answer's sentence must state (answer/text.ts).
 */
export const ASKING_VERBS = ["dit", "dire", "veut", "signifie"];

/**
 * The verbs a person asks with (vouloir, pouvoir, devoir, aller) in the persons and tenses people
 * ask in, beyond peut, doit and their plurals (« je veux démissionner », « à qui dois-je
 * m'adresser ? », « puis-je refuser ? », « pourrait-il… », « pouvez-vous… »):
 * they say who asks and how, not what about. No provision is written in the first person, so the
 * spelling reading took them for slips (« veux » read as « deux », « dois » as « mois »).
 */
export const ASKING_MODALS = (
  "veux voulons voulez voudrais voudrait voudrions voudriez voudraient " +
  "peux puis pouvons pouvez pourrais pourrait pourrions pourriez pourraient " +
  "dois devons devez devrais devrait devrions devriez devraient vais vas"
).split(" ");

/**
 * The inversions that ask whether something is, in the tenses people ask in: the question, not
 * what it is about (« Existe-t-il un délai de prescription ? », « existait-il… »); « existe » alone
 * may be what is asked about (« le délit existe »).
 */
export const ASKING_INVERSIONS = [
  ...["existe-t", "existait", "existera-t", "existerait"].flatMap((verb) =>
    ["il", "elle", "on"].map((pronoun) => `${verb}-${pronoun}`),
  ),
  // Typed without the « t »: « existe-il ».
  "existe-il",
  "existe-elle",
  "existent-ils",
  "existent-elles",
];

/**
 * Question words and auxiliaries that carry no legal meaning, accents folded, ASKING_VERBS,
 * ASKING_MODALS and ASKING_INVERSIONS; a verb is looked up without its inverted pronoun
 * (« peut-il »: « peut »), an asking inversion as it stands.
 */
const QUESTION_WORDS = new Set([
  ...(
    "quel quelle quels quelles lequel laquelle lesquels lesquelles comment combien pourquoi quand ou qui que quoi " +
    "est-ce est ce sont etre peut peuvent doit doivent faut il elle on je " +
    "ont avoir fait faire agit"
  ).split(" "),
  ...ASKING_VERBS,
  ...ASKING_MODALS,
  ...ASKING_INVERSIONS,
]);

/** A verb's subject pronoun after it, as a question puts it: « peut-il », « a-t-elle », « dois-je ». */
const INVERSION = /-(?:t-)?(?:il|elle|on|ils|elles|je|tu|nous|vous)$/i;

const ELISION = new RegExp(`^(?:${ELIDED.join("|")})['’]`, "i");

/**
 * The words of a query that should match, in order, elisions removed: the articles Lucene's elision
 * filter strips on the index engines (« l' », « d' », « qu' », and « jusqu' », « lorsqu' »,
 * « puisqu' », « quoiqu' »). Postgres's parser keeps « jusqu » as a word of its own; read as a
 * term there, it would count towards the words a provision must hold on Postgres only.
 */
export function queryWords(q: string): string[] {
  const isQuestionWord = (w: string) => QUESTION_WORDS.has(foldAccents(w).toLowerCase());
  return asSearched(q)
    .split(/[^\p{L}\p{N}'’-]+/u)
    .flatMap((typed) => {
      const w = typed
        .replace(/^[-'’]+/, "")
        .replace(ELISION, "")
        .replace(/['’-]+$/, "");
      // Inversions: "peut-il", "doit-on", "a-t-elle" ask; the verb alone is what may match, unless
      // the inversion is itself the question (« existe-t-il »; « existe » alone may be what is
      // asked about).
      const verb = w.replace(INVERSION, "");
      return verb.length > 0 && !isQuestionWord(verb) && !isQuestionWord(w) ? [verb] : [];
    });
}

/**
 * How many of n meaningful words a provision must hold: the one word, else half (rounded down).
 * Of two words either suffices: the law often writes one of them only (« demande de démission »:
 * L1237-1 says « démission », never « demande »), and BM25 adds both words' scores, so the
 * provisions holding both usually lead; the engines say whether any holds both (holdsEveryTerm).
 * Unless one of the two is the article number the query names (« article L1237-19 »,
 * « licenciement L1232-1 »): the query asks for that article, and both are required. Every engine
 * takes the number from this function (Elasticsearch's "1<50%" otherwise).
 */
export const MINIMUM_SHOULD_MATCH_PERCENT = 50;
export const minimumShouldMatch = (n: number, namesArticle = false) =>
  n <= 1 || (n === 2 && namesArticle) ? n : Math.floor((n * MINIMUM_SHOULD_MATCH_PERCENT) / 100);

/**
 * At most this many distinct terms are searched, the first ones of the query: a 500-character
 * query is then no dearer than a long question, whatever it repeats. A question of 8–15 words
 * has 4–10 meaningful ones.
 */
export const MAX_QUERY_TERMS = 16;

/**
 * The terms a provision must match, each a list of alternatives (the word as typed, then its
 * synonyms: words or phrases). A term matches when any alternative does; the minimum-should-match
 * counts terms. Stop words are no terms; a query of none ("de la") matches nothing. A word
 * repeated (accents and case aside) is one term: repeating it changes neither matches nor cost.
 */
export function queryTerms(typed: string, synonyms: Synonyms): string[][] {
  const q = asSearched(typed);
  const capitals = capitalsTell(q);
  const spelt = ` ${comparable(q)} `;
  const meant = everydayReadings(q, synonyms);
  const layRead = synonyms.layWordsIn(q);
  // A number typed on its own (« 35h », « 50 salariés ») is also searched as the codes write it.
  const numbers = new Map(numbersIn(q).map((n) => [n.typed.toLowerCase(), n.searched]));
  return searchedWords(q, synonyms).flatMap((word) => {
    const read = comparable(word)
      .split(" ")
      .flatMap((part) => meant.get(part) ?? []);
    const written = numbers.get(word.toLowerCase()) ?? [];
    const alternatives = [
      ...new Set([...synonyms.alternatives(word, capitals, layRead), ...read, ...written]),
    ];
    // An abbreviation the query spells out (« l'activité partielle (AP) ») is no term of its own:
    // the query's own words already search its full form. A lay word is more than its reading
    // (« congés payés pendant les vacances »): it stays.
    const spelledOut = alternatives.some(
      (a, i) => i > 0 && a.includes(" ") && spelt.includes(` ${comparable(a)} `),
    );
    if (spelledOut && !synonyms.layReadings(word)) return [];
    // A stop word read as an abbreviation (« SA ») is searched by its full form alone.
    return [alternatives.filter((alternative) => !isStopWord(foldAccents(alternative).toLowerCase()))];
  });
}

/**
 * The full forms a query's words mean by the everyday names they make up (synonyms.everydayNames):
 * in « fiche de paie », « fiche » and « paie » each also search « bulletin de paie », so the
 * provision the law writes it in holds both terms. By word, as comparable() writes it.
 */
function everydayReadings(q: string, synonyms: Synonyms): Map<string, string[]> {
  const meant = new Map<string, string[]>();
  for (const name of synonyms.everydayNames(q))
    for (const word of name.words) {
      const key = comparable(word);
      meant.set(key, [...(meant.get(key) ?? []), name.full]);
    }
  return meant;
}

/** A text as phrases are compared: accents, case and punctuation aside. */
export const comparable = (text: string) =>
  foldAccents(text)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

/**
 * The words a query's terms are made of, as typed: stop words left out, a word repeated (accents
 * and case aside) once, the first MAX_QUERY_TERMS only. A stop word the synonyms read as an
 * abbreviation (written in capitals: « SA », société anonyme) is searched as its full form.
 */
export function searchedWords(typed: string, synonyms?: Synonyms): string[] {
  const q = asSearched(typed);
  const capitals = capitalsTell(q);
  const seen = new Set<string>();
  const words: string[] = [];
  for (const word of queryWords(q)) {
    const key = foldAccents(word).toLowerCase();
    // A hyphenated word of stop words only (« lui-même »): the index engines split it, then drop
    // both parts; Postgres would keep it whole ('lui-mêm'), and require it.
    const stopWords = isStopWord(key) || (key.includes("-") && key.split("-").every(isStopWord));
    const stop = stopWords && (synonyms?.alternatives(word, capitals).length ?? 1) === 1;
    if (stop || seen.has(key)) continue;
    seen.add(key);
    words.push(word);
    if (words.length === MAX_QUERY_TERMS) break;
  }
  return words;
}

/** A hyphen between two letters joins words; an article number's has a digit before it (« L1237-11 »). */
const WORD_HYPHEN = /(?<=\p{L})-(?=\p{L})/gu;

/** The alternative with its joining hyphens read as spaces (« chèque-vacances »: « chèque vacances »). */
export const hyphensApart = (alternative: string): string => alternative.replace(WORD_HYPHEN, " ");

/**
 * A single hyphenated word (« rupture-contrat-apprentissage »), not a phrase holding one: every
 * engine finds its parts anywhere in a provision (postgres-engine.ts's withHyphensApart, the index
 * engines' tokenizer), and snippets mark them so.
 */
export const isHyphenatedWord = (alternative: string): boolean =>
  !/\s/.test(alternative) && hyphensApart(alternative) !== alternative;
