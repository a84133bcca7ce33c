import { describe, expect, it } from "vitest";
import { InputError } from "../core/errors.ts";
import { rankingFrom } from "./ranking.ts";

describe("rankingFrom", () => {
  it("keeps the model's constants unless SEARCH_RANKING overrides some", () => {
    expect(rankingFrom(undefined).k1).toBe(1.2);
    const ranking = rankingFrom('{"authority":0,"fields":{"guides":2}}');
    expect(ranking).toMatchObject({
      authority: 0,
      legislative: 0.1,
      fields: { text: 1, headings: 2, guides: 2 },
    });
  });

  it("refuses an unknown or out-of-range constant, naming the variable", () => {
    for (const bad of ['{"b":2}', '{"boost":1}', "not json"])
      expect(() => rankingFrom(bad), bad).toThrow(InputError);
    expect(() => rankingFrom('{"b":2}')).toThrow(/SEARCH_RANKING/);
  });
});
