import { describe, expect, it } from "vitest";
import { z } from "zod";
import { controlCharacterAt } from "../../core/control-characters.ts";
import { pathParameter, plainMessage } from "./validate.ts";

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

describe("plain messages for validation issues", () => {
  const schema = z
    .object({
      q: z.string().min(1).max(5),
      n: z.coerce.number().int().min(1).max(9),
      when: z.iso.date().optional(),
      kind: z.enum(["added", "repealed"]).optional(),
      list: z.array(z.string()).min(1).max(2).optional(),
      named: z.string().min(3, "is required (at least 3 characters)").optional(),
    })
    .strict();
  const message = (value: unknown) =>
    schema.safeParse(value, { error: plainMessage }).error?.issues[0]?.message;

  it("says what the field must be, whatever went wrong", () => {
    expect(message({ n: 1 })).toBe("is required");
    expect(message({ q: 3, n: 1 })).toBe("must be text");
    expect(message({ q: "", n: 1 })).toBe("must not be empty");
    expect(message({ q: "abcdefg", n: 1 })).toBe("must be at most 5 characters");
    expect(message({ q: "a", n: "abc" })).toBe("must be a number");
    expect(message({ q: "a", n: "1.5" })).toBe("must be a whole number");
    expect(message({ q: "a", n: "0" })).toBe("must be at least 1");
    expect(message({ q: "a", n: "10" })).toBe("must be at most 9");
    expect(message({ q: "a", n: 1, when: "2024-02-30" })).toBe("must be a date, YYYY-MM-DD");
    expect(message({ q: "a", n: 1, kind: "moved" })).toBe("must be one of: added, repealed");
    expect(message({ q: "a", n: 1, list: [] })).toBe("must hold at least 1 value");
    expect(message({ q: "a", n: 1, list: ["a", "b", "c"] })).toBe("must hold at most 2 values");
  });

  it("leaves a schema's own message alone", () => {
    expect(message({ q: "a", n: 1, named: "x" })).toBe("is required (at least 3 characters)");
  });

  it("never lets the validator's own words through", () => {
    for (const value of [{}, { q: 1 }, { q: "a", n: "x" }, { q: "a", n: "1", when: "x", kind: 1 }])
      expect(message(value)).not.toMatch(/expected|received|Too (small|big)|Invalid/);
  });
});
