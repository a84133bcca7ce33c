import { describe, expect, it } from "vitest";
import {
  MAX_QUERY_LENGTH,
  QUERY_KINDS,
  queryListProblems,
  repeatWithin,
  SEARCH_QUERIES,
  SIXTY_COMMON_WORDS,
  wordCount,
} from "./search-queries.ts";

describe("bench:search query lists", () => {
  it("keep to their kinds: sizes, words per question, lengths", () => {
    expect(queryListProblems(SEARCH_QUERIES)).toEqual([]);
  });

  it("hold 30–60 queries of each short kind, every long one within the API's limit", () => {
    for (const kind of ["keywords", "articles", "questions"] as const)
      expect(SEARCH_QUERIES[kind].length).toBeGreaterThanOrEqual(30);
    for (const { q } of SEARCH_QUERIES.long) expect(q.length).toBeLessThanOrEqual(MAX_QUERY_LENGTH);
  });

  it("include a repeated common word and sixty distinct common words among the long queries", () => {
    const long = SEARCH_QUERIES.long.map((query) => query.q);
    expect(long).toContain(repeatWithin(["travail"], MAX_QUERY_LENGTH));
    expect(new Set(SIXTY_COMMON_WORDS).size).toBe(60);
    expect(long).toContain(SIXTY_COMMON_WORDS.join(" "));
  });

  it("reports what is wrong, one line per fault", () => {
    const lists = Object.fromEntries(
      QUERY_KINDS.map((kind) => [kind, [...SEARCH_QUERIES[kind]]]),
    ) as typeof SEARCH_QUERIES;
    lists.questions = [...lists.questions.slice(1), { q: "Trop court ?" }];
    lists.long = [...lists.long.slice(1), { q: "x".repeat(MAX_QUERY_LENGTH + 1) }];
    lists.keywords = lists.keywords.slice(0, 29);
    expect(queryListProblems(lists)).toEqual([
      "keywords: 29 queries, not 30–60",
      `long: "${"x".repeat(60)}" is 501 characters, not 1–500`,
      'questions: "Trop court ?" has 2 words, not 8–15',
    ]);
  });
});

describe("wordCount", () => {
  it("counts hyphenated and elided words once and punctuation not at all", () => {
    expect(
      wordCount("Un salarié en congé parental d'éducation peut-il être licencié pendant son congé ?"),
    ).toBe(12);
    expect(wordCount("  ?  ")).toBe(0);
  });
});

describe("repeatWithin", () => {
  it("repeats the words in turn up to the limit, never beyond", () => {
    expect(repeatWithin(["ab", "c"], 10)).toBe("ab c ab c");
    expect(repeatWithin(["travail"], 500)).toHaveLength(495);
    expect(repeatWithin(["toolong"], 3)).toBe("");
  });
});
