import { describe, expect, it } from "vitest";
import { withHyphensApart } from "./postgres-engine.ts";

describe("withHyphensApart", () => {
  it("adds a hyphenated word's parts side by side, after the word as typed", () => {
    expect(withHyphensApart(["chèque-vacances"])).toEqual(["chèque-vacances", "chèque vacances"]);
    expect(withHyphensApart(["compte épargne-temps", "CET"])).toEqual([
      "compte épargne-temps",
      "compte épargne temps",
      "CET",
    ]);
    expect(withHyphensApart(["rupture-contrat-apprentissage"])).toEqual([
      "rupture-contrat-apprentissage",
      "rupture contrat apprentissage",
    ]);
  });

  it("leaves article numbers and words without a hyphen as they are", () => {
    expect(withHyphensApart(["L1237-11", "R4228-20", "congés"])).toEqual(["L1237-11", "R4228-20", "congés"]);
    expect(withHyphensApart(["covid-19"])).toEqual(["covid-19"]);
  });
});
