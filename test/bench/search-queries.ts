import type { BenchQuery } from "./queries.ts";

/**
 * The fixed query lists of `npm run bench:search`, one per kind of query people send: keywords,
 * article numbers as people write them, questions written out in full, and queries at the API's
 * 500-character limit. Written for this benchmark (not taken from test/eval's query sets, which
 * measure relevance): their latency is what is measured, not what they find. Fixed, so that runs
 * and machines stay comparable; `queryListProblems` checks each list keeps to its kind.
 */

/** The API refuses a longer `q` (services/api/routes/search/schema.ts). */
export const MAX_QUERY_LENGTH = 500;
/** A natural question, as the issue defines it. */
export const QUESTION_WORDS = { min: 8, max: 15 } as const;
/** Enough queries for a p50 that no single query decides, few enough to cycle through in a cell. */
export const LIST_SIZE = { min: 30, max: 60 } as const;

export const QUERY_KINDS = ["keywords", "articles", "questions", "long"] as const;
export type QueryKind = (typeof QUERY_KINDS)[number];

/** Words as a person counts them: "peut-il" and "d'éducation" are one, a lone "?" is none. */
export function wordCount(text: string): number {
  return text.split(/\s+/).filter((token) => /[\p{L}\p{N}]/u.test(token)).length;
}

/** `words` repeated in turn, separated by spaces, as many times as fit within `limit` characters. */
export function repeatWithin(words: string[], limit: number): string {
  let text = "";
  for (let i = 0; ; i += 1) {
    const next = text ? `${text} ${words[i % words.length]}` : words[i % words.length]!;
    if (next.length > limit) return text;
    text = next;
  }
}

const query = (q: string): BenchQuery => ({ q });

/** One to three words, as typed into a search box. */
const KEYWORDS = [
  "rupture conventionnelle",
  "congés payés",
  "harcèlement moral",
  "SMIC",
  "période d'essai",
  "heures supplémentaires",
  "licenciement économique",
  "démission",
  "préavis",
  "télétravail",
  "travail de nuit",
  "repos dominical",
  "intérim",
  "apprentissage",
  "contrat de professionnalisation",
  "délégué syndical",
  "inaptitude",
  "accident du travail",
  "maladie professionnelle",
  "médecine du travail",
  "prud'hommes",
  "indemnité de licenciement",
  "convention collective",
  "temps partiel",
  "forfait jours",
  "astreinte",
  "travail dissimulé",
  "égalité salariale",
  "congé paternité",
  "activité partielle",
  "grève",
  "règlement intérieur",
  "mise à pied",
  "reclassement",
  "formation professionnelle",
  "portage salarial",
  "saisie sur salaire",
  "bulletin de paie",
  "jours fériés",
  "harcèlement sexuel",
].map(query);

/**
 * Article numbers in the forms people write them: bare, with "article", "art." or "Art.", with
 * the dot and space of printed codes, in lower case, followed by the code's name or its
 * abbreviation. All in force in the installed snapshot; the last few are in the other codes.
 */
const ARTICLES = [
  "L1237-11",
  "article L. 1233-3",
  "art. R4451-39",
  "Article L1221-19 du code du travail",
  "L.1152-1",
  "l1234-9",
  "Art. L. 3121-27",
  "article D. 1234-8",
  "R. 1234-9",
  "L 1232-2",
  "article L1152-1 du Code du travail",
  "L3141-3",
  "article R1455-6",
  "art L2312-8",
  "L1226-2 code du travail",
  "article L. 1242-2 C. trav.",
  "L1243-8",
  "art. L3133-3",
  "L1225-17",
  "Article L. 1225-47 du Code du travail",
  "L1234-1",
  "article L3121-33",
  "L. 3171-2",
  "L1471-1",
  "art. L. 2314-1",
  "L1332-2",
  "article L4121-1",
  "L8221-5",
  "R3243-1",
  "article L6222-7-1",
  "L3231-2",
  "art. L1153-1",
  "L1132-1",
  "R4624-42",
  "article L1222-9 du code du travail",
  "L3245-1",
  "article L. 161-8 du code de la sécurité sociale",
  "CSS L323-1",
  "article L411-1 du code rural",
  "article L231-1 du CRPA",
].map(query);

/** Labour-law questions written as people write them, 8–15 words each. */
const QUESTIONS = [
  "Un salarié en congé parental d'éducation peut-il être licencié pendant son congé ?",
  "Combien de jours de congés payés un salarié acquiert-il chaque mois de travail ?",
  "Mon employeur peut-il refuser ma demande de rupture conventionnelle sans donner de raison ?",
  "Quelle est la durée maximale de la période d'essai pour un cadre en CDI ?",
  "Est-ce que les heures supplémentaires doivent être payées avec une majoration de salaire ?",
  "Combien de temps ai-je pour contester mon licenciement devant le conseil de prud'hommes ?",
  "Que faire si mon employeur ne me verse pas mon salaire à la date prévue ?",
  "Un employeur peut-il imposer le télétravail à un salarié qui ne le souhaite pas ?",
  "Quel est le préavis quand un salarié démissionne après deux ans d'ancienneté ?",
  "Une salariée enceinte doit-elle informer son employeur de sa grossesse lors de l'embauche ?",
  "Combien de fois un contrat à durée déterminée peut-il être renouvelé au maximum ?",
  "Comment se calcule l'indemnité légale de licenciement après dix ans dans l'entreprise ?",
  "Mon employeur a-t-il le droit de me faire travailler le dimanche sans mon accord ?",
  "Quelles sont les obligations de l'employeur après la déclaration d'un accident du travail ?",
  "Le salarié déclaré inapte par le médecin du travail doit-il être reclassé ?",
  "Combien d'heures de repos minimum faut-il entre deux journées de travail ?",
  "Peut-on être sanctionné pour avoir refusé de faire des heures supplémentaires ?",
  "Que se passe-t-il si l'employeur ne respecte pas la procédure de licenciement ?",
  "À partir de combien de salariés une entreprise doit-elle mettre en place un CSE ?",
  "Un stagiaire a-t-il droit à une gratification s'il reste plus de deux mois ?",
  "Quelle est la durée légale du congé de maternité pour un premier enfant ?",
  "L'employeur peut-il lire les courriels personnels d'un salarié sur son ordinateur professionnel ?",
  "Combien de jours de congé pour le décès d'un parent proche ?",
  "Le travail de nuit donne-t-il droit à des contreparties en repos ou en salaire ?",
  "Quelles conditions pour recourir à l'activité partielle en cas de baisse d'activité ?",
  "Un salarié peut-il refuser une mutation géographique prévue par une clause de mobilité ?",
  "Comment prouver un harcèlement moral de la part de mon supérieur hiérarchique ?",
  "Quel salaire minimum doit percevoir un apprenti de moins de dix-huit ans ?",
  "La clause de non-concurrence est-elle valable sans contrepartie financière pour le salarié ?",
  "L'employeur doit-il payer les jours fériés chômés aux salariés mensualisés ?",
  "Peut-on licencier un salarié pendant un arrêt maladie de longue durée ?",
  "Combien de temps l'employeur doit-il conserver les bulletins de paie de ses salariés ?",
  "Un délégué syndical peut-il être licencié sans l'autorisation de l'inspecteur du travail ?",
  "Quelles sont les règles pour fixer les horaires d'un salarié à temps partiel ?",
  "Le refus d'une modification du contrat de travail peut-il justifier un licenciement ?",
  "Comment se déroule l'entretien préalable à un licenciement pour faute grave ?",
  "Un salarié peut-il exercer son droit de retrait face à un danger grave ?",
  "Les frais de transport domicile-travail doivent-ils être remboursés en partie par l'employeur ?",
  "Quelle est la durée maximale de travail hebdomadaire autorisée en France ?",
  "Que doit contenir la lettre de licenciement pour motif économique envoyée au salarié ?",
  "Un employeur peut-il installer des caméras de surveillance sur le lieu de travail ?",
  "À quoi sert la visite médicale de reprise après un congé de maternité ?",
].map(query);

/** Sixty distinct words common in labour law, none a stop word: every one is a term to look up. */
export const SIXTY_COMMON_WORDS = (
  "salarié employeur contrat travail licenciement démission congé salaire durée période essai " +
  "rupture indemnité préavis heures repos semaine jours mois année entreprise accord " +
  "code article délai procédure faute grave motif économique comité social sécurité " +
  "santé médecin inaptitude reclassement formation apprenti stage horaire nuit dimanche fériés " +
  "paie prime avantage retraite maladie accident grossesse enfant famille mutation mobilité " +
  "sanction avertissement entretien lettre juge"
).split(" ");

/**
 * Queries at the API's limit. The target: the longest query the API accepts costs at most
 * 3× a typical question, whatever it repeats. Hence one word repeated, sixty distinct words, a
 * phrase repeated, one word in every spelling, article numbers, and a situation told at length.
 */
const LONG = [
  repeatWithin(["travail"], MAX_QUERY_LENGTH),
  repeatWithin(["salarié"], MAX_QUERY_LENGTH),
  SIXTY_COMMON_WORDS.join(" "),
  repeatWithin(["rupture", "conventionnelle"], MAX_QUERY_LENGTH),
  repeatWithin(["congé", "Congé", "CONGÉ", "conge", "CONGE"], MAX_QUERY_LENGTH),
  repeatWithin(["de", "la", "du", "des", "le", "les", "et", "à"], MAX_QUERY_LENGTH),
  repeatWithin(
    ["L1237-11", "L1233-3", "L1221-19", "L1152-1", "L1234-9", "L3121-27", "L3141-3", "L1226-2"],
    MAX_QUERY_LENGTH,
  ),
  "Bonjour, je travaille depuis six ans comme assistante commerciale dans une PME de quarante " +
    "salariés. Après mon retour de congé maternité, mon employeur m'a retiré mes principaux clients, " +
    "a réduit ma prime sur objectifs et me convoque maintenant à un entretien préalable en parlant " +
    "d'insuffisance professionnelle. Je n'ai jamais eu d'avertissement. Est-ce une discrimination " +
    "liée à ma maternité, puis-je refuser une rupture conventionnelle et que risque l'employeur ?",
].map(query);

export const SEARCH_QUERIES: Record<QueryKind, BenchQuery[]> = {
  keywords: KEYWORDS,
  articles: ARTICLES,
  questions: QUESTIONS,
  long: LONG,
};

export const KIND_LABELS: Record<QueryKind, string> = {
  keywords: "keywords (1–3 words)",
  articles: "article numbers",
  questions: "questions (8–15 words)",
  long: "long (≤ 500 characters)",
};

/** What is wrong with the lists, one line per fault; none when each keeps to its kind. */
export function queryListProblems(lists: Record<QueryKind, BenchQuery[]>): string[] {
  const problems: string[] = [];
  const every = (kind: QueryKind, fault: (q: string) => string | undefined) => {
    for (const { q } of lists[kind]) {
      const found = fault(q);
      if (found) problems.push(`${kind}: "${q.slice(0, 60)}" ${found}`);
    }
  };
  for (const kind of QUERY_KINDS) {
    const queries = lists[kind].map((query) => query.q);
    const size = kind === "long" ? { min: 5, max: LIST_SIZE.max } : LIST_SIZE;
    if (queries.length < size.min || queries.length > size.max)
      problems.push(`${kind}: ${queries.length} queries, not ${size.min}–${size.max}`);
    const repeated = queries.filter((q, i) => queries.indexOf(q) !== i);
    if (repeated.length > 0) problems.push(`${kind}: listed twice: ${repeated.join(", ")}`);
    every(kind, (q) =>
      q.trim().length === 0 || q.trim().length > MAX_QUERY_LENGTH
        ? `is ${q.trim().length} characters, not 1–${MAX_QUERY_LENGTH}`
        : undefined,
    );
  }
  every("keywords", (q) => (wordCount(q) > 3 ? `has ${wordCount(q)} words, more than 3` : undefined));
  every("articles", (q) => (/\d+-\d+/.test(q) ? undefined : "names no article number"));
  every("questions", (q) =>
    wordCount(q) < QUESTION_WORDS.min || wordCount(q) > QUESTION_WORDS.max
      ? `has ${wordCount(q)} words, not ${QUESTION_WORDS.min}–${QUESTION_WORDS.max}`
      : undefined,
  );
  // Near the limit: what the target is about is the longest query the API accepts.
  every("long", (q) => (q.length < MAX_QUERY_LENGTH * 0.9 ? `is only ${q.length} characters` : undefined));
  return problems;
}
