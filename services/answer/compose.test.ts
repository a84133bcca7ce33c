import { describe, expect, it } from "vitest";
import { composeExtractive } from "./extractive.ts";
import { checkReply, quotedSpans } from "./generative.ts";
import { contentWords, keyTerms, splitSentences } from "./text.ts";

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
      "duree",
      "maxima",
      "period",
      "essai",
    ]);
  });
});

describe("contentWords", () => {
  it("keeps what a search should require of a question, as written", () => {
    expect(contentWords("Quelle est la durée de la période d'essai d'un CDI ?")).toBe(
      "durée période essai CDI",
    );
  });
});

describe("composeExtractive", () => {
  it("answers with the sentence that covers the question, citing its provision", () => {
    const answer = composeExtractive(
      "Quelle est la durée maximale de la période d'essai ?",
      [DEMISSION, ESSAI],
      3,
    );
    expect(answer.evidence).toBe("sufficient");
    expect(answer.sentences[0]).toEqual({ text: ESSAI.text, citations: [ESSAI.publicId] });
    for (const s of answer.sentences)
      expect([DEMISSION.text, ESSAI.text].some((t) => t.includes(s.text))).toBe(true);
  });

  it("says insufficient when no sentence covers enough of the question", () => {
    expect(
      composeExtractive("Quel est le taux de TVA sur les vols spatiaux ?", [DEMISSION, ESSAI], 3),
    ).toMatchObject({
      sentences: [],
      evidence: "insufficient",
    });
    expect(composeExtractive("Quelle durée ?", [], 3).evidence).toBe("insufficient");
  });

  it("never cites more sentences than asked", () => {
    expect(
      composeExtractive("durée préavis démission période essai", [DEMISSION, ESSAI], 1).sentences,
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
