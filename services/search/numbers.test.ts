import { describe, expect, it } from "vitest";
import { hoursSpelled, numbersIn } from "./numbers.ts";
import { queryTerms } from "./query-text.ts";
import { Synonyms } from "./synonyms.ts";

const typed = (text: string) => numbersIn(text).map((n) => n.typed);

describe("numbersIn", () => {
  it("reads a number typed on its own as the codes write it, traditional spelling", () => {
    expect(numbersIn("retraite à 60 ans")).toEqual([
      { start: 11, end: 13, typed: "60", written: "soixante", searched: ["soixante"] },
    ]);
    const written = numbersIn("plus de 50 salariés, 22 jours, 71 ans, 80 heures, 1607 heures");
    expect(written.map((n) => n.written)).toEqual([
      "cinquante",
      "vingt-deux",
      "soixante et onze",
      "quatre-vingts",
      "mille six cent sept",
    ]);
  });

  it("reads « h » after a number as hours, in digits and in words", () => {
    expect(numbersIn("durée maximale 48h par semaine")[0]).toMatchObject({
      typed: "48h",
      written: "quarante-huit heures",
      searched: ["48 heures", "quarante huit heures"],
    });
    expect(numbersIn("repos de 21H")[0]?.written).toBe("vingt et une heures");
    // An answer reads the unit, not the number: « 21 » is no word its sentences must state.
    expect(hoursSpelled("repos de 21H, 11 heures, 8h30")).toBe("repos de 21 heures, 11 heures, 8h30");
  });

  it("leaves alone what the codes write in digits too, and what is no quantity", () => {
    // Article numbers, however typed.
    expect(typed("L1242-8 L 1242-8 L. 3121-27 article 12 art. 4 art 4 n° 5 R4228-19 alinéa 2 al. 3")).toEqual(
      [],
    );
    // What follows one is read (« 1 500 »'s second part alone is no number of its own).
    expect(typed("L. 3121-35 35h, 2016 48h, Noël 25, sûr 5")).toEqual(["35h", "48h", "25", "5"]);
    expect(typed("numéro 12, § 3, IDCC 843, CC 66, al 2, 10 pour cent, 50 EUR, 50 $, 2  500")).toEqual([]);
    // « 06h » is hours, six of them.
    expect(numbersIn("de 21h à 06h").map((n) => n.searched[0])).toEqual(["21 heures", "6 heures"]);
    // Years, dates, decimals, grouped amounts, percentages, sums, words holding digits.
    expect(typed("formation 2019, le 01/05, 1,5 jour, 1 500 salariés, 10 % 10%, 50 € 50 euros")).toEqual([]);
    expect(typed("la loi du 8 août 2016, le 14 Juillet, 25 decembre")).toEqual([]);
    expect(typed("5 maisons, 3 mois")).toEqual(["5", "3"]);
    expect(typed("13e mois 13ème cc66 3x8 8h30")).toEqual([]);
    // « un » is a stop word: 1 is searched as typed; 0 and numbers from 10,000 too.
    expect(typed("1 jour, 0 heure, 10000 heures")).toEqual([]);
    // Numbers whose words search cannot tell: « vingt et un » would search « vingt » alone
    // (« un » is a stop word), « neuf » also means new, « cent » is the codes' « pour cent ».
    // Before « h », the phrase holds « heures » too.
    expect(typed("21 jours, 81 ans, 101 salariés, 9 mois, 100 salariés")).toEqual([]);
    expect(numbersIn("9h 21h").map((n) => n.searched)).toEqual([
      ["9 heures", "neuf heures"],
      ["21 heures", "vingt et une heures"],
    ]);
    // A number ending a clause or a sentence is one.
    expect(typed("entre 2 cdd, moins de 18 ans, 2, 3 ou 4 jours. 35h. (10h)")).toEqual([
      "2",
      "18",
      "2",
      "3",
      "4",
      "35h",
      "10h",
    ]);
  });
});

describe("queryTerms with numbers", () => {
  it("searches a typed number as typed and as the codes write it, in the same term", () => {
    expect(queryTerms("travail de nuit 35h", Synonyms.none)).toEqual([
      ["travail"],
      ["nuit"],
      ["35h", "35 heures", "trente cinq heures"],
    ]);
    expect(queryTerms("entreprise de plus de 50 salariés", Synonyms.none)).toEqual([
      ["entreprise"],
      ["plus"],
      ["50", "cinquante"],
      ["salariés"],
    ]);
    expect(queryTerms("article L1242-8", Synonyms.none)).toEqual([["article"], ["L1242-8"]]);
  });
});
