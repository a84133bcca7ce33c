import { describe, expect, it } from "vitest";
import { buildSnippet } from "./snippets.ts";

const LONG =
  "Le salarié peut demander un congé. " +
  "Les conditions d'ancienneté sont fixées par accord collectif d'entreprise ou, à défaut, par accord de branche. " +
  "Pendant la durée de la suspension, l'employeur ne peut rompre le contrat que pour faute grave. " +
  "La durée totale du congé payé ne peut excéder vingt-quatre jours ouvrables, sauf dérogation. " +
  "Un décret en Conseil d'État détermine les modalités d'application du présent article, " +
  "notamment les conditions dans lesquelles le salarié informe l'employeur de la date de son départ " +
  "et de la durée de son absence.";

describe("buildSnippet", () => {
  it("marks the matched words, whatever their inflection and accents, never a stop word", () => {
    const snippet = buildSnippet(
      "Le salarié a droit à un congé de deux jours et demi par mois.",
      [],
      [["salariés"], ["conges"]],
    );
    expect(snippet).toBe(
      "Le <mark>salarié</mark> a droit à un <mark>congé</mark> de deux jours et demi par mois.",
    );
  });

  it("marks what the engines match: accents folded before stemming", () => {
    const text = "Le salarié occupe un emploi. Les employés sont informés. Les collectivités territoriales.";
    // Typed without accents, as the engines fold them first.
    expect(buildSnippet(text, [], [["employes"]])).toContain("Les <mark>employés</mark> sont");
    // Snowball's stem of an accented word joins words the engines keep apart: not marked.
    const marked = buildSnippet(text, [], [["employés"], ["collective"]]);
    expect(marked).toContain("un emploi.");
    expect(marked).toContain("Les collectivités");
    expect(marked).toContain("<mark>employés</mark>");
  });

  it("marks a word whole where the text decomposes its accent or breaks it with a soft hyphen", () => {
    const snippet = buildSnippet(
      "La re\u0301siliation engage les responsa\u00adbilités du gérant (10 µg).",
      [],
      [["résiliation"], ["responsabilité"], ["μg"]],
    );
    expect(snippet).toBe(
      "La <mark>re\u0301siliation</mark> engage les <mark>responsa\u00adbilités</mark> du gérant (10 <mark>µg</mark>).",
    );
  });

  it("shows the passage holding the most terms, with an ellipsis on each side where the text goes on", () => {
    const snippet = buildSnippet(LONG, [], [["congé"], ["payé"], ["jours"]]);
    expect(snippet).toMatch(/^… /);
    expect(snippet).toMatch(/ …$/);
    expect(snippet).toContain("<mark>congé</mark> <mark>payé</mark>");
    expect(snippet).toContain("<mark>jours</mark>");
    expect(snippet.replace(/<\/?mark>/g, "").split(" ").length).toBeLessThanOrEqual(34 + 2);
  });

  it("marks a hyphenated word's parts wherever they stand, as every engine finds them", () => {
    const text = "La rupture anticipée du contrat d'apprentissage intervient par accord écrit.";
    expect(buildSnippet(text, [], [["rupture-contrat-apprentissage"]])).toBe(
      "La <mark>rupture</mark> anticipée du <mark>contrat</mark> d'<mark>apprentissage</mark> intervient par accord écrit.",
    );
    // Within a phrase the parts stay in line.
    expect(
      buildSnippet("Le compte courant, l'épargne, le temps partiel.", [], [["compte épargne-temps"]]),
    ).not.toContain("<mark>");
  });

  it("marks a synonym phrase only where it stands whole, and its stop words not at all", () => {
    const text =
      "La durée du travail est fixée par accord. Le contrat à durée déterminée ne peut avoir pour objet un emploi durable.";
    const snippet = buildSnippet(text, [], [["CDD", "contrat à durée déterminée"]]);
    expect(snippet).toContain("<mark>contrat</mark> à <mark>durée</mark> <mark>déterminée</mark>");
    expect(snippet).not.toContain("La <mark>durée</mark> du travail");
    expect(snippet).not.toContain("<mark>à</mark>");
  });

  it("adds a second passage for terms the first does not show", () => {
    const filler = " Autre phrase sans rapport avec la question posée ici.".repeat(8);
    const text = `Le préavis est d'un mois.${filler} L'indemnité légale est due au salarié.`;
    const snippet = buildSnippet(text, [], [["préavis"], ["indemnité"]]);
    expect(snippet).toContain("<mark>préavis</mark>");
    expect(snippet).toContain("<mark>indemnité</mark>");
    expect(snippet).toContain(" … ");
  });

  it("shows the matching headings, then the text's opening, when only the headings matched", () => {
    const snippet = buildSnippet(
      "La durée maximale est de deux mois pour les ouvriers et les employés, renouvelable une fois si un accord le prévoit.",
      ["Partie législative", "Livre II : Le contrat de travail", "Section 4 : Période d'essai"],
      [["période"], ["essai"]],
    );
    expect(snippet).toMatch(/^Section 4 : <mark>Période<\/mark> d'<mark>essai<\/mark> — La durée maximale/);
    expect(snippet).toMatch(/ …$/);
  });

  it("shows the text's opening when nothing in the text or headings matched", () => {
    expect(buildSnippet("Court texte.", ["Titre"], [["rupture"]])).toBe("Court texte.");
    const words = Array.from({ length: 50 }, (_, i) => `mot${i}`).join(" ");
    expect(buildSnippet(words, [], [])).toMatch(/^mot0 mot1 .* mot31 …$/);
  });
});
