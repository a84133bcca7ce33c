import { describe, expect, it } from "vitest";
import type { LoadSummary } from "./latency.ts";
import { describeQuery, formatHealth, replaceBetweenMarkers } from "./search-report.ts";

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

describe("formatHealth", () => {
  const summary = (p50Ms: number, p99Ms: number, calls: number) =>
    ({ p50Ms, p99Ms, calls, perSecond: calls / 10 }) satisfies LoadSummary;

  it("shows the bare HTTP server's probes, idle and under load, beside the API's", () => {
    const table = formatHealth({
      idle: summary(2.1, 7.4, 221),
      underLoad: summary(1.9, 8.8, 424),
      load: { summary: summary(218.8, 400, 900), failed: 0, otherWork: 0 },
      bare: { idle: summary(1.5, 4.0, 230), underLoad: summary(1.6, 6.2, 431) },
      failed: 0,
    });
    const rows = table.split("\n").slice(2);
    expect(rows).toHaveLength(4);
    expect(rows[1]).toMatch(/218\.8 ms p50 each.*\| 1\.9 +\| 8\.8 +\| 424/);
    expect(rows[2]).toMatch(/bare HTTP server .*idle +\| 1\.5 +\| 4\.0 +\| 230/);
    expect(rows[3]).toMatch(/bare HTTP server, while the same load runs again +\| 1\.6 +\| 6\.2 +\| 431/);
  });
});
