import { describe, expect, it } from "vitest";
import { describeQuery, replaceBetweenMarkers } from "./search-report.ts";

describe("replaceBetweenMarkers", () => {
  const START = "<!-- s -->";
  const END = "<!-- e -->";

  it("replaces what lies between the markers and keeps them", () => {
    const text = `before\n${START}\nold\n${END}\nafter`;
    const once = replaceBetweenMarkers(text, START, END, "new");
    expect(once).toBe(`before\n${START}\n\nnew\n\n${END}\nafter`);
    expect(replaceBetweenMarkers(once!, START, END, "newer")).toBe(
      `before\n${START}\n\nnewer\n\n${END}\nafter`,
    );
  });

  it("is undefined when a marker is missing or they are out of order", () => {
    expect(replaceBetweenMarkers(`${START} only`, START, END, "x")).toBeUndefined();
    expect(replaceBetweenMarkers(`${END} ${START}`, START, END, "x")).toBeUndefined();
  });
});

describe("describeQuery", () => {
  it("shows a long query's start and its length, and escapes table pipes", () => {
    expect(describeQuery("travail ".repeat(10).trim())).toBe(
      '"travail travail travail travail travail…" (79 chars)',
    );
    expect(describeQuery("a|b")).toBe('"a\\|b" (3 chars)');
  });
});
