import { describe, expect, it } from "vitest";
import { Synonyms } from "../search/synonyms.ts";
import { phraseKeys } from "../search/words.ts";
import {
  composeExtractive,
  MAX_SENTENCE_WORDS,
  MIN_ANSWER_COVERAGE,
  rareTerms,
  type TermRarity,
} from "./extractive.ts";
import { checkReply, quotedSpans } from "./generative.ts";
import { evidenceNote, INSUFFICIENT_NOTE } from "./service.ts";
import {
  definedAbbreviations,
  holdsPhrase,
  keysOf,
  keyTerms,
  questionReadings,
  quotedIn,
  splitSentences,
  stem,
  wordsBehind,
} from "./text.ts";

const ESSAI = {
  publicId: "code-du-travail/L1221-19",
  text: "Le contrat de travail à durée indéterminée peut comporter une période d'essai dont la durée maximale est : 1° Pour les ouvriers et les employés, de deux mois ; 2° Pour les agents de maîtrise et les techniciens, de trois mois ; 3° Pour les cadres, de quatre mois.",
};
const DEMISSION = {
  publicId: "code-du-travail/L1237-1",
  text: "En cas de démission, l'existence et la durée du préavis sont fixées par la loi, ou par convention ou accord collectif de travail. Conformément à l'art. L. 1234-1, le préavis court à compter de la notification.",
};

describe("splitSentences", () => {
  it("keeps abbreviations and article numbers inside their sentence, and every sentence verbatim", () => {
    const sentences = splitSentences(DEMISSION.text);
    expect(sentences).toEqual([
      "En cas de démission, l'existence et la durée du préavis sont fixées par la loi, ou par convention ou accord collectif de travail.",
      "Conformément à l'art. L. 1234-1, le préavis court à compter de la notification.",
    ]);
    for (const s of sentences) expect(DEMISSION.text).toContain(s);
  });
});

describe("keyTerms", () => {
  it("drops question words and stop words, and stems", () => {
    expect(keyTerms("Quelle est la durée maximale de la période d'essai ?")).toEqual([
      "dure",
      "maximal",
      "period",
      "essai",
    ]);
    // A word and its plural are one term (« congés payés », « congé payé »).
    expect(keyTerms("Qui a droit aux congés payés ?")).toEqual(keyTerms("droit congé payé"));
    // As search indexes them (accents folded, then Snowball's stem): « employeur » and « employés »
    // part, unaccented « salarie » is « salarié ».
    expect(keyTerms("les employeurs, les employés")).toEqual(["employeur", "employ"]);
    expect(keyTerms("le salarie")).toEqual(keyTerms("le salarié"));
    // Nor are the verbs a person asks with, whatever the person (search's ASKING_MODALS).
    expect(keyTerms("A qui dois-je écrire ? Je veux, puis-je, je peux démissionner ?")).toEqual(
      keyTerms("écrire démissionner"),
    );
    // As search reads them: asking what the law says is not a word the answer must state.
    expect(keyTerms("Que dit la loi sur les temps de pause ? Que veut dire pause ?")).toEqual(
      keyTerms("loi temps pause"),
    );
    // Elided conjunctions are no words a source must state, as search reads them (query-text.ts).
    expect(keyTerms("Jusqu’à quand, puisqu'il part, quoiqu'on dise ?")).toEqual(keyTerms("quand part dise"));
    // « existe-t-il » asks, as search reads it (query-text.ts); « existe » alone is a word.
    expect(keyTerms("Existe-t-il une surface minimale ? La pause existe-t-elle ?")).toEqual(
      keyTerms("surface minimale pause"),
    );
    expect(keyTerms("le délit existe")).toContain(stem("existe"));
    // An elision before it, punctuation against it, another tense, the « t » left out.
    expect(
      keyTerms("N'existe-t-il pas de délai ? La pause existe-t-elle? Existait-il un plafond ? existe-il"),
    ).toEqual(keyTerms("délai pause plafond"));
  });

  it("leaves out an abbreviation the question defines in parentheses after its words", () => {
    expect(keyTerms("Qu'est-ce que l'activité partielle de longue durée (APLD) ?")).toEqual([
      "activit",
      "partiel",
      "longu",
      "dure",
    ]);
    expect(definedAbbreviations("Le contrat à durée déterminée d'usage (CDDU)")).toEqual(new Set(["cddu"]));
    // Not the initials of the words before it: a word of its own, kept.
    expect(definedAbbreviations("La prévention des risques psychosociaux (RPS)").size).toBe(0);
    expect(keyTerms("Le taux de la TVA (TVA)")).toContain("tva");
  });
});

/** Rarity measured over a small corpus: how many of its texts use each stem. */
function rarityOver(texts: string[]): TermRarity {
  const documentFrequency = new Map<string, number>();
  for (const text of texts)
    for (const term of new Set(
      text
        .split(/[^\p{L}\p{N}]+/u)
        .filter(Boolean)
        .map(stem),
    ))
      documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  return { corpusSize: texts.length, documentFrequency };
}

const OTHER_TEXTS = [
  "Le salarié a droit à un congé. La durée du congé est fixée par accord.",
  "Le salarié est informé par écrit de la durée du travail.",
  "Le contrat de travail est écrit. Il mentionne la durée du travail du salarié.",
  "Le licenciement d'un salarié est motivé. La lettre de licenciement est notifiée au salarié.",
  "Le travail du dimanche est interdit, sauf dérogation accordée par le préfet.",
];
const RARITY = rarityOver([ESSAI.text, DEMISSION.text, ...OTHER_TEXTS]);

describe("wordsBehind", () => {
  it("names terms by the question's own words, the first written, in the terms' order", () => {
    const question = "Une rupture conventionnelle individuelle, les ruptures sont-elles possibles ?";
    expect(wordsBehind(question, [stem("individuelle"), stem("rupture")])).toEqual([
      "individuelle",
      "rupture",
    ]);
    expect(wordsBehind(question, ["absent"])).toEqual([]);
  });
});

describe("evidenceNote", () => {
  it("says nothing of a sufficient answer, and why an insufficient one does not answer", () => {
    expect(evidenceNote("sufficient", 2, ["parental"])).toBeNull();
    expect(evidenceNote("insufficient", 0, ["parental"])).toBe(INSUFFICIENT_NOTE);
    const unstated = evidenceNote("insufficient", 2, ["individuelle", "rupture"]);
    expect(unstated).toMatch(
      /closest the loaded corpus holds, not an answer: no quoted sentence states « individuelle », « rupture »\./,
    );
    expect(unstated).toMatch(/not evidence that no rule exists/);
    expect(evidenceNote("insufficient", 1, [])).toMatch(/cover too little of the question/);
  });
});

describe("composeExtractive", () => {
  it("answers with the sentence that covers the question, citing its provision", () => {
    const answer = composeExtractive(
      "Quelle est la durée maximale de la période d'essai ?",
      [DEMISSION, ESSAI],
      3,
      RARITY,
    );
    expect(answer.evidence).toBe("sufficient");
    expect(answer.sentences[0]).toEqual({ text: ESSAI.text, citations: [ESSAI.publicId] });
    for (const s of answer.sentences)
      expect([DEMISSION.text, ESSAI.text].some((t) => t.includes(s.text))).toBe(true);
  });

  it("reads a word and its plural as one: « congés payés » is stated in « un congé payé »", () => {
    const conges = {
      publicId: "code-du-travail/L3141-1",
      text: "Tout salarié a droit chaque année à un congé payé à la charge de l'employeur.",
    };
    const rarity = rarityOver([conges.text, ...OTHER_TEXTS]);
    const answer = composeExtractive("Qui a droit aux congés payés ?", [conges], 3, rarity);
    expect(answer.evidence).toBe("sufficient");
    expect(answer.sentences).toEqual([{ text: conges.text, citations: [conges.publicId] }]);
  });

  it("reads a sentence stating a lay word's reading as stating the word (« vacances », « congés payés »)", () => {
    const conges = {
      publicId: "code-du-travail/L3141-3",
      text: "Le salarié a droit à un congé payé de deux jours et demi ouvrables par mois de travail effectif chez le même employeur.",
    };
    const lay = Synonyms.parse(
      "version: 1\ngroups: []\nlay:\n  - [vacances, congés payés]\n  - [patron, employeur]\n",
      "synonyms.yaml",
    );
    const rarity = rarityOver([conges.text, ...OTHER_TEXTS]);
    const question = "Le salarié a-t-il droit à des vacances ?";
    const readings = questionReadings(question, lay);
    expect(readings).toEqual(new Map([["vacanc", [["cong", "pai"]]]]));
    const read = composeExtractive(question, [conges], 3, rarity, readings);
    expect(read).toMatchObject({ evidence: "sufficient", unstated: [] });
    // Without the reading, « vacances » is a rare word no sentence states.
    expect(composeExtractive(question, [conges], 3, rarity)).toMatchObject({
      evidence: "insufficient",
      unstated: ["vacanc"],
    });
    // As search reads them: « vacance » (de poste) is a vacancy, « chèques-vacances » one word.
    expect(questionReadings("La vacance du poste", lay).size).toBe(0);
    expect(questionReadings("Qui finance les chèques-vacances ?", lay).size).toBe(0);
    // A set phrase of another sense the entry lists (not_in) leaves the word as written.
    const vouchers = Synonyms.parse(
      "version: 1\ngroups: []\nlay:\n  - { word: vacances, means: [congés payés], not_in: [chèque vacances] }\n",
      "synonyms.yaml",
    );
    expect(questionReadings("Qui finance les chèques vacances ?", vouchers).size).toBe(0);
    expect(questionReadings("Le salarié a-t-il droit à des vacances ?", vouchers)).toEqual(readings);
    // Set phrases are found in the question as asked, before its groups' words were rewritten.
    expect(questionReadings("Des vacances en CDD ?", vouchers, "Des chèques vacances en CDD ?").size).toBe(0);
    // A reading is stated as search matches a phrase: its words one after another.
    const unpaid = {
      publicId: "maternite",
      text: "Le congé de maternité du salarié n'est pas payé par l'employeur.",
    };
    const apart = composeExtractive(question, [unpaid], 3, rarity, readings);
    expect(apart.unstated).toContain("vacanc");
    // A stop word holds its place, as on every engine: « congé, qui n'est pas payé » is no phrase.
    const negated = { publicId: "negated", text: "Le salarié n'a pas droit à ce congé, qui n'est pas payé." };
    expect(composeExtractive(question, [negated], 3, rarity, readings).unstated).toContain("vacanc");
    // « employeur » states « patron », « employés » does not (their first six letters are one).
    const patron = questionReadings("Mon patron peut-il modifier la période d'essai ?", lay);
    expect(patron).toEqual(new Map([["patron", [["employeur"]]]]));
    const employees = composeExtractive(
      "Mon patron peut-il modifier la période d'essai ?",
      [ESSAI],
      3,
      RARITY,
      patron,
    );
    expect(employees.unstated).toContain("patron");
    const employer = {
      publicId: "employeur",
      text: "L'employeur peut modifier la durée de la période d'essai par écrit.",
    };
    expect(
      composeExtractive("Mon patron peut-il modifier la période d'essai ?", [employer], 3, RARITY, patron)
        .unstated,
    ).not.toContain("patron");
  });

  it("reads a word as the engines index it, a feminine « -ée » as its masculine too", () => {
    // Accents folded first, then Snowball's stem, as the engines index (« salarie » is « salarié »,
    // « oeuvre » « œuvre »); folding first parts « salariée » from « salarié », joined here.
    expect(keysOf("salarie")).toEqual(keysOf("salarié"));
    expect(keysOf("oeuvre")).toEqual(keysOf("œuvre"));
    expect(keysOf("salariées")).toEqual([stem("salariées"), stem("salarié")]);
    const dismissed = {
      publicId: "p",
      text: "La salariée licenciée pour motif économique bénéficie d'une priorité de réembauche.",
    };
    const rarity = rarityOver([dismissed.text, ...OTHER_TEXTS]);
    for (const question of [
      "Priorité de réembauche du salarié licencié pour motif économique",
      "priorite de reembauche du salarie licencie pour motif economique",
    ])
      expect(composeExtractive(question, [dismissed], 3, rarity)).toMatchObject({
        evidence: "sufficient",
        unstated: [],
      });
    // A sentence about the employer states no « employés » (their first six letters are one).
    const employer = { publicId: "e", text: "L'employeur informe le comité social et économique." };
    const asked = composeExtractive(
      "Qui informe les employés ?",
      [employer],
      3,
      rarityOver([employer.text, ...OTHER_TEXTS]),
    );
    expect(asked).toMatchObject({ evidence: "insufficient", unstated: [stem("employés")] });
    // A stop word states nothing: the preposition « entre » shares « entrée »'s term ('entre').
    expect(stem("entre")).toBe(stem("entrée"));
    const between = { publicId: "b", text: "Le délai court entre deux visites du salarié." };
    const entry = composeExtractive(
      "Conditions d'entrée du salarié",
      [between],
      3,
      rarityOver([between.text, ...OTHER_TEXTS]),
    );
    expect(entry.unstated).toContain(stem("entrée"));
  });

  it("reads a verb form as stating its act's noun, as search reads it (« démissionne », « démission »)", () => {
    const acts = Synonyms.parse(
      "version: 1\ngroups: []\nacts:\n  - [démission, démissionner]\n",
      "synonyms.yaml",
    );
    const question = "Ai-je droit à des indemnités lorsque je démissionne ?";
    const readings = questionReadings(question, acts);
    expect(readings).toEqual(new Map([[stem("démissionne"), [["demiss"]]]]));
    const resign = {
      publicId: "p",
      text: "La démission du salarié ouvre droit à des indemnités dans les cas prévus par décret.",
    };
    const rarity = rarityOver([resign.text, ...OTHER_TEXTS]);
    expect(composeExtractive(question, [resign], 3, rarity, readings)).toMatchObject({
      evidence: "sufficient",
      unstated: [],
    });
    // Without the act, the verb is a word no sentence states: search keeps them apart too.
    expect(stem("démissionne")).not.toBe(stem("démission"));
    expect(composeExtractive(question, [resign], 3, rarity).unstated).toEqual([stem("démissionne")]);
    // The noun names no act: a question saying « démission » is stated as written.
    expect(questionReadings("La démission ouvre-t-elle droit à des indemnités ?", acts).size).toBe(0);
  });

  it("holds a reading as search holds a phrase: its words in order, a stop word's place held by any word", () => {
    const keys = phraseKeys("Aucune boisson alcoolisée n'est autorisée sur le lieu de travail.");
    expect(holdsPhrase(keys, phraseKeys("boisson alcoolisée"))).toBe(true);
    expect(holdsPhrase(keys, phraseKeys("alcoolisée boisson"))).toBe(false);
    expect(holdsPhrase(keys, phraseKeys("lieu de travail"))).toBe(true);
    expect(holdsPhrase(keys, phraseKeys("lieu du travail"))).toBe(true);
    expect(holdsPhrase(keys, phraseKeys("lieu travail"))).toBe(false);
    expect(holdsPhrase(keys, phraseKeys("de la"))).toBe(false);
  });

  it("says insufficient when no sentence covers enough of the question", () => {
    expect(
      composeExtractive("Quel est le taux de TVA sur les vols spatiaux ?", [DEMISSION, ESSAI], 3, RARITY),
    ).toMatchObject({
      sentences: [],
      evidence: "insufficient",
    });
    expect(composeExtractive("Quelle durée ?", [], 3, RARITY).evidence).toBe("insufficient");
  });

  it("weighs words by their rarity in the corpus: sharing common words is not evidence", () => {
    // "salarié", "durée" and "travail" are in most texts; "dimanche" in one, which is not retrieved.
    const question = "Quelle est la durée du travail du salarié le dimanche ?";
    const retrieved = OTHER_TEXTS.slice(1, 3).map((text, i) => ({ publicId: `p${i}`, text }));
    expect(composeExtractive(question, retrieved, 3, RARITY).evidence).toBe("insufficient");
    const sunday = { publicId: "p-dimanche", text: OTHER_TEXTS[4]! };
    const answer = composeExtractive(question, [...retrieved, sunday], 3, RARITY);
    expect(answer.evidence).toBe("sufficient");
    expect(answer.sentences.flatMap((s) => s.citations)).toContain("p-dimanche");
  });

  it("weighs a word the corpus never uses the most: the question hinges on it", () => {
    const rate = { publicId: "taux", text: "Le taux de la cotisation est fixé par décret." };
    const rarity = rarityOver([rate.text, ESSAI.text, ...OTHER_TEXTS]);
    const question = "Quel est le taux de la TVA sur les billets d'avion vers la Lune ?";
    expect(composeExtractive(question, [rate], 3, rarity).evidence).toBe("insufficient");
    expect(composeExtractive("Quel est le taux de la cotisation ?", [rate], 3, rarity).evidence).toBe(
      "sufficient",
    );
  });

  it("says insufficient when no sentence states one of the question's rare words, whatever it covers", () => {
    // "congé parental" makes the question; the sentence states only "salarié" and takes the rest
    // from its section's heading, at half weight: enough coverage, but nothing it states answers.
    const underHeading = {
      publicId: "p",
      text: "Le salarié informe son employeur par lettre recommandée.",
      headings: ["Section 1 : Congé parental d'éducation"],
    };
    const rarity = rarityOver([underHeading.text, ...OTHER_TEXTS]);
    const question = "Un salarié en congé parental ?";
    const answer = composeExtractive(question, [underHeading], 1, rarity);
    expect(answer.coverage).toBeGreaterThanOrEqual(MIN_ANSWER_COVERAGE);
    // Quoted as the closest statement, flagged, with the rare words it does not state.
    expect(answer).toMatchObject({
      sentences: [{ text: underHeading.text, citations: ["p"] }],
      evidence: "insufficient",
    });
    expect(answer.unstated).toEqual(expect.arrayContaining(["parental"]));
    expect(answer.unstated).not.toContain("salar");
    // A sentence that states the rare words answers.
    const states = { publicId: "q", text: "Le congé parental d'éducation est ouvert à tout salarié." };
    const answered = composeExtractive(question, [underHeading, states], 2, rarity);
    expect(answered.evidence).toBe("sufficient");
    expect(answered.sentences.flatMap((s) => s.citations)).toContain("q");
    expect(answered.unstated).toEqual([]);
  });

  it("reads the rarer half of the question's terms as its rare words, at least the rarest", () => {
    const weight = new Map([
      ["salari", 0.2],
      ["cong", 1],
      ["parental", 3],
      ["licenci", 1.5],
    ]);
    expect(rareTerms(["salari", "cong", "parental", "licenci"], weight).sort()).toEqual([
      "licenci",
      "parental",
    ]);
    expect(rareTerms(["salari", "parental"], weight)).toEqual(["parental"]);
    expect(rareTerms(["cong"], weight)).toEqual(["cong"]);
  });

  it("reads an abbreviation as its full form with the synonyms file", () => {
    // "CDI" is in no text; "contrat à durée indéterminée" is.
    const read = Synonyms.bundled().canonical("Durée maximale de la période d'essai d'un CDI ?");
    expect(read).toBe("Durée maximale de la période d'essai d'un contrat à durée indéterminée ?");
    const answer = composeExtractive(read, [ESSAI], 3, RARITY);
    expect(answer.evidence).toBe("sufficient");
    expect(answer.coverage).toBeCloseTo(1);
  });

  it("reads a sentence with the headings of its section and the provision's first sentence", () => {
    const question = "Quelle est la durée maximale de la période d'essai ?";
    const renewal = {
      publicId: "code-du-travail/L1221-21",
      text: "Elle peut être renouvelée une fois. La durée maximale, renouvellement compris, ne peut dépasser huit mois.",
    };
    const rarity = rarityOver([ESSAI.text, renewal.text, ...OTHER_TEXTS]);
    const bare = composeExtractive(question, [renewal], 3, rarity);
    expect(bare.evidence).toBe("insufficient");
    const underHeading = {
      ...renewal,
      headings: ["Chapitre Ier : Formation", "Section 4 : Période d'essai"],
    };
    // The heading says what the sentence is about: its evidence grows…
    const read = composeExtractive(question, [underHeading], 3, rarity);
    expect(read.coverage).toBeGreaterThan(bare.coverage);
    expect(read.coverage).toBeGreaterThanOrEqual(MIN_ANSWER_COVERAGE);
    // …but the question's rare words ("période", "essai") are only inherited: no answer from it alone.
    expect(read.evidence).toBe("insufficient");
  });

  it("reads a sentence with the titles of the guides citing its provision, as with its headings", () => {
    // A lay question: "renvoyer" and "essai" are the guide's words; the article says "rompu" and
    // states "période d'essai" only in its first sentence.
    const question = "Peut-on renvoyer un salarié pendant sa période d'essai ?";
    const article = {
      publicId: "code-du-travail/L1221-25",
      text: "La période d'essai peut être rompue. Lorsqu'il est mis fin, par l'employeur, au contrat en cours ou au terme de la période d'essai, le salarié est prévenu dans un délai qui ne peut être inférieur à vingt-quatre heures.",
    };
    const rarity = rarityOver([ESSAI.text, article.text, ...OTHER_TEXTS]);
    const bare = composeExtractive(question, [article], 3, rarity);
    const withGuides = composeExtractive(
      question,
      [{ ...article, guides: "Renvoyer un salarié pendant la période d'essai" }],
      3,
      rarity,
    );
    expect(withGuides.coverage).toBeGreaterThan(bare.coverage);
    expect(withGuides.evidence).toBe("sufficient");
    expect(withGuides.sentences[0]!.citations).toEqual([article.publicId]);
    // Inherited at half: never more than stating the words would give.
    const stated = composeExtractive(
      question,
      [{ ...article, text: `On peut renvoyer un salarié pendant sa période d'essai. ${article.text}` }],
      3,
      rarity,
    );
    expect(withGuides.coverage).toBeLessThan(stated.coverage);
  });

  it("weighs a word a sentence only inherits from its headings at half one it states", () => {
    const question = "Quelle est la durée maximale de la période d'essai ?";
    // Below the first page (one place, taken by nothing: the provision ranked first is on
    // resignation), ranked higher, a sentence that states two of the words and inherits the others
    // from its heading; ranked lower, one that states them all.
    const inherits = {
      publicId: "inherits",
      text: "La durée maximale ne peut dépasser huit mois.",
      headings: ["Section 4 : Période d'essai"],
    };
    const states = {
      publicId: "states",
      text: "La durée maximale de la période d'essai est fixée par accord.",
    };
    const answer = composeExtractive(question, [DEMISSION, inherits, states], 1, RARITY);
    expect(answer.sentences).toEqual([{ text: states.text, citations: ["states"] }]);
    // Alone, it still answers: inherited words count, at half.
    const alone = composeExtractive(question, [inherits], 1, RARITY);
    expect(alone.evidence).toBe("sufficient");
    expect(alone.coverage).toBeLessThan(composeExtractive(question, [states], 1, RARITY).coverage);
  });

  it("counts an enumeration's length by its lead-in when the list adds no question word", () => {
    // ESSAI is one 50-word sentence whose lead-in states the question; the list after it is the
    // answer. It keeps its first rank against a short sentence with the same words.
    const short = {
      publicId: "short",
      text: "La durée maximale de la période d'essai est fixée par accord.",
    };
    const question = "Quelle est la durée maximale de la période d'essai ?";
    const answer = composeExtractive(question, [ESSAI, short], 1, RARITY);
    expect(answer.sentences).toEqual([{ text: ESSAI.text, citations: [ESSAI.publicId] }]);
  });

  it("with equal evidence, follows the search ranking: the better-ranked provision is cited", () => {
    const copy = { publicId: "copy", text: ESSAI.text.replace("Le contrat", "Tout contrat") };
    const answer = composeExtractive("Durée maximale de la période d'essai ?", [copy, ESSAI], 1, RARITY);
    expect(answer.sentences[0]!.citations).toEqual(["copy"]);
  });

  // Ranked higher, a sentence with two of the four words; ranked lower, one with all of them.
  const partial = { publicId: "partial", text: "La période d'essai se poursuit jusqu'à son terme." };
  const full = { publicId: "full", text: "La durée maximale de la période d'essai est de deux mois." };
  const question = "Quelle est la durée maximale de la période d'essai ?";

  it("quotes search's first provisions that speak to the question before any ranked lower", () => {
    // Two places: the first two provisions both have a sentence on the question; the better
    // sentence ranked third does not displace them.
    const sources = [
      partial,
      { publicId: "also", text: "La période d'essai peut être renouvelée une fois." },
      full,
    ];
    const answer = composeExtractive(question, sources, 2, RARITY);
    expect(answer.sentences.map((s) => s.citations[0])).toEqual(["partial", "also"]);
  });

  it("gives a place of the first page with no sentence on the question to the best sentence below", () => {
    // One place: the first provision (on resignation) says nothing of the trial period; of those
    // ranked below, the one stating all four words wins over the better-ranked partial one.
    const sources = [DEMISSION, partial, { publicId: "other", text: OTHER_TEXTS[4]! }, full];
    const answer = composeExtractive(question, sources, 1, RARITY);
    expect(answer.sentences).toEqual([{ text: full.text, citations: ["full"] }]);
  });

  it("gives a place still free back to the first page, by a sentence stating a word of the question, as context", () => {
    // Two places; the first provision has no sentence covering a third of the question, but one
    // stating « essai »: quoted in the place the better sentence below leaves, in search's order.
    const aside = { publicId: "aside", text: "Le salarié est informé par écrit. L'essai figure au contrat." };
    const answer = composeExtractive(question, [aside, full], 2, RARITY);
    expect(answer.sentences).toEqual([
      { text: "L'essai figure au contrat.", citations: ["aside"] },
      { text: full.text, citations: ["full"] },
    ]);
    expect(answer.evidence).toBe("sufficient");
    // Context, not evidence: alone, it is quoted but never makes the answer sufficient, and the
    // words it states are not reported as stated by none.
    const alone = composeExtractive(question, [aside], 2, RARITY);
    expect(alone.sentences).toEqual([{ text: "L'essai figure au contrat.", citations: ["aside"] }]);
    expect(alone.evidence).toBe("insufficient");
    expect(alone.unstated).not.toContain("essai");
    expect(alone.unstated.length).toBeGreaterThan(0);
    // Never beyond the places asked.
    expect(composeExtractive(question, [aside, full], 1, RARITY).sentences).toHaveLength(1);
    // Rarities where « durée » and « maximale » are the question's common half, « période » and
    // « essai » its rare half.
    const weights = {
      corpusSize: 100,
      documentFrequency: new Map([
        [stem("essai"), 10],
        [stem("période"), 3],
        [stem("durée"), 40],
        [stem("maximale"), 40],
      ]),
    };
    // A provision none of whose sentences states a rare word is quoted by its sentence stating a
    // common word, when the provision names another word of the question (its headings here):
    // search ranked it among the first, and the answer has room. As context: the answer stays
    // insufficient.
    const common = {
      publicId: "common",
      text: "Le salarié est informé par écrit. La durée du travail est fixée par accord.",
      headings: ["Section 2 : Durée maximale"],
    };
    const quoted = composeExtractive(question, [common], 2, weights);
    expect(quoted.sentences).toEqual([
      { text: "La durée du travail est fixée par accord.", citations: ["common"] },
    ]);
    expect(quoted.evidence).toBe("insufficient");
    // Nor a sentence of over 120 words without a lead-in: a long text holds common words by chance.
    const longCommon = {
      ...common,
      publicId: "long",
      text: `Le salarié est informé par écrit. La durée du travail, ${"que le salarié accepte, ".repeat(40)}est fixée par accord.`,
    };
    expect(composeExtractive(question, [longCommon], 2, weights).sentences).toEqual([]);
    // One common word and nothing else of the question is no context: « taux » in an article on
    // pay rises for a question on VAT.
    const { headings: _, ...bare } = common;
    expect(composeExtractive(question, [bare], 2, weights).sentences).toEqual([]);
    // One stating a rare word comes first, though the other scores higher: « durée » and
    // « maximale » weigh more together than « essai » alone, and the long sentence pays for its
    // length. Neither covers a third of the question.
    const long = `L'essai figure au contrat, ${"que le salarié signe, ".repeat(24)}à la date prévue.`;
    const both = {
      publicId: "both",
      text: `Le salarié est informé par écrit. La durée maximale est fixée par accord. ${long}`,
    };
    expect(composeExtractive(question, [both], 1, weights).sentences).toEqual([
      { text: long, citations: ["both"] },
    ]);
    // A provision stating no word of the question is not quoted.
    const none = { publicId: "none", text: "Le salarié est informé par écrit." };
    expect(composeExtractive(question, [none], 2, RARITY).sentences).toEqual([]);
  });

  it("keeps a place for search's first provision when it states a rare word, taken from below the first page", () => {
    // Two places; the first page (aside, other) offers no sentence covering a third of the
    // question, and two provisions below do. Search's first provision still has its place, as
    // context: the weaker of the two below gives it up.
    const aside = { publicId: "aside", text: "Le salarié est informé par écrit. L'essai figure au contrat." };
    const other = { publicId: "other", text: OTHER_TEXTS[4]! };
    const cadres = {
      publicId: "cadres",
      text: "Pour les cadres, la durée maximale de la période d'essai est de quatre mois.",
    };
    const answer = composeExtractive(question, [aside, other, full, cadres], 2, RARITY);
    expect(answer.sentences.map((s) => s.citations[0])).toEqual(["aside", "full"]);
    expect(answer.evidence).toBe("sufficient");
    // Without a sentence stating a rare word, it keeps no place; nor when one place is all there is.
    const silent = { publicId: "silent", text: "Le salarié est informé par écrit." };
    expect(
      composeExtractive(question, [silent, other, full, cadres], 2, RARITY).sentences.map(
        (s) => s.citations[0],
      ),
    ).toEqual(["full", "cadres"]);
    expect(composeExtractive(question, [aside, other, full, cadres], 1, RARITY).sentences).toEqual([
      { text: full.text, citations: ["full"] },
    ]);
  });

  it("never takes a sentence too long to be one (a table, a long list) as evidence, only as context", () => {
    const table = {
      publicId: "table",
      text: `Période d'essai durée maximale ${"ligne du tableau ".repeat(MAX_SENTENCE_WORDS)}`,
    };
    const answer = composeExtractive("Durée maximale de la période d'essai ?", [table], 3, RARITY);
    expect(answer.evidence).toBe("insufficient");
    // Search's first provision, stating the rare words: quoted whole, as context.
    expect(answer.sentences).toEqual([{ text: table.text.trim(), citations: ["table"] }]);
    // Below the first page it is not quoted at all: context comes from the first page only.
    const below = composeExtractive(
      "Durée maximale de la période d'essai ?",
      [ESSAI, DEMISSION, table],
      2,
      RARITY,
    );
    expect(below.sentences.map((s) => s.citations[0])).not.toContain("table");
  });

  it("quotes a long enumeration by its lead-in and the item that answers, the items between marked « […] »", () => {
    // D2261-2, one sentence of some 150 words: its lead-in states nothing of « prime d'ancienneté ».
    const branche = {
      publicId: "code-du-travail/D2261-2",
      text: "La convention de branche susceptible d'extension peut contenir, sans que cette énumération soit limitative, des stipulations concernant : 1° Les conditions particulières de travail : a) Heures supplémentaires ; b) Travail par roulement ; c) Travail de nuit ; d) Travail du dimanche ; e) Travail des jours fériés ; 2° Les conditions générales de rémunération du travail au rendement pour les catégories intéressées, sauf s'il s'agit de travaux dangereux, pénibles ou insalubres ; 3° Les primes d'ancienneté et d'assiduité ; 4° Les indemnités pour frais professionnels ou assimilés, notamment les indemnités de déplacement ; 5° Les garanties collectives complémentaires mentionnées à l'article L. 911-2 du code de la sécurité sociale ; 6° Les procédures conventionnelles d'arbitrage des conflits collectifs de travail survenant entre les employeurs et les salariés liés par la convention ; 7° Les conditions d'exercice des responsabilités mutualistes.",
    };
    expect(branche.text.split(/\s+/).length).toBeGreaterThan(MAX_SENTENCE_WORDS);
    const rarity = rarityOver([branche.text, ...OTHER_TEXTS]);
    const leadIn =
      "La convention de branche susceptible d'extension peut contenir, sans que cette énumération soit limitative, des stipulations concernant :";
    const prime = composeExtractive("Qu'est-ce que la prime d'ancienneté ?", [branche], 2, rarity);
    expect(prime.sentences).toEqual([
      { text: `${leadIn} […] 3° Les primes d'ancienneté et d'assiduité ;`, citations: [branche.publicId] },
    ]);
    expect(prime.evidence).toBe("sufficient");
    expect(quotedIn(branche.text, prime.sentences[0]!.text)).toBe(true);
    // The first item follows its lead-in: nothing left out, nothing marked.
    const nuit = composeExtractive("Heures supplémentaires et travail de nuit", [branche], 2, rarity);
    expect(nuit.sentences[0]!.text).toMatch(
      /^La convention de branche .* concernant : 1° Les conditions particulières/,
    );
    expect(nuit.sentences[0]!.text).not.toContain("[…]");
    expect(branche.text).toContain(nuit.sentences[0]!.text);
    // A part not in the text is no quote of it, nor parts out of the text's order.
    expect(quotedIn(branche.text, `${leadIn} […] 8° Les primes de fin d'année ;`)).toBe(false);
    expect(quotedIn(branche.text, `3° Les primes d'ancienneté et d'assiduité ; […] ${leadIn}`)).toBe(false);
  });

  it("reads a reference inside an item (« au 3° de l'article ») as part of it, never as an item", () => {
    // L1242-7's second sentence: item 4° refers to « au 3° de l'article L. 1242-2 », item 5° to
    // « aux 4° et 5° ». Split there, « […] 3° de l'article L. 1242-2 ou pour lesquels… » would
    // be quoted as its item 3°, which is « Dans l'attente de l'entrée en service… ».
    const terme = {
      publicId: "code-du-travail/L1242-7",
      text: "Toutefois, le contrat peut ne pas comporter de terme précis lorsqu'il est conclu dans l'un des cas suivants : 1° Remplacement d'un salarié absent ; 2° Remplacement d'un salarié dont le contrat de travail est suspendu ; 3° Dans l'attente de l'entrée en service effective d'un salarié recruté par contrat à durée indéterminée ; 4° Emplois à caractère saisonnier définis au 3° de l'article L. 1242-2 ou pour lesquels, dans certains secteurs d'activité définis par décret ou par voie de convention ou d'accord collectif étendu, il est d'usage constant de ne pas recourir au contrat de travail à durée indéterminée en raison de la nature de l'activité exercée et du caractère par nature temporaire de ces emplois ; 5° Remplacement de l'une des personnes mentionnées aux 4° et 5° de l'article L. 1242-2 ; 6° Recrutement d'ingénieurs et de cadres en vue de la réalisation d'un objet défini, prévu au 6° de l'article L. 1242-2.",
    };
    expect(terme.text.split(/\s+/).length).toBeGreaterThan(MAX_SENTENCE_WORDS);
    const rarity = rarityOver([terme.text, ...OTHER_TEXTS]);
    const usage = composeExtractive(
      "Secteurs d'activité d'usage constant sans terme précis",
      [terme],
      2,
      rarity,
    );
    expect(usage.sentences).toHaveLength(1);
    expect(usage.sentences[0]!.text).toMatch(
      / \[…\] 4° Emplois à caractère saisonnier définis au 3° de l'article/,
    );
    expect(quotedIn(terme.text, usage.sentences[0]!.text)).toBe(true);
    // Numbers that do not run 1°, 2°, 3°…: not read as a list at all, the lead-in alone.
    const odd = { publicId: "odd", text: terme.text.replace("3° Dans l'attente", "9° Dans l'attente") };
    const lead = composeExtractive(
      "Secteurs d'activité d'usage constant sans terme précis",
      [odd],
      2,
      rarity,
    );
    expect(lead.sentences.map((s) => s.text)).not.toContainEqual(expect.stringContaining("[…]"));
  });

  it("says insufficient when the question's words are in every provision (nothing tells them apart)", () => {
    const everywhere = rarityOver([ESSAI.text, ESSAI.text]);
    expect(composeExtractive("période d'essai", [ESSAI], 3, everywhere)).toMatchObject({
      evidence: "insufficient",
      coverage: 0,
    });
  });

  it("leaves out the words the corpus's analyser drops as stop words", () => {
    // "ayant" is a Postgres stop word: counted in no provision, it would weigh the most.
    const question = "Durée maximale de la période d'essai ayant ?";
    expect(composeExtractive(question, [ESSAI], 3, RARITY).coverage).toBeLessThan(0.75);
    const withStop = { ...RARITY, ignored: new Set(["ayant"]) };
    expect(composeExtractive(question, [ESSAI], 3, withStop).coverage).toBeCloseTo(1);
  });

  it("never cites more sentences than asked", () => {
    expect(
      composeExtractive("durée préavis démission période essai", [DEMISSION, ESSAI], 1, RARITY).sentences,
    ).toHaveLength(1);
  });
});

describe("checkReply (the generative composer's guard)", () => {
  const sources = [ESSAI, DEMISSION];
  const reply = (sentences: unknown) => JSON.stringify({ sentences });

  it("accepts sentences that cite supplied sources and quote them exactly", () => {
    const outcome = checkReply(
      reply([
        {
          text: "Pour un ouvrier, elle est « de deux mois ».",
          sources: ["S1"],
          quotes: ["Pour les ouvriers et les employés, de deux mois"],
        },
      ]),
      sources,
    );
    expect(outcome).toEqual({
      ok: true,
      sentences: [{ text: "Pour un ouvrier, elle est « de deux mois ».", citations: [ESSAI.publicId] }],
    });
  });

  it("refuses unsupplied sources, missing citations, invented quotes and malformed replies", () => {
    expect(checkReply(reply([{ text: "x", sources: ["S3"] }]), sources)).toMatchObject({
      ok: false,
      reason: /not supplied/,
    });
    expect(checkReply(reply([{ text: "x", sources: [] }]), sources)).toMatchObject({
      ok: false,
      reason: /cites no source/,
    });
    expect(
      checkReply(reply([{ text: "Elle est « de six mois ».", sources: ["S1"] }]), sources),
    ).toMatchObject({
      ok: false,
      reason: /quotes words/,
    });
    // A quote must be in a source the sentence cites, not merely in some source.
    expect(
      checkReply(reply([{ text: "x", sources: ["S2"], quotes: ["de deux mois"] }]), sources),
    ).toMatchObject({ ok: false });
    expect(checkReply("not json", sources)).toMatchObject({ ok: false, reason: /not the JSON/ });
    expect(checkReply(reply([]), sources)).toMatchObject({ ok: false });
  });

  it("finds quoted spans in French and English quotation marks", () => {
    expect(quotedSpans('Il dit « deux mois » puis "trois mois" et “quatre mois”.')).toEqual([
      "deux mois",
      "trois mois",
      "quatre mois",
    ]);
  });
});
