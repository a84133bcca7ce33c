import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../../services/access/keys.ts";
import { repoRoot } from "../../services/core/config.ts";
import { inProcessExecutor, resumeSubmittedRuns } from "../../services/jobs/ingest-run-job.ts";
import { findIngestRun, queueIngestRun } from "../../services/store/ingest-runs.ts";
import { type ApiResponse, call, startTestApi, type TestApi } from "../helpers/api.ts";

/** Corpus editors submit ingest runs through the API and follow them (scope ingest:write). */
describe("admin: ingest runs over HTTP (embedded: the server runs them)", () => {
  let api: TestApi;
  let editor: string;
  const example = JSON.parse(
    readFileSync(path.join(repoRoot, "test/fixtures/canonical/loi-exemple.json"), "utf8"),
  );

  beforeAll(async () => {
    api = await startTestApi("pglite", { redis: false, label: "admin_runs" });
    editor = (
      await createKey(api.store.db, api.ctx.keyHashSecret, { project: "pro-app", scopes: ["ingest:write"] })
    ).key;
  });
  afterAll(async () => api?.close());

  const post = (body: unknown, key = editor) =>
    call(api, "/api/v1/admin/ingest-runs", {
      key,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const waitForRun = async (url: string): Promise<ApiResponse> => {
    for (let i = 0; i < 100; i++) {
      const r = await call(api, url, { key: editor });
      if (["succeeded", "failed"].includes(r.body.data.status)) return r;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error("run did not end");
  };

  it("queues a canonical file, runs it, and shows its progress and summary", async () => {
    const file = { ...example, documents: [{ ...example.documents[0], id: "loi-soumise" }] };
    const submitted = await post({ source: "canonical", name: "loi-soumise.json", file });
    expect(submitted.status).toBe(202);
    expect(submitted.headers.get("location")).toBe(submitted.body.data.url);
    expect(submitted.body.data).toMatchObject({ source: "canonical", requested_by: editor.split("_")[2] });
    const done = await waitForRun(submitted.body.data.url);
    expect(done.body.data).toMatchObject({
      status: "succeeded",
      progress: { documents_done: 1, documents_total: 1 },
      error: null,
    });
    expect(done.body.data.summary.provisions.added).toBeGreaterThan(0);
    const document = await call(api, "/api/v1/documents/loi-soumise", { key: api.keys.reader });
    expect(document.status).toBe(200);
    const list = await call(api, "/api/v1/admin/ingest-runs", { key: editor });
    expect(list.body.data.map((r: { id: number }) => r.id)).toContain(done.body.data.id);
  });

  it("records a run with bad content as failed, naming the file and the field, and stores nothing of it", async () => {
    const broken = {
      ...example,
      documents: [{ ...example.documents[0], id: "loi-cassee", body: [{ article: "1" }] }],
    };
    const submitted = await post({ source: "canonical", name: "cassee.json", file: broken });
    expect(submitted.status).toBe(202);
    const done = await waitForRun(submitted.body.data.url);
    expect(done.body.data.status).toBe("failed");
    expect(done.body.data.error).toMatch(/^cassee\.json: documents\.0\.body\.0\.text: /);
    expect((await call(api, "/api/v1/documents/loi-cassee", { key: api.keys.reader })).status).toBe(404);
  });

  it("refuses JSON nested 10,000 levels deep with a 400 naming the body, and queues nothing (issue 18, item 13)", async () => {
    const runs = async () =>
      (await api.store.db.query<{ n: number }>("SELECT count(*)::int AS n FROM ingest_runs")).rows[0]!.n;
    const before = await runs();
    // Was a 500: JSON.stringify overflowed the stack recording the run.
    const deep = `{"source":"canonical","name":"deep.json","file":${"[".repeat(10_000)}${"]".repeat(10_000)}}`;
    const r = await call(api, "/api/v1/admin/ingest-runs", {
      key: editor,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: deep,
    });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe("body: nests deeper than 100 levels");
    expect(await runs()).toBe(before);
  });

  it("refuses bad requests, other keys and unknown runs with the envelope", async () => {
    const bad = await post({ source: "ftp" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("source");
    const badVersion = await post({ source: "legi", version: "latest" });
    expect(badVersion.status).toBe(400);
    expect(badVersion.body.error.message).toContain("version");
    expect((await post({ source: "legi" }, api.keys.all)).status).toBe(403);
    expect((await call(api, "/api/v1/admin/ingest-runs", { key: api.keys.reader })).body.error.code).toBe(
      "forbidden",
    );
    expect((await call(api, "/api/v1/admin/ingest-runs/99999", { key: editor })).status).toBe(404);
    // Not a Postgres integer: no such run either, never a 500 (found by fuzzing).
    for (const id of ["9007199254740993", "1e3", "-1", "0"])
      expect((await call(api, `/api/v1/admin/ingest-runs/${id}`, { key: editor })).status).toBe(404);
  });

  it("resumes, when the embedded server starts, the runs it had not started or not finished", async () => {
    const request = (id: string, sourceId: string) => ({
      source: "canonical",
      name: `${id}.json`,
      file: { ...example, documents: [{ ...example.documents[0], id, sourceId }] },
    });
    // What a server killed mid-way leaves: one run never started, one cut off while running.
    const waiting = await queueIngestRun(api.store.db, {
      source: "canonical",
      request: request("loi-en-attente", "JORFTEXT000000000001"),
      requestedBy: "cli",
    });
    const cut = await queueIngestRun(api.store.db, {
      source: "canonical",
      request: request("loi-interrompue", "JORFTEXT000000000002"),
      requestedBy: "cli",
    });
    await api.store.db.query("UPDATE ingest_runs SET status = 'running' WHERE id = $1", [cut]);

    const executor = inProcessExecutor(api.store.db, api.ctx.config, api.ctx.logger);
    expect(await resumeSubmittedRuns(api.store.db, executor)).toEqual([waiting, cut]);
    await executor.close();
    for (const id of [waiting, cut])
      expect((await findIngestRun(api.store.db, id))!.status).toBe("succeeded");
    for (const doc of ["loi-en-attente", "loi-interrompue"])
      expect((await call(api, `/api/v1/documents/${doc}`, { key: api.keys.reader })).status).toBe(200);
    // Nothing is left to resume.
    expect(await resumeSubmittedRuns(api.store.db, executor)).toEqual([]);
  });
});
