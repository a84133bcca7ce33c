import { describe, expect, it } from "vitest";
import { controlCharacterAt, pathParameter } from "./validate.ts";

describe("control characters in requests", () => {
  it("names the first field holding one, however deep, and which", () => {
    expect(controlCharacterAt({ q: "congés" })).toBeUndefined();
    expect(controlCharacterAt({ q: "a\u0000b" })).toEqual({ path: ["q"], character: "\u0000" });
    expect(controlCharacterAt({ q: "\u001b[31m" })).toEqual({ path: ["q"], character: "\u001b" });
    expect(controlCharacterAt({ q: "a\u007f" })?.path).toEqual(["q"]);
    expect(controlCharacterAt({ files: [{ name: "a" }, { name: "b", body: "x\u0000" }] })?.path).toEqual([
      "files",
      "1",
      "body",
    ]);
    expect(controlCharacterAt({ limit: 10, flag: true, none: null })).toBeUndefined();
  });

  it("lets tab and line breaks through: a question pasted on several lines", () => {
    expect(controlCharacterAt({ question: "Ligne une\r\nligne deux\tfin" })).toBeUndefined();
  });

  it("refuses a path segment holding one with the segment's name", () => {
    expect(pathParameter("LEGIARTI000006900846", "id")).toBe("LEGIARTI000006900846");
    expect(() => pathParameter("L1\u0000", "number")).toThrow(
      /number: must not contain a control character \(found U\+0000\)/,
    );
    expect(() => pathParameter("L1\u001b", "number")).toThrow(/found U\+001B/);
  });
});
