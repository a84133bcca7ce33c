import { describe, expect, it } from "vitest";
import { InputError } from "../core/errors.ts";
import { AGREEMENT_KIND, RANKING, rankingFrom, reachWeight } from "./ranking.ts";

describe("rankingFrom", () => {
  it("keeps the model's constants unless SEARCH_RANKING overrides some", () => {
    expect(rankingFrom(undefined).k1).toBe(1.2);
    const ranking = rankingFrom('{"authority":0,"fields":{"guides":2}}');
    expect(ranking).toMatchObject({
      authority: 0,
      legislative: 0.1,
      opening: 0.1,
      fields: { text: 1, headings: 2, guides: 2 },
    });
  });

  it("refuses an unknown or out-of-range constant, naming the variable", () => {
    for (const bad of [
      '{"b":2}',
      '{"boost":1}',
      '{"agreement":0}',
      '{"agreement":1.5}',
      '{"opening":-1}',
      "not json",
    ])
      expect(() => rankingFrom(bad), bad).toThrow(InputError);
    expect(() => rankingFrom('{"b":2}')).toThrow(/SEARCH_RANKING/);
  });
});

describe("reachWeight", () => {
  it("weighs an agreement's provision RANKING.agreement of its score, unless within one document", () => {
    expect(reachWeight(RANKING, AGREEMENT_KIND, false)).toBe(0.5);
    expect(reachWeight(RANKING, AGREEMENT_KIND, true)).toBe(1);
    expect(reachWeight(RANKING, "code", false)).toBe(1);
    expect(reachWeight(rankingFrom('{"agreement":0.25}'), AGREEMENT_KIND, false)).toBe(0.25);
  });
});
