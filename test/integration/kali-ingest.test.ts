import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestKali, type KaliIngestSummary } from "../../ingest/load.ts";
import { type KaliSnapshot, resolveKaliSnapshot } from "../../ingest/sources/kali/snapshot.ts";
import { createKey } from "../../services/access/keys.ts";
import { InputError } from "../../services/core/errors.ts";
import { withChangesDelivered } from "../../services/jobs/change-log-job.ts";
import { type ApiResponse, call, expectEnvelope, startTestApi, type TestApi } from "../helpers/api.ts";
import { SNAPSHOT_CACHE } from "../helpers/corpus.ts";
import { corpusChecksum } from "../helpers/stores.ts";

/**
 * Collective agreements (issue 21) from two real snapshots of @socialgouv/kali-data, April and
 * August 2026, three agreements chosen for what changed between them: Syntec (IDCC 1486: two
 * articles at a new version, an amendment added), the journalists' (1480: an annex at a new
 * version, new articles) and real estate (1527: one article gone). Embedded store; change events
 * written in-process.
 */

const OLDER = "3.431.0";
const NEWER = "3.449.0";
const IDCC = ["1486", "1480", "1527"];

/** Articles with any text in a raw agreement file: what the adapter keeps. */
function articlesWithText(file: string): number {
  let n = 0;
  const visit = (node: { type: string; data: { content?: string }; children?: unknown[] }) => {
    if (node.type === "article") {
      const text = (node.data.content ?? "").replace(/<[^>]*>|&nbsp;|\s/g, "");
      if (text !== "") n += 1;
    }
    for (const child of node.children ?? []) visit(child as typeof node);
  };
  visit(JSON.parse(readFileSync(file, "utf8")));
  return n;
}

describe("collective agreements (KALI) over two real snapshots (embedded)", () => {
  let api: TestApi;
  let older: KaliSnapshot;
  let newer: KaliSnapshot;
  const summaries: KaliIngestSummary[] = [];

  const load = (snapshot: KaliSnapshot, idcc = IDCC) =>
    withChangesDelivered(api.store.db, api.ctx.config, () =>
      ingestKali(api.store.db, api.ctx.config, { path: path.dirname(snapshot.dataDir), idcc }),
    );
  const ok = async (pathAndQuery: string): Promise<ApiResponse> => {
    const response = await call(api, pathAndQuery, { key: api.keys.reader! });
    expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(200);
    return response;
  };

  beforeAll(async () => {
    api = await startTestApi("pglite", { redis: false, label: "kali" });
    older = await resolveKaliSnapshot({ version: OLDER, cacheDir: SNAPSHOT_CACHE });
    newer = await resolveKaliSnapshot({ version: NEWER, cacheDir: SNAPSHOT_CACHE });
    summaries.push(await load(older), await load(newer));
  }, 300_000);
  afterAll(async () => api?.close());

  it("dates each snapshot by its publication and lists what it holds", () => {
    expect(older.date).toBe("2026-04-07");
    expect(newer.date).toBe("2026-08-24");
    expect(newer.label).toBe(`@socialgouv/kali-data@${NEWER}`);
    expect(newer.agreements.filter((a) => a.hasArticles)).toHaveLength(50);
    expect(newer.agreements.find((a) => a.idcc === "1486")).toMatchObject({
      file: "KALICONT000005635173.json",
      hasArticles: true,
    });
  });

  it("loads one document per agreement, every article with text, no more", async () => {
    const [first, second] = summaries;
    expect(first!.documents).toEqual({ total: 3, created: 3, updated: 0, unchanged: 0, stale: 0 });
    const expected = (snapshot: KaliSnapshot) =>
      IDCC.reduce((n, idcc) => {
        const listed = snapshot.agreements.find((a) => a.idcc === idcc)!;
        return n + articlesWithText(path.join(snapshot.dataDir, listed.file));
      }, 0);
    expect(first!.provisions.added).toBe(expected(older));
    expect(second!.provisions.total).toBe(expected(newer));
    expect(first!.withoutTextDropped).toBeGreaterThan(0);

    const { body } = await ok("/api/v1/documents/idcc-1486");
    expect(body.data).toMatchObject({
      id: "idcc-1486",
      kind: "collective_agreement",
      source: {
        name: "kali",
        document_id: "KALICONT000005635173",
        snapshot: `@socialgouv/kali-data@${NEWER}`,
      },
      domains: ["labour"],
    });
    expect(body.data.title).toMatch(/^Convention collective nationale des bureaux d'études techniques/);
  });

  it("serves an article with its heading at the end of its section path", async () => {
    const { body } = await ok("/api/v1/provisions/idcc-1486/3-4");
    expect(body.data).toMatchObject({ number: "3.4", status: "in_force", effective_from: "2023-05-01" });
    expect(body.data.section_path.at(-1)).toBe("Période d'essai");
    expect(body.data.text).toMatch(
      /La période d'essai et la possibilité de la renouveler ne se présument pas/,
    );
  });

  it("tracks what the newer snapshot changed: amended, added, repealed", async () => {
    const [, second] = summaries;
    expect(second!.documents).toMatchObject({ total: 3, updated: 3, stale: 0 });
    expect(second!.provisions).toMatchObject({ added: 15, absent: 1 });

    const { body } = await ok("/api/v1/changes?since=2026-04-08&document=idcc-1486&limit=500");
    const amended = body.data.filter((e: any) => e.kind === "amended");
    expect(amended.map((e: any) => e.provision.number).sort()).toEqual(["5.7", "9.3"]);
    for (const e of amended) {
      expect(e).toMatchObject({ effective_on: "2026-05-01", origin: "source_history" });
      expect(e.version_before).toMatch(/^KALIARTI/);
      expect(e.version_after).not.toBe(e.version_before);
    }
    const added = body.data.filter((e: any) => e.kind === "added");
    expect(added.length).toBeGreaterThan(0);
    for (const e of added) {
      // No date of its own: it appeared between the two snapshots.
      expect(e).toMatchObject({
        effective_on: null,
        effective_window: { after: "2026-04-07", by: "2026-08-24" },
        origin: "snapshot_comparison",
      });
    }

    const gone = await ok("/api/v1/changes?since=2026-04-08&document=idcc-1527&kind=repealed");
    expect(gone.body.data).toHaveLength(1);
    expect(gone.body.data[0]).toMatchObject({
      effective_window: { after: "2026-04-07", by: "2026-08-24" },
      origin: "snapshot_comparison",
    });
    // The amended article keeps the version it replaced, closed the day the new one began, and
    // its diff shows what the amendment changed.
    const e = amended[0];
    const versions = await ok(`/api/v1/provisions/${e.provision.id}/versions`);
    expect(versions.body.data.versions.map((v: any) => [v.version_id, v.status, v.effective_to])).toEqual([
      [e.version_before, "superseded", "2026-05-01"],
      [e.version_after, "in_force", null],
    ]);
    const diff = await ok(`/api/v1/provisions/${e.provision.id}/diff`);
    expect(diff.body.data).toMatchObject({
      from: { version_id: e.version_before },
      to: { version_id: e.version_after },
    });
  });

  it("lists the agreements on the coverage, with their snapshot", async () => {
    const { body } = await ok("/api/v1/coverage");
    const agreements = body.data.documents.filter((d: any) => d.kind === "collective_agreement");
    expect(agreements.map((d: any) => d.id).sort()).toEqual(["idcc-1480", "idcc-1486", "idcc-1527"]);
    for (const d of agreements) expect(d.snapshot).toBe(`@socialgouv/kali-data@${NEWER}`);
  });

  it("searches within an agreement, by document= or by naming it in the query", async () => {
    // The lawyer's-list contract: the article that states the rule in the top 3 (an amendment
    // that rewrote it may rank beside it).
    const top3 = (body: any) => body.data.slice(0, 3).map((hit: any) => hit.id);
    const within = await ok("/api/v1/search?q=p%C3%A9riode+d%27essai&document=idcc-1486&limit=5");
    expect(top3(within.body)).toContain("idcc-1486/3-4");
    for (const hit of within.body.data) expect(hit.document.id).toBe("idcc-1486");
    for (const q of [
      "période d'essai syntec",
      "IDCC 1486 période d'essai",
      "convention collective 1486 période d'essai",
    ]) {
      const { body } = await ok(`/api/v1/search?q=${encodeURIComponent(q)}&limit=5`);
      expect(body.named_document?.id, q).toBe("idcc-1486");
      expect(top3(body), q).toContain("idcc-1486/3-4");
      for (const hit of body.data) expect(hit.document.id, q).toBe("idcc-1486");
    }
    // A number names the article within the agreement the query names.
    const numbered = await ok(
      `/api/v1/search?q=${encodeURIComponent("article 4.2 de la convention collective Syntec")}`,
    );
    expect(numbered.body.data[0].id).toBe("idcc-1486/4-2");
    // Words that only look like a name do not restrict anything.
    const plain = await ok("/api/v1/search?q=journalistes+pigistes&limit=5");
    expect(plain.body.named_document).toBeUndefined();
  });

  it("answers a question naming an agreement from that agreement, citing its article", async () => {
    const question = "Quelle est la durée de la période d'essai dans la convention collective Syntec ?";
    const { status, body } = await call(api, "/api/v1/answer", {
      method: "POST",
      key: api.keys.all!,
      body: JSON.stringify({ question }),
      headers: { "content-type": "application/json" },
    });
    expect(status, JSON.stringify(body).slice(0, 300)).toBe(200);
    expect(body.named_document).toEqual({ id: "idcc-1486", named_as: "convention collective Syntec" });
    for (const source of body.data.sources) expect(source.document.id).toBe("idcc-1486");
    // The rule on the trial period, quoted: the agreement's name is no word its text must say. It
    // is article 3.4, or the amendment of 31 March 2022 that rewrote it (as in search, above).
    expect(body.data.evidence).toBe("sufficient");
    const first = body.data.answer.sentences[0];
    expect(first.text).toMatch(/période d'essai/);
    expect(first.citations[0]).toMatch(/^idcc-1486\/(3-4$|Avenant-n-1-du-31-mars-2022-art-2)/);
    // A question naming no agreement is not confined to one.
    const general = await call(api, "/api/v1/answer", {
      method: "POST",
      key: api.keys.all!,
      body: JSON.stringify({ question: "Quelle est la durée de la période d'essai ?" }),
      headers: { "content-type": "application/json" },
    });
    expect(general.status).toBe(200);
    expect(general.body.named_document).toBeUndefined();
  });

  it("offers agents list_agreements, and resolve_citation reads references to agreements", async () => {
    const client = new Client({ name: "kali-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${api.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${api.keys.all!}` } },
      }),
    );
    try {
      const call = async (name: string, args: Record<string, unknown>) =>
        ((await client.callTool({ name, arguments: args })) as { structuredContent: any }).structuredContent;
      const all = await call("list_agreements", {});
      expect(all.data.agreements.map((a: any) => a.idcc)).toEqual(["1480", "1486", "1527"]);
      const syntec = await call("list_agreements", { query: "Syntec" });
      expect(syntec.data.agreements).toEqual([
        expect.objectContaining({
          id: "idcc-1486",
          idcc: "1486",
          usual_names: ["Syntec"],
          short_title: "Bureaux d'études techniques, cabinets d'ingénieurs-conseils et sociétés de conseils",
          snapshot: `@socialgouv/kali-data@${NEWER}`,
        }),
      ]);
      expect((await call("list_agreements", { query: "journalistes" })).data.agreements[0].id).toBe(
        "idcc-1480",
      );
      expect((await call("list_agreements", { query: "boulangerie" })).data.total).toBe(0);

      for (const citation of [
        "article 3.4 de la convention collective Syntec",
        "IDCC 1486, art. 3.4",
        "art. 3.4 CCN 1486",
      ]) {
        const resolved = await call("resolve_citation", { citation });
        expect(resolved.data.status, citation).toBe("resolved");
        expect(resolved.data.provision.id, citation).toBe("idcc-1486/3-4");
      }
    } finally {
      await client.close();
    }
  });

  it("is idempotent, and an older snapshot never rolls a newer one back", async () => {
    const before = await corpusChecksum(api.store.db);
    const again = await load(newer);
    expect(again.documents).toMatchObject({ unchanged: 3 });
    expect(again.changes).toBe(0);
    const rolledBack = await load(older);
    expect(rolledBack.documents).toMatchObject({ stale: 3 });
    expect(await corpusChecksum(api.store.db)).toEqual(before);
  });

  it("refuses an IDCC the snapshot does not hold, or holds by title only, naming the field", async () => {
    await expect(load(newer, ["99999"])).rejects.toMatchObject({
      field: "idcc",
      problem: /not in this snapshot/,
    });
    await expect(load(newer, ["1007"])).rejects.toMatchObject({ field: "idcc", problem: /by title only/ });
    await expect(load(newer, ["12a"])).rejects.toBeInstanceOf(InputError);
  });

  it("refuses a damaged agreement with its file and field named, leaving the store as it was", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "kali-bad-"));
    const file = "KALICONT000005635413.json";
    cpSync(path.join(newer.dataDir, file), path.join(dir, file));
    const agreement = JSON.parse(readFileSync(path.join(dir, file), "utf8"));
    delete agreement.children[0].data.id;
    agreement.children[0].children[0].type = "tableau";
    writeFileSync(path.join(dir, file), JSON.stringify(agreement));
    const before = await corpusChecksum(api.store.db);
    const error = await withChangesDelivered(api.store.db, api.ctx.config, () =>
      ingestKali(api.store.db, api.ctx.config, { path: dir }),
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).file).toBe(path.join(dir, file));
    expect((error as InputError).field).toMatch(/^children\[0\]\.children\[\d+\]\.type$/);
    expect(await corpusChecksum(api.store.db)).toEqual(before);
  });

  it("runs through POST /api/v1/admin/ingest-runs, and refuses a bad IDCC with 400 naming it", async () => {
    const editor = (
      await createKey(api.store.db, api.ctx.keyHashSecret, { project: "pro-app", scopes: ["ingest:write"] })
    ).key;
    const post = (body: unknown) =>
      call(api, "/api/v1/admin/ingest-runs", {
        key: editor,
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    expectEnvelope(await post({ source: "kali", idcc: ["syntec"] }), 400, "invalid_request", "idcc.0");
    expectEnvelope(await post({ source: "kali", version: "latest" }), 400, "invalid_request", "version");

    const submitted = await post({ source: "kali", version: NEWER, idcc: ["1527"] });
    expect(submitted.status).toBe(202);
    let run: ApiResponse | undefined;
    for (let i = 0; i < 600; i++) {
      run = await call(api, submitted.body.data.url, { key: editor });
      if (["succeeded", "failed"].includes(run.body.data.status)) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(run!.body.data).toMatchObject({ status: "succeeded", source: "kali" });
    expect(run!.body.data.summary.documents).toMatchObject({ total: 1, unchanged: 1 });
  }, 180_000);
});
