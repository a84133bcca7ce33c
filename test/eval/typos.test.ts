import { describe, expect, it } from "vitest";
import { withSlip, withTypos } from "./typos.ts";

describe("typo sets", () => {
  it("makes one slip, in one word of six letters or more, the same in every run", () => {
    const query = "Un salarié en congé parental peut-il être licencié ?";
    const slipped = withSlip(query)!;
    expect(withSlip(query)).toBe(slipped);
    const before = query.split(" ");
    const after = slipped.split(" ");
    expect(after).toHaveLength(before.length);
    const changed = before.flatMap((w, i) => (w === after[i] ? [] : [{ word: w, typed: after[i]! }]));
    expect(changed).toHaveLength(1);
    const { word, typed } = changed[0]!;
    expect(["salarié", "parental", "licencié"]).toContain(word);
    // Same first letter, one letter more or less at most.
    expect(typed[0]).toBe(word[0]);
    expect(Math.abs([...typed].length - [...word].length)).toBeLessThanOrEqual(1);
  });

  it("leaves out queries with no word to slip, and names the set apart", () => {
    expect(withSlip("Le CDD et le CDI")).toBeUndefined();
    const set = withTypos({
      name: "x@1.0.0",
      description: "d",
      queries: [
        { query: "Le CDD et le CDI", relevant: ["a"], guide: "g" },
        { query: "Rupture conventionnelle", relevant: ["b"], guide: "g" },
      ],
    });
    expect(set.name).toBe("x-typos@1.0.0");
    expect(set.queries).toHaveLength(1);
    expect(set.queries[0]!.relevant).toEqual(["b"]);
    expect(set.queries[0]!.query).not.toBe("Rupture conventionnelle");
  });
});
