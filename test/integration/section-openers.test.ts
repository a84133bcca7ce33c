import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { provisionsByPublicId } from "../../services/store/index-source.ts";
import { refreshSearchAuthority } from "../../services/store/search-authority.ts";
import { readIndexedProvisions, readSearchGeneration } from "../../services/store/search-snapshot.ts";
import { ingestInline } from "../helpers/inline-acts.ts";
import { openTestStore, STORE_KINDS, type TestStore } from "../helpers/stores.ts";

/**
 * The article opening its division (migration 020, refreshSearchAuthority): the first in force,
 * in the document's order, of the provisions sharing its section, recomputed after every ingest
 * run, since an article inserted or repealed changes which one opens its division. What the
 * in-memory model, Postgres's SQL and the index documents read. Within a division of special
 * rules (derogations, exceptions, particular, penal or transitional provisions) no article opens;
 * an article stating only where or to whom its division applies (migration 021) opens none either,
 * unless it goes on to define a notion (migration 028).
 */
type Article = [number: string, section: string | null, status?: "in_force" | "repealed", text?: string];

const act = (articles: Article[]) => ({
  source: { name: "canonical", documentId: "OPENERS", version: null },
  publicId: "loi-ouvertures",
  kind: "law" as const,
  title: "Loi sur les ouvertures",
  jurisdiction: "FR",
  status: "in_force" as const,
  effectiveFrom: "2020-01-01",
  effectiveTo: null,
  sections: [
    { id: "S1", parentId: null, title: "Chapitre Ier : Principe" },
    { id: "S2", parentId: null, title: "Chapitre II : Modalités" },
    // Special rules: every division within opens with a special case.
    { id: "S3", parentId: null, title: "Chapitre III : Dérogations" },
    { id: "S4", parentId: "S3", title: "Section 1 : Industries saisonnières" },
    { id: "S5", parentId: null, title: "Chapitre IV : Comité" },
  ],
  provisions: articles.map(([number, sectionId, status = "in_force", text]) => ({
    sourceId: `OPENERS-${number}`,
    versionId: `OPENERS-${number}-v1`,
    number,
    text: text ?? `L'article ${number} dispose de la règle numéro ${number}.`,
    status,
    effectiveFrom: "2020-01-01",
    effectiveTo: status === "repealed" ? "2022-01-01" : null,
    sectionId,
  })),
});

/** The next run: 2-1 inserted first in S1, 6 repealed in S2. */
const NEXT_RUN: Article[] = [
  ["1", null],
  ["2", null],
  ["2-1", "S1"],
  ["3", "S1"],
  ["4", "S1"],
  ["5", "S2", "repealed"],
  ["6", "S2", "repealed"],
  ["7", "S2"],
  ["8", "S4"],
  ["9", "S4"],
];

describe.each(STORE_KINDS)("articles opening their division on %s", (kind) => {
  let store: TestStore;
  const load = (articles: Article[]) => ingestInline(store.db, [act(articles)]);
  /** The openers, as the in-memory model reads them. */
  const openers = async () => {
    const open: string[] = [];
    for await (const batch of readIndexedProvisions(store.db))
      for (const p of batch) if (p.opensSection) open.push(p.publicId.replace("loi-ouvertures/", ""));
    return open.sort();
  };

  /** What is stored, beside what every document's recomputation gives (the functions without argument). */
  const storedAndFull = async () => {
    const q = async (sql: string) => (await store.db.query<{ v: string }>(sql)).rows.map((r) => r.v).sort();
    return {
      stored: {
        openers: await q(
          "SELECT p.public_id AS v FROM search_authority a JOIN provisions p ON p.id = a.provision_id WHERE a.opens_section",
        ),
        names: await q(
          "SELECT public_id || ' ' || array_to_string(opened_divisions, '|') AS v FROM provisions WHERE opened_divisions <> '{}'",
        ),
      },
      full: {
        openers: await q(
          "SELECT p.public_id AS v FROM corpus_section_openers() o JOIN provisions p ON p.id = o.provision_id",
        ),
        names: await q(
          "SELECT p.public_id || ' ' || array_to_string(o.names, '|') AS v FROM corpus_opened_divisions() o JOIN provisions p ON p.id = o.provision_id",
        ),
      },
    };
  };

  beforeAll(async () => {
    store = await openTestStore(kind, `openers_${kind}`);
  });
  afterAll(async () => {
    await store?.dispose();
  });

  it("marks the first article in force of each section, and of the document's top level", async () => {
    await load([
      ["1", null],
      ["2", null],
      ["3", "S1"],
      ["4", "S1"],
      ["5", "S2", "repealed"],
      ["6", "S2"],
      ["7", "S2"],
      ["8", "S4"],
      ["9", "S4"],
    ]);
    expect(await openers()).toEqual(["1", "3", "6"]);
    // The index documents carry it for OpenSearch and Elasticsearch.
    // (In no particular order: an opener's row is written again with its division's name.)
    const documents = await provisionsByPublicId(store.db, ["loi-ouvertures/3", "loi-ouvertures/4"]);
    const json = (id: string) => JSON.parse(documents.find((d) => d.id === id)!.json);
    expect(json("loi-ouvertures/3")).toMatchObject({ opens_section: true, opened_divisions: ["Principe"] });
    expect(json("loi-ouvertures/4")).toMatchObject({ opens_section: false, opened_divisions: [] });
  });

  it("follows the next run: an article inserted first opens its section, one repealed no longer does", async () => {
    const generation = await readSearchGeneration(store.db);
    const before = await provisionsByPublicId(store.db, ["loi-ouvertures/3"]);
    await load(NEXT_RUN);
    expect(await openers()).toEqual(["1", "2-1", "7"]);
    // What search reads moved: the in-memory copy is rebuilt, the index document is stale.
    expect(await readSearchGeneration(store.db)).not.toBe(generation);
    const after = await provisionsByPublicId(store.db, ["loi-ouvertures/3"]);
    expect(JSON.parse(after[0]!.json).content_hash).not.toBe(JSON.parse(before[0]!.json).content_hash);
  });

  it("reads a division of special rules from any heading of the path", async () => {
    const special = async (path: string[]) =>
      (
        await store.db.query<{ special: boolean }>("SELECT corpus_special_division($1::text[]) AS special", [
          path,
        ])
      ).rows[0]!.special;
    for (const heading of [
      "Section 2 : Dérogations",
      "Sous-section 1 : Dérogations au repos hebdomadaire",
      "Chapitre V : Dispositions particulières à certaines catégories de salariés",
      "Titre VI : Dispositions pénales",
      "Chapitre III : Dispositions spécifiques aux jeunes travailleurs",
      "Section 4 : Règles spéciales",
      "DISPOSITIONS PÉNALES",
      "Chapitre X : Dispositions transitoires",
      "Section 2 : Exceptions",
      "Chapitre IV : Régimes particuliers",
    ])
      expect(await special(["Partie législative", heading, "Paragraphe 1 : Champ"]), heading).toBe(true);
    for (const heading of [
      "Section 3 : Rupture conventionnelle.",
      "Chapitre II : Repos hebdomadaire",
      "Section 1 : Principes.",
      "Chapitre Ier : Champ d'application.",
      "Section 11 : Exposition exceptionnelle",
    ])
      expect(await special(["Partie législative", heading]), heading).toBe(false);
    // A part's heading makes no division special (migration 031): the Code du travail's seventh
    // part gathers whole professions' regimes, each opening with its rule.
    const seventh = "Septième partie : Dispositions particulières à certaines professions et activités";
    expect(
      await special(["Partie législative", seventh, "Titre Ier : Voyageurs, représentants ou placiers"]),
    ).toBe(false);
    expect(await special(["Partie législative", seventh, "Chapitre IV : Dispositions pénales"])).toBe(true);
  });

  it("changes nothing when the same snapshot is loaded again", async () => {
    const generation = await readSearchGeneration(store.db);
    await load(NEXT_RUN);
    expect(await openers()).toEqual(["1", "2-1", "7"]);
    expect(await readSearchGeneration(store.db)).toBe(generation);
  });

  it("passes over an article stating only its division's scope: the next one opens it", async () => {
    await load([
      ...NEXT_RUN,
      [
        "10",
        "S5",
        "in_force",
        "Les dispositions du présent chapitre sont applicables aux employeurs de droit privé.",
      ],
      ["11", "S5", "in_force", "Un comité est mis en place dans les entreprises d'au moins onze salariés."],
    ]);
    expect(await openers()).toEqual(["1", "11", "2-1", "7"]);
    const scope = async (text: string) =>
      (await store.db.query<{ scope: boolean }>("SELECT corpus_scope_clause($1) AS scope", [text])).rows[0]!
        .scope;
    for (const text of [
      "Les dispositions du présent titre sont applicables aux employeurs de droit privé ainsi qu'à leurs salariés.",
      "Le présent chapitre s'applique aux entreprises de travail temporaire.",
      "Les dispositions de la présente section ne sont pas applicables aux rapports entre un employeur et son salarié.",
      "La présente sous-section est applicable aux salariés détachés. Elle fixe les règles suivantes.",
    ])
      expect(await scope(text), text).toBe(true);
    for (const text of [
      // A rule that names its division, or a scope stated later than its first sentence.
      "Le salarié bénéficie des garanties prévues au présent chapitre.",
      "Le contrat de travail est soumis aux règles du droit commun. Le présent chapitre est applicable à tous.",
      "Les dispositions applicables aux salariés sont fixées par décret.",
      // A scope, then the division's rule: a notion defined (migration 028, L461-1 CSS).
      "Les dispositions du présent livre sont applicables aux maladies d'origine professionnelle. Est présumée d'origine professionnelle toute maladie désignée dans un tableau.",
      "Le présent chapitre s'applique aux entreprises. On entend par travail de nuit tout travail accompli entre 21 heures et 6 heures.",
    ])
      expect(await scope(text), text).toBe(false);
  });

  it("lets an article stating its division's scope and then defining a notion open the division", async () => {
    await load([
      ...NEXT_RUN,
      [
        "10",
        "S5",
        "in_force",
        "Les dispositions du présent chapitre sont applicables aux comités. Est considéré comme comité l'organe élu par les salariés.",
      ],
      ["11", "S5", "in_force", "Un comité est mis en place dans les entreprises d'au moins onze salariés."],
    ]);
    expect(await openers()).toEqual(["1", "10", "2-1", "7"]);
  });

  it("recomputes only the documents written since the last refresh (migration 032), as recomputing all of them would", async () => {
    const neighbour = {
      ...act([
        ["1", "S1"],
        ["2", "S1"],
        ["3", "S2"],
      ]),
      source: { name: "canonical", documentId: "NEIGHBOUR", version: null },
      publicId: "loi-voisine",
      title: "Loi voisine",
    };
    neighbour.provisions = neighbour.provisions.map((p) => ({
      ...p,
      sourceId: p.sourceId.replace("OPENERS", "NEIGHBOUR"),
      versionId: p.versionId.replace("OPENERS", "NEIGHBOUR"),
    }));
    /** The first act's openers (the neighbour's keep their prefix). */
    const firstAct = async () => (await openers()).filter((id) => !id.includes("/"));
    const mine = await firstAct();
    await ingestInline(store.db, [neighbour]);
    expect(await firstAct()).toEqual(mine);
    let state = await storedAndFull();
    expect(state.stored).toEqual(state.full);
    expect(state.stored.openers).toEqual(expect.arrayContaining(["loi-voisine/1", "loi-voisine/3"]));
    expect(state.stored.names).toContain("loi-voisine/1 Principe");

    // Break the first act's priors by hand: a run writing only the neighbour leaves them alone,
    // since nothing it wrote can change them; a run writing the first act mends them.
    await store.db.query(
      "UPDATE search_authority SET opens_section = false WHERE provision_id = (SELECT id FROM provisions WHERE public_id = 'loi-ouvertures/1')",
    );
    await ingestInline(store.db, [{ ...neighbour, title: "Loi voisine, modifiée" }]);
    expect(await firstAct()).not.toContain("1");
    await load(NEXT_RUN);
    expect(await firstAct()).toEqual(["1", "2-1", "7"]);
    state = await storedAndFull();
    expect(state.stored).toEqual(state.full);

    // A writer whose transaction committed and whose refresh never ran (an ingest worker killed
    // between the two): the document stays listed, and the next run's refresh mends it although
    // that run writes nothing of it (re-ingesting the same act finds it unchanged).
    await store.db.query(
      "UPDATE provisions SET status = 'repealed', effective_to = '2022-01-01' WHERE public_id = 'loi-ouvertures/2-1'",
    );
    expect(
      (
        await store.db.query(
          "SELECT 1 FROM search_priors_pending p JOIN documents d ON d.id = p.document_id WHERE d.public_id = 'loi-ouvertures'",
        )
      ).rows,
    ).toHaveLength(1);
    expect(await firstAct()).toEqual(["1", "2-1", "7"]);
    const summary = await load(NEXT_RUN);
    expect(summary.documents.unchanged).toBe(1);
    expect(await firstAct()).toEqual(["1", "3", "7"]);
    state = await storedAndFull();
    expect(state.stored).toEqual(state.full);
    // A refresh takes the list; the names it writes list nothing again.
    expect((await store.db.query("SELECT 1 FROM search_priors_pending")).rows).toHaveLength(0);
  });

  it.runIf(kind === "postgres")(
    "lets a refresh wait for a writer that holds its document listed, then read what it wrote",
    async () => {
      // A writer's transaction, left open: its provision written, its document listed.
      let commit = () => {};
      const committed = new Promise<void>((resolve) => {
        commit = resolve;
      });
      let listed = () => {};
      const isListed = new Promise<void>((resolve) => {
        listed = resolve;
      });
      const writer = store.db.transaction(async (tx) => {
        await tx.query(
          "UPDATE provisions SET status = 'repealed', effective_to = '2022-01-01' WHERE public_id = 'loi-ouvertures/3'",
        );
        listed();
        await committed;
      });
      await isListed;
      let refreshed = false;
      const refresh = store.db
        .transaction((tx) => refreshSearchAuthority(tx, false))
        .then((ids) => {
          refreshed = true;
          return ids;
        });
      await new Promise((resolve) => setTimeout(resolve, 300));
      // The refresh waits on the search generation's row, which the writer holds.
      expect(refreshed).toBe(false);
      commit();
      await writer;
      await refresh;
      // It read the committed row: 3 no longer opens « Chapitre Ier », 4 does.
      expect(await openers()).toContain("4");
      const state = await storedAndFull();
      expect(state.stored).toEqual(state.full);
      expect((await store.db.query("SELECT 1 FROM search_priors_pending")).rows).toHaveLength(0);
    },
  );
});
