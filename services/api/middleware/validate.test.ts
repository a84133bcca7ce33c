import { describe, expect, it } from "vitest";
import { nulCharacterAt, pathParameter } from "./validate.ts";

describe("NUL characters in requests", () => {
  it("names the first field holding U+0000, however deep", () => {
    expect(nulCharacterAt({ q: "congés" })).toBeUndefined();
    expect(nulCharacterAt({ q: "a\u0000b" })).toEqual(["q"]);
    expect(nulCharacterAt({ files: [{ name: "a" }, { name: "b", body: "x\u0000" }] })).toEqual([
      "files",
      "1",
      "body",
    ]);
    expect(nulCharacterAt({ limit: 10, flag: true, none: null })).toBeUndefined();
  });

  it("refuses a path segment holding U+0000 with the segment's name", () => {
    expect(pathParameter("LEGIARTI000006900846", "id")).toBe("LEGIARTI000006900846");
    expect(() => pathParameter("L1\u0000", "number")).toThrow(/number: must not contain a NUL/);
  });
});
