import { describe, expect, it } from "vitest";
import {
  assignProvisionIds,
  foldAccents,
  numberKey,
  numberSlug,
  provisionPublicId,
  slugify,
} from "./public-ids.ts";

describe("public ids", () => {
  it("slugs document titles with accents folded", () => {
    expect(slugify("Code de la sécurité sociale")).toBe("code-de-la-securite-sociale");
    expect(slugify("Code des relations entre le public et l'administration")).toBe(
      "code-des-relations-entre-le-public-et-l-administration",
    );
    expect(slugify("Code rural et de la pêche maritime")).toBe("code-rural-et-de-la-peche-maritime");
  });

  it("keeps article numbers readable and URL-safe", () => {
    expect(provisionPublicId("code-du-travail", "L1237-1-1")).toBe("code-du-travail/L1237-1-1");
    expect(numberSlug("L1453-1 A")).toBe("L1453-1-A");
    expect(numberSlug("Annexe à l'article R1422-4")).toBe("Annexe-a-l-article-R1422-4");
    expect(numberSlug("R*11-1")).toBe("R-11-1");
    expect(encodeURIComponent(numberSlug("Annexe I à l'article R4312-1"))).toBe(
      numberSlug("Annexe I à l'article R4312-1"),
    );
  });

  it("matches numbers however a person writes them", () => {
    for (const written of ["L. 1237-1-1", "l1237-1-1", "L 1237-1-1", "L.1237-1-1"]) {
      expect(numberKey(written)).toBe("L1237-1-1");
    }
    // A collective agreement's 3.4 is not its article 34.
    expect(numberKey("3.4")).toBe("3.4");
    expect(numberKey("3. 4")).toBe("3.4");
    expect(numberKey("34")).toBe("34");
    expect(numberKey("1er")).toBe("1ER");
  });

  it("disambiguates repeated numbers after the first, in document order", () => {
    const ids = assignProvisionIds("code-du-travail", [
      { sourceId: "LEGIARTI000038137262", number: "Annexe I" },
      { sourceId: "LEGIARTI000023018849", number: "Annexe I" },
      { sourceId: "LEGIARTI000000000001", number: "L1" },
    ]);
    expect([...ids.values()]).toEqual([
      "code-du-travail/Annexe-I",
      "code-du-travail/Annexe-I~23018849",
      "code-du-travail/L1",
    ]);
  });

  it("never reassigns an id already stored, even if document order changes", () => {
    const existing = new Map([["B", "code/Annexe-I"]]);
    const ids = assignProvisionIds(
      "code",
      [
        { sourceId: "A", number: "Annexe I" },
        { sourceId: "B", number: "Annexe I" },
      ],
      existing,
    );
    expect(ids.get("B")).toBe("code/Annexe-I");
    expect(ids.get("A")).toBe("code/Annexe-I~A");
  });
});

describe("foldAccents, the one fold every module uses", () => {
  it("takes the accents off letters and keeps everything else", () => {
    expect(foldAccents("Congés payés, préavis, ça, œuvre, Île")).toBe(
      "Conges payes, preavis, ca, œuvre, Ile",
    );
    // Spacing characters are not accents: the rules' and the search's folds now agree on them.
    expect(foldAccents("a^b `c´")).toBe("a^b `c´");
  });
});
