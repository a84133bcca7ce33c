import { describe, expect, it } from "vitest";
import { MAX_SEARCH_OFFSET } from "../corpus/search.ts";
import type { SearchHit } from "../search/engine.ts";
import type { SearchOutcome } from "../search/service.ts";
import { presentSearch } from "./search.ts";

const hit = (n: number): SearchHit => ({
  publicId: `code-du-travail/L${n}`,
  number: `L${n}`,
  document: { publicId: "code-du-travail", title: "Code du travail" },
  sectionPath: [],
  snippet: "",
  status: "in_force",
  effectiveFrom: null,
  effectiveTo: null,
  inForceFrom: null,
  inForceTo: null,
  domains: ["labour"],
  score: 1,
});
const meta = { coverage_note: "", coverage_url: "", request_id: "r" };
const outcome = (count: number, total: number): SearchOutcome => ({
  hits: Array.from({ length: count }, (_, i) => hit(i)),
  total,
  filterMode: "exact",
  filter: { domains: null, restrictedByKey: false },
});
const nextOffset = (offset: number, limit: number, count: number, total: number) =>
  presentSearch(outcome(count, total), { limit, offset }, meta).pagination.next_offset;

describe("presentSearch pagination", () => {
  it("points to the next page while there is one", () => {
    expect(nextOffset(0, 10, 10, 25)).toBe(10);
    expect(nextOffset(20, 10, 5, 25)).toBeNull();
    expect(nextOffset(30, 10, 0, 25)).toBeNull();
  });

  it("is null where the next page is one the API refuses (offset over its limit)", () => {
    // /search?q=travail&offset=1000&limit=50 once said next_offset 1050.
    expect(nextOffset(MAX_SEARCH_OFFSET, 50, 50, 8000)).toBeNull();
    expect(nextOffset(MAX_SEARCH_OFFSET - 50, 50, 50, 8000)).toBe(MAX_SEARCH_OFFSET);
    expect(nextOffset(MAX_SEARCH_OFFSET - 10, 50, 50, 8000)).toBeNull();
  });
});
