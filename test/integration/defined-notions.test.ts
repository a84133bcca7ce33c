import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestCanonicalFile } from "../../ingest/load.ts";
import { parseConfig, repoRoot } from "../../services/core/config.ts";
import { provisionsByPublicId } from "../../services/store/index-source.ts";
import { migrate } from "../../services/store/migrate.ts";
import { searchStatisticsDrift } from "../../services/store/search-statistics.ts";
import { ingestInline, lawOf } from "../helpers/inline-acts.ts";
import { openTestStore, STORE_KINDS, type TestStore } from "../helpers/stores.ts";

/**
 * The notion an article defines joins its guides field (migration 013): "the article that
 * defines a notion comes first for that notion". Extracted by the database from the text, so the
 * postings Postgres ranks with and the index documents OpenSearch ranks with hold the same words.
 */
const DEFINITIONS: Array<[string, string]> = [
  [
    "Constitue un licenciement pour motif économique le licenciement effectué par un employeur pour un ou plusieurs motifs non inhérents à la personne du salarié.",
    "licenciement pour motif économique",
  ],
  [
    "Est considéré comme salarié à temps partiel le salarié dont la durée du travail est inférieure à la durée légale.",
    "salarié à temps partiel",
  ],
  [
    "Est considéré comme accident du travail, quelle qu'en soit la cause, l'accident survenu par le fait ou à l'occasion du travail.",
    "accident du travail",
  ],
  [
    "On entend par participation l'influence exercée par l'organe représentant les salariés.",
    "participation",
  ],
  [
    "Est réputé travail dissimulé par dissimulation d'emploi salarié le fait pour tout employeur de se soustraire…",
    "travail dissimulé par dissimulation d'emploi salarié",
  ],
  [
    "Sont considérées comme périodes de travail effectif pour la détermination de la durée du congé : 1° les périodes de congé payé.",
    "périodes de travail effectif",
  ],
  [
    "Constitue une rémunération au sens du présent chapitre, le salaire ou traitement ordinaire de base.",
    "rémunération",
  ],
  // Two definitions, each once.
  [
    "Est considéré comme accident du travail l'accident survenu. Est également considéré comme accident du travail l'accident de trajet. Sont considérées comme maladies professionnelles les maladies…",
    "accident du travail ; maladies professionnelles",
  ],
  // Opening with the notion (migration 019): a genus, a purpose, a designation, an institution.
  [
    "Le contrat d'apprentissage est un contrat de travail de type particulier conclu entre un apprenti et un employeur.",
    "contrat d'apprentissage",
  ],
  [
    "L'intéressement a pour objet d'associer collectivement les salariés aux résultats de l'entreprise.",
    "intéressement",
  ],
  [
    "Le portage salarial désigne l'ensemble organisé constitué par une relation tripartite.",
    "portage salarial",
  ],
  [
    "Un comité social et économique est mis en place dans les entreprises d'au moins onze salariés.",
    "comité social et économique",
  ],
  // An institution by description is not read: its words are other notions' (« …d'accidents du travail »).
  ["Il est institué une surcompensation des prestations d'accidents du travail.", ""],
  // Both kinds in one text, each once.
  [
    "La participation a pour objet de garantir aux salariés le droit de participer aux résultats. On entend par réserve spéciale de participation la somme calculée…",
    "participation ; réserve spéciale de participation",
  ],
  // Which thing it is, with the definite article (migration 030).
  [
    "Le contrat de travail à durée indéterminée est la forme normale et générale de la relation de travail.",
    "contrat de travail à durée indéterminée",
  ],
  [
    "La durée du travail effectif est le temps pendant lequel le salarié est à la disposition de l'employeur.",
    "durée du travail effectif",
  ],
  [
    "Les chemins ruraux sont les chemins appartenant aux communes, affectés à l'usage du public.",
    "chemins ruraux",
  ],
  // Not a list announced, a sameness, a degree, a cause, ownership, an office acting, a relative subject.
  ["Les missions du tuteur sont les suivantes : 1° Accueillir le salarié.", ""],
  ["Les conditions de constitution des unions sont les mêmes que celles des coopératives.", ""],
  ["Le registre est la propriété de l'employeur, qui le conserve.", ""],
  ["L'autorité compétente pour appliquer les sanctions est le préfet de département.", ""],
  ["Le directeur comptable est l'agent de direction chargé des opérations financières.", ""],
  ["Le salaire minimum assure aux salariés dont les rémunérations sont les plus faibles la garantie.", ""],
  [
    "L'absence des cotisations, lorsqu'elle est le fait de la mauvaise foi du bénéficiaire, peut conduire à une sanction.",
    "",
  ],
  // An opening that defines nothing: another verb, an agent acting, a verb in the subject.
  ["Le délai est de deux mois.", ""],
  ["Le comité désigne son président parmi ses membres.", ""],
  ["Le présent chapitre a pour objet de fixer les règles.", ""],
  ["L'Etat peut apporter son concours, qui est une aide, aux entreprises.", ""],
  // Only the opening: a later sentence of the form is a rule about the notion, not its definition.
  ["L'employeur informe le salarié. Le contrat de travail à temps partiel est un contrat écrit.", ""],
  // A benefit the first sentence grants (migration 023), its name ending where its conditions begin.
  [
    "L'assuré a droit à une pension d'invalidité lorsqu'il présente une invalidité réduisant sa capacité de travail.",
    "pension d'invalidité",
  ],
  ["Tout salarié a droit chaque année à un congé payé à la charge de l'employeur.", "congé payé"],
  [
    "Le salarié licencié alors qu'il compte 8 mois d'ancienneté a droit, sauf en cas de faute grave, à une indemnité de licenciement.",
    "indemnité de licenciement",
  ],
  [
    "Toute personne résidant en France mentionnée à l'article L. 751-1 bénéficie d'une allocation de solidarité aux personnes âgées dans les conditions prévues par le présent chapitre.",
    "allocation de solidarité aux personnes âgées",
  ],
  [
    "Pendant une période de seize semaines, l'assurée reçoit une indemnité journalière de repos à condition de cesser tout travail.",
    "indemnité journalière de repos",
  ],
  [
    "Ouvrent droit à la prestation d'accueil du jeune enfant l'enfant à naître et l'enfant né.",
    "prestation d'accueil du jeune enfant",
  ],
  ["La salariée a le droit de bénéficier d'un congé de maternité pendant une période.", "congé de maternité"],
  [
    "L'assurance maladie assure le versement d'indemnités journalières à l'assuré qui se trouve dans l'incapacité physique.",
    "indemnités journalières",
  ],
  // Read strictly (migration 024): the name ends before a verb, a qualifying participle, a
  // relative, « jusqu'à » or the beneficiary; an article numbered « I. - » is read after its number.
  [
    "L'assuré perçoit une rente d'incapacité calculée sur la base de son salaire annuel.",
    "rente d'incapacité",
  ],
  ["Le preneur a droit à une indemnité d'éviction due par le bailleur.", "indemnité d'éviction"],
  [
    "I. - La personne assurée a droit à une pension de réversion jusqu'à l'âge de la retraite.",
    "pension de réversion",
  ],
  ["Les ayants droit ont droit au capital décès et peuvent en demander le versement.", "capital décès"],
  [
    "Le salarié a droit à un régime de retraite complémentaire obligatoire auquel il est affilié.",
    "régime de retraite complémentaire obligatoire",
  ],
  // No benefit in particular, a reference to other texts, or a right granted after the first sentence.
  ["Le salarié a droit à une indemnité.", ""],
  ["Le salarié bénéficie des dispositions applicables aux autres salariés.", ""],
  ["Le salarié a droit au titre de la période d'emploi à une somme forfaitaire.", ""],
  ["L'employeur informe le salarié. Le salarié a droit à une indemnité compensatrice.", ""],
  // A grant in a relative or conditional clause is the condition of another rule (migration 024).
  ["Le salarié qui bénéficie d'un congé de présence parentale ne peut être licencié pendant ce congé.", ""],
  ["Lorsque la victime bénéficie d'un aménagement de peine, une feuille d'accident lui est remise.", ""],
  [
    "L'organisme qui assure le versement de la rémunération des stagiaires est dispensé du versement des cotisations.",
    "",
  ],
  [
    "Les conditions dans lesquelles les militaires ouvrent droit au capital décès sont fixées par décret.",
    "",
  ],
  ["Le crédit d'heures dont bénéficie un membre titulaire peut être reporté.", ""],
  [
    "Tant qu'il bénéficie de l'allocation d'aide au retour à l'emploi, le demandeur d'emploi reste inscrit.",
    "",
  ],
  // …but the main clause still grants when a relative clause qualifies its subject.
  [
    "Toute personne qui perçoit des revenus tirés d'une activité professionnelle a droit à une prime d'activité.",
    "prime d'activité",
  ],
  [
    "Le salarié qui justifie d'une ancienneté d'un an a droit à un congé de formation économique.",
    "congé de formation économique",
  ],
  // What a clause says how to understand (migration 027): « X s'entend de / comme … ».
  [
    "Une période d'astreinte s'entend comme une période pendant laquelle le salarié doit être en mesure d'intervenir.",
    "période d'astreinte",
  ],
  [
    "Pour l'application du présent article, l'activité principale s'entend comme celle dans laquelle l'entreprise emploie le plus de salariés.",
    "activité principale",
  ],
  [
    "La pêche maritime à pied professionnelle, au sens du présent chapitre, s'entend de celle dont l'action vise la vente.",
    "pêche maritime à pied professionnelle",
  ],
  [
    "Le salarié est informé. La marge de distribution visée au premier alinéa s'entend de la différence entre deux prix.",
    "marge de distribution",
  ],
  [
    "Les revenus professionnels s'entendent des bénéfices de l'avant-dernière année.",
    "revenus professionnels",
  ],
  // The subject ends at the clause's first « s'entend »; a word named as a word is that word.
  ["La journée s'entend de la période de jour et la nuit s'entend de la période de nuit.", "journée"],
  [
    'Le terme " agents de direction " s\'entend des directeurs et des agents comptables.',
    "agents de direction",
  ],
  // …not after a condition, nor a subject pointing back, holding a relative, or « présent ».
  ["Si la demande repose sur un motif personnel, l'établissement s'entend comme le lieu de travail.", ""],
  ["La durée maximale hebdomadaire ci-dessus fixée s'entend de toute heure de travail effectif.", ""],
  ["Les sommes qui sont versées s'entendent des primes.", ""],
  ["Le présent chapitre s'entend des règles applicables aux salariés.", ""],
  // Qualities, not notions; and texts that define nothing.
  ["Sont considérés comme ayant la qualité de cadre dirigeant les cadres auxquels…", ""],
  ["Est réputée non écrite toute clause contraire.", ""],
  ["Le salarié peut constituer une réserve.", ""],
  ["L'employeur et le salarié peuvent convenir en commun des conditions de la rupture.", ""],
];

describe.each(STORE_KINDS)("defined notions on %s", (kind) => {
  let store: TestStore;
  const config = parseConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "lc-notions-")) });

  beforeAll(async () => {
    store = await openTestStore(kind, `notions_${kind}`);
  });
  afterAll(async () => {
    await store?.dispose();
  });

  it.each(DEFINITIONS)("%s → « %s »", async (text, notions) => {
    const { rows } = await store.db.query<{ notions: string }>(
      "SELECT corpus_defined_notions($1) AS notions",
      [text],
    );
    expect(rows[0]!.notions).toBe(notions);
  });

  it("put the notion in the guides field of the postings and of the index document, and follow the text", async () => {
    const file = path.join(repoRoot, "test/fixtures/canonical/loi-exemple.json");
    type Node = { article?: string; text?: string; body?: Node[] };
    const canonical = JSON.parse(readFileSync(file, "utf8")) as { documents: Node[] };
    const article = canonical.documents[0]!.body![0]!.body![0]!.body![0]!;
    const edited = path.join(mkdtempSync(path.join(tmpdir(), "lc-notions-doc-")), "loi-exemple.json");
    const ingestWith = async (text: string) => {
      article.text = text;
      writeFileSync(edited, JSON.stringify(canonical));
      await ingestCanonicalFile(store.db, config, edited);
    };
    const guidesPostings = async () =>
      (
        await store.db.query<{ lexeme: string }>(
          `SELECT s.lexeme FROM search_postings s JOIN provisions p ON p.id = s.provision_id
            WHERE p.public_id = 'loi-2016-1088/1' AND s.tf_guides > 0 ORDER BY s.lexeme`,
        )
      ).rows.map((r) => r.lexeme);
    const indexedGuides = async () =>
      (JSON.parse((await provisionsByPublicId(store.db, ["loi-2016-1088/1"]))[0]!.json) as { guides: string })
        .guides;

    await ingestWith(
      "Constitue un congé zygomatique le congé pris par le salarié pour rire. Il dure un jour.",
    );
    expect(await guidesPostings()).toEqual(["cong", "zygomat"]);
    expect(await indexedGuides()).toBe("congé zygomatique");
    expect(await searchStatisticsDrift(store.db)).toMatchObject({ missingPostings: 0, extraPostings: 0 });

    await ingestWith("Le salarié peut prendre un congé zygomatique pour rire.");
    expect(await guidesPostings()).toEqual([]);
    expect(await indexedGuides()).toBe("");
    expect(await searchStatisticsDrift(store.db)).toMatchObject({ missingPostings: 0, extraPostings: 0 });
  });
});

/** Migrations that read notions in more texts: each on a store written at the one before. */
const UPGRADES = [
  {
    migration: "027",
    file: "027.do.understood-notions.sql",
    database: "notions_upgrade",
    reads: "the provisions saying how to understand one",
    texts: [
      "Une période d'astreinte s'entend comme une période pendant laquelle le salarié intervient.",
      "Le salarié est informé de son astreinte.",
    ],
  },
  {
    migration: "030",
    file: "030.do.definite-definitions.sql",
    database: "definite_upgrade",
    reads: "the provisions saying which thing it is",
    texts: [
      "La période d'astreinte est la période pendant laquelle le salarié intervient.",
      "Les périodes d'astreinte sont les suivantes : 1° la nuit.",
    ],
  },
];

describe.each(UPGRADES.flatMap((upgrade) => STORE_KINDS.map((kind) => ({ ...upgrade, kind }))))(
  "a $kind store written before migration $migration",
  ({ migration, file, database, reads, texts, kind }) => {
    let store: TestStore;

    beforeAll(async () => {
      const before = String(Number(migration) - 1).padStart(3, "0");
      store = await openTestStore(kind, `${database}_${kind}`, before);
      await ingestInline(store.db, [
        lawOf("UNDERSTOOD", "code-des-notions", "Code des notions", [
          ["L1", texts[0]!],
          ["L2", texts[1]!],
        ]),
      ]);
    });
    afterAll(async () => {
      await store?.dispose();
    });

    it(`reads the notion of ${reads}, indexes them again, and keeps the statistics`, async () => {
      const guidesLexemes = async (number: string) =>
        (
          await store.db.query<{ lexeme: string }>(
            `SELECT s.lexeme FROM search_postings s JOIN provisions p ON p.id = s.provision_id
            WHERE p.number = $1 AND s.tf_guides > 0 ORDER BY s.lexeme`,
            [number],
          )
        ).rows.map((r) => r.lexeme);
      const generation = async () =>
        Number(
          (await store.db.query<{ value: string }>("SELECT value FROM search_generation")).rows[0]!.value,
        );
      expect(await guidesLexemes("L1")).toEqual([]);
      await store.db.query("UPDATE search_outbox SET indexed_at = now() WHERE indexed_at IS NULL");
      const before = await generation();

      expect((await migrate(store.db, migration)).map((f) => path.basename(f))).toEqual([file]);

      expect(await guidesLexemes("L1")).toEqual(["astreint", "period"]);
      expect(await guidesLexemes("L2")).toEqual([]);
      expect(await generation()).toBeGreaterThan(before);
      const queued = await store.db.query<{ public_id: string }>(
        "SELECT public_id FROM search_outbox WHERE indexed_at IS NULL ORDER BY public_id",
      );
      expect(queued.rows.map((r) => r.public_id)).toEqual(["code-des-notions/L1"]);
      expect(await searchStatisticsDrift(store.db)).toMatchObject({
        missingPostings: 0,
        extraPostings: 0,
        wrongFrequencies: 0,
        wrongTotals: false,
      });
    });
  },
);
