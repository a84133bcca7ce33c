import { describe, expect, it } from "vitest";
import type { CanonicalProvision, CanonicalVersion } from "../model.ts";
import {
  againstStored,
  amendingAct,
  type DocumentContext,
  historyEvents,
  vanishedEvent,
  withRenumbering,
} from "./derive-changes.ts";

const ctx: DocumentContext & { provisionId: number } = {
  provisionId: 7,
  documentId: 1,
  sourceVersion: "@socialgouv/legi-data@2.513.0",
  runId: 3,
  snapshotDate: "2026-03-27",
  previousSnapshotDate: "2023-02-17",
};

const version = (
  versionId: string,
  from: string | null,
  to: string | null,
  extra: Partial<CanonicalVersion> = {},
) =>
  ({
    versionId,
    label: null,
    status: "superseded",
    sourceStatus: "MODIFIE",
    effectiveFrom: from,
    effectiveTo: to,
    text: null,
    repealedOn: null,
    ...extra,
  }) satisfies CanonicalVersion;

const provision = (
  versions: CanonicalVersion[],
  extra: Partial<CanonicalProvision> = {},
): CanonicalProvision => ({
  sourceId: "LEGIARTI000000000001",
  versionId: versions.at(-1)!.versionId,
  number: "L1234-5",
  text: "Texte.",
  html: null,
  notes: null,
  heading: null,
  status: "in_force",
  sourceStatus: "VIGUEUR",
  effectiveFrom: versions.at(-1)!.effectiveFrom,
  effectiveTo: versions.at(-1)!.effectiveTo,
  sectionId: null,
  versions,
  links: [],
  ...extra,
});

const summary = (events: ReturnType<typeof historyEvents>) =>
  events.map((e) => [e.kind, e.effectiveOn, e.versionBefore, e.versionAfter]);

describe("historyEvents", () => {
  it("first version added, later ones amended, in date order whatever the source order", () => {
    const p = provision([version("v2", "2015-01-01", null), version("v1", "2010-01-01", "2015-01-01")]);
    expect(summary(historyEvents(p, ctx))).toEqual([
      ["added", "2010-01-01", null, "v1"],
      ["amended", "2015-01-01", "v1", "v2"],
    ]);
  });

  it("skips versions that never took effect (LEGI's mort-né)", () => {
    const p = provision([
      version("v1", "2010-01-01", "2012-01-01"),
      version("stillborn", "2012-01-01", "2012-01-01", { sourceStatus: "MODIFIE_MORT_NE" }),
      version("v2", "2012-01-01", null),
    ]);
    expect(summary(historyEvents(p, ctx))).toEqual([
      ["added", "2010-01-01", null, "v1"],
      ["amended", "2012-01-01", "v1", "v2"],
    ]);
  });

  it("records a repeal on its date, even a scheduled one, and a later version as added again", () => {
    const p = provision([
      version("v1", "2000-01-01", "2005-06-01", { repealedOn: "2005-06-01" }),
      version("v2", "2019-01-01", "2030-01-01", { repealedOn: "2030-01-01" }),
    ]);
    expect(summary(historyEvents(p, ctx))).toEqual([
      ["added", "2000-01-01", null, "v1"],
      ["repealed", "2005-06-01", "v1", null],
      ["added", "2019-01-01", null, "v2"],
      ["repealed", "2030-01-01", "v2", null],
    ]);
  });

  it("keys events on the legal event, so the same history gives the same keys in any run", () => {
    const p = provision([version("v1", "2010-01-01", null)]);
    const first = historyEvents(p, ctx).map((e) => e.key);
    expect(historyEvents(p, { ...ctx, runId: 99, sourceVersion: "other" }).map((e) => e.key)).toEqual(first);
    expect(first).toEqual(["p7:added:v1"]);
  });

  it("names the amending act effective that day, preferring a link of the matching kind", () => {
    const links = [
      {
        actId: "JORFTEXT1",
        actTitle: "Décret n° 1\\n du 2 mai",
        actKind: "DECRET",
        relation: "CITATION",
        direction: "amended_by" as const,
        actArticleId: null,
        actArticleNumber: null,
        publishedOn: "2015-01-01",
        signedOn: null,
        effectiveOn: "2015-01-01",
      },
      {
        actId: "JORFTEXT2",
        actTitle: "LOI n°2014-2\\n du 1 déc",
        actKind: "LOI",
        relation: "MODIFIE",
        direction: "amended_by" as const,
        actArticleId: null,
        actArticleNumber: null,
        publishedOn: null,
        signedOn: "2014-12-01",
        effectiveOn: "2015-01-01",
      },
    ];
    expect(amendingAct(links, "amended", "2015-01-01")).toEqual({
      id: "JORFTEXT2",
      title: "LOI n°2014-2\\n du 1 déc".replace(/\s+/g, " "),
      date: "2014-12-01",
    });
    expect(amendingAct(links, "amended", "2016-01-01")).toBeNull();
  });
});

describe("snapshot comparison", () => {
  it("a vanished provision is repealed within the window between the two snapshots", () => {
    const event = vanishedEvent({ provisionId: 7, versionId: "v2", number: "L1234-5" }, ctx);
    expect(event).toMatchObject({
      key: "p7:repealed:v2",
      kind: "repealed",
      effectiveOn: null,
      effectiveAfter: "2023-02-17",
      effectiveBy: "2026-03-27",
      listedOn: "2026-03-27",
      origin: "snapshot_comparison",
    });
  });

  it("a renumbering rides on the new version's event, or is an amendment of its own", () => {
    const p = provision([version("v1", "2010-01-01", "2015-01-01"), version("v2", "2015-01-01", null)], {
      number: "L1234-6",
    });
    const withNewVersion = withRenumbering(
      historyEvents(p, ctx),
      p,
      { number: "L1234-5", versionId: "v1" },
      ctx,
    );
    expect(withNewVersion.filter((e) => e.numberBefore)).toMatchObject([
      { versionAfter: "v2", numberBefore: "L1234-5" },
    ]);
    const sameVersion = withRenumbering(
      historyEvents(p, ctx),
      p,
      { number: "L1234-5", versionId: "v2" },
      ctx,
    );
    expect(sameVersion.at(-1)).toMatchObject({
      kind: "amended",
      numberBefore: "L1234-5",
      numberAfter: "L1234-6",
      origin: "snapshot_comparison",
    });
    // The same number written another way is not a renumbering.
    expect(
      withRenumbering([], { ...p, number: "L. 1234-6" }, { number: "L1234-6", versionId: "v2" }, ctx),
    ).toEqual([]);
  });
});

describe("againstStored: snapshots that give the current version only (KALI)", () => {
  const current = provision([version("v2", "2026-05-01", null)], {
    links: [
      {
        actId: "KALITEXT1",
        actTitle: "Avenant n° 49",
        actKind: "Avenant",
        relation: "MODIFIE",
        direction: "amended_by",
        actArticleId: null,
        actArticleNumber: null,
        publishedOn: "2026-04-01",
        signedOn: null,
        effectiveOn: "2026-05-01",
      },
    ],
  });

  it("turns a stored provision's new version into an amendment from the stored one", () => {
    const events = againstStored(
      historyEvents(current, ctx),
      current,
      { versionId: "v1", presentInSource: true },
      ctx,
    );
    expect(summary(events)).toEqual([["amended", "2026-05-01", "v1", "v2"]]);
    expect(events[0]!.key).toBe("p7:amended:v2");
    expect(events[0]!.act).toEqual({ id: "KALITEXT1", title: "Avenant n° 49", date: "2026-04-01" });
  });

  it("leaves history alone when it lists the stored version (LEGI) or nothing changed", () => {
    const legi = provision([version("v1", "2010-01-01", "2026-05-01"), version("v2", "2026-05-01", null)]);
    const history = historyEvents(legi, ctx);
    expect(againstStored(history, legi, { versionId: "v1", presentInSource: true }, ctx)).toBe(history);
    const same = historyEvents(current, ctx);
    expect(againstStored(same, current, { versionId: "v2", presentInSource: true }, ctx)).toBe(same);
  });

  it("keeps an `added` for a provision an earlier snapshot had dropped", () => {
    const events = againstStored(
      historyEvents(current, ctx),
      current,
      { versionId: "v1", presentInSource: false },
      ctx,
    );
    expect(summary(events)).toEqual([["added", "2026-05-01", null, "v2"]]);
  });

  it("dates an undated new provision between the two snapshots, as a vanished one is", () => {
    const undated = provision([version("v9", null, null)]);
    const [event] = againstStored(historyEvents(undated, ctx), undated, undefined, ctx);
    expect(event).toMatchObject({
      kind: "added",
      effectiveOn: null,
      effectiveAfter: "2023-02-17",
      effectiveBy: "2026-03-27",
      listedOn: "2026-03-27",
      origin: "snapshot_comparison",
    });
    // On a document's first load there is no window: the snapshot is all there is.
    const first = { ...ctx, previousSnapshotDate: null };
    expect(againstStored(historyEvents(undated, first), undated, undefined, first)[0]!.origin).toBe(
      "source_history",
    );
  });
});
