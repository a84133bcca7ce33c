import { describe, expect, it } from "vitest";
import { withHyphensApart } from "./postgres-engine.ts";

const inOrder = (text: string) => ({ text, inOrder: true });
const anywhere = (text: string) => ({ text, inOrder: false });

describe("withHyphensApart", () => {
  it("adds a hyphenated word's parts, anywhere in the provision, after the word as typed", () => {
    expect(withHyphensApart(["chèque-vacances"])).toEqual([
      inOrder("chèque-vacances"),
      anywhere("chèque vacances"),
    ]);
    expect(withHyphensApart(["rupture-contrat-apprentissage"])).toEqual([
      inOrder("rupture-contrat-apprentissage"),
      anywhere("rupture contrat apprentissage"),
    ]);
  });

  it("keeps a phrase's parts side by side, in line with its other words", () => {
    expect(withHyphensApart(["compte épargne-temps", "CET"])).toEqual([
      inOrder("compte épargne-temps"),
      inOrder("compte épargne temps"),
      inOrder("CET"),
    ]);
  });

  it("reads an alternative found both ways as its parts anywhere", () => {
    expect(withHyphensApart(["chèque vacances", "chèque-vacances"])).toEqual([
      anywhere("chèque vacances"),
      inOrder("chèque-vacances"),
    ]);
  });

  it("leaves article numbers and words without a hyphen as they are", () => {
    expect(withHyphensApart(["L1237-11", "R4228-20", "congés"])).toEqual(
      ["L1237-11", "R4228-20", "congés"].map(inOrder),
    );
    expect(withHyphensApart(["covid-19"])).toEqual([inOrder("covid-19")]);
  });
});
