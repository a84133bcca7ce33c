import { describe, expect, it } from "vitest";
import { jsonTooDeep, MAX_JSON_DEPTH } from "./json-depth.ts";

const nested = (levels: number) => {
  let value: unknown = "leaf";
  for (let i = 0; i < levels; i++) value = i % 2 ? { body: value } : [value];
  return value;
};

describe("jsonTooDeep", () => {
  it("counts levels of arrays and objects, not of scalars", () => {
    expect(jsonTooDeep("text", 0)).toBe(false);
    expect(jsonTooDeep({ a: 1 }, 1)).toBe(false);
    expect(jsonTooDeep({ a: [1] }, 1)).toBe(true);
    expect(jsonTooDeep(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonTooDeep(nested(MAX_JSON_DEPTH + 1))).toBe(true);
  });

  it("checks 100,000 levels without overflowing the stack", () => {
    const deep = JSON.parse(`${"[".repeat(100_000)}${"]".repeat(100_000)}`);
    expect(jsonTooDeep(deep)).toBe(true);
  });
});
