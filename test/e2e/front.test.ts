import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../services/core/config.ts";
import { runCli } from "../helpers/cli.ts";
import { childrenOf, freePort } from "../helpers/processes.ts";

/**
 * The front of `npm start` (services/runtime/front.ts): it owns the port, answers health probes
 * itself from what the API process reports, and hands every other connection to the API process.
 * Started as `npm start` starts it, on an empty embedded store (nothing to load, so it starts in
 * seconds).
 */
describe("the front: probes answered apart from the API, every other connection handed over", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "lc-front-"));
  let port: number;
  let server: ChildProcess;
  let output = "";
  let apiPid: number;
  let key: string;
  const env = () => ({ DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: "warn" });

  const start = async () => {
    output = "";
    server = spawn(process.execPath, ["--import", "tsx", path.join(repoRoot, "services/runtime/server.ts")], {
      cwd: repoRoot,
      env: { ...process.env, ...env(), INGEST_ON_FIRST_START: "false", HEALTH_STALL_SECONDS: "2" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const collect = (chunk: Buffer) => {
      output += chunk;
    };
    server.stdout?.on("data", collect);
    server.stderr?.on("data", collect);
    server.once("exit", (code, signal) => {
      output += `\n[server exited: code ${code}, signal ${signal}]`;
    });
    for (let i = 0; i < 600 && !output.includes("listening on"); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(output).toContain("listening on");
    const children = childrenOf(server.pid!);
    expect(children).toHaveLength(1);
    apiPid = children[0]!;
  };

  beforeAll(async () => {
    port = await freePort();
    await start();

    expect((await runCli(["projects", "create", "front-app"], env())).code).toBe(0);
    const created = await runCli(
      [
        "keys",
        "create",
        "--project",
        "front-app",
        "--scopes",
        "corpus:read,search:read,ingest:write",
        "--json",
      ],
      env(),
    );
    key = (JSON.parse(created.stdout) as { key: string }).key;
  }, 120_000);

  afterAll(() => {
    if (apiPid) continueApi();
    if (server.exitCode === null) server.kill("SIGKILL");
  });

  /** SIGCONT to the API process, if it still runs. */
  const continueApi = () => {
    try {
      process.kill(apiPid, "SIGCONT");
    } catch {
      // already gone
    }
  };

  const api = (url: string, init: RequestInit = {}) =>
    fetch(`http://127.0.0.1:${port}${url}`, {
      ...init,
      headers: { authorization: `Bearer ${key}`, ...(init.headers ?? {}) },
    });

  it("answers /healthz and /readyz on a new connection, with the API's headers and the API's readiness", async () => {
    const live = await probe("/healthz", { "x-request-id": "probe-0001" });
    expect(live.status).toBe(200);
    expect(JSON.parse(live.body)).toEqual({ status: "ok" });
    expect(live.headers["x-request-id"]).toBe("probe-0001");
    expect(live.headers["x-coverage-url"]).toBe(`http://localhost:${port}/coverage`);
    expect(live.headers.connection).toBe("close");
    expect(live.headers["cache-control"]).toBe("no-store");

    const ready = await probe("/readyz");
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.body)).toMatchObject({
      status: "ready",
      checks: {
        api: "ok",
        store: "ok",
        search: expect.stringMatching(/^postgres: ok/),
        rate_limits: "memory",
      },
    });
  });

  it("hands over everything else, whole: an 8 MB upload arrives intact and is ingested", async () => {
    const example = JSON.parse(
      readFileSync(path.join(repoRoot, "test/fixtures/canonical/loi-exemple.json"), "utf8"),
    );
    const articles = 3_500;
    const body = Array.from({ length: articles }, (_, i) => ({
      article: String(i + 1),
      effectiveFrom: "2016-08-10",
      text: `Article ${i + 1}. ${"Le salarié bénéficie d'un congé. ".repeat(70)}Fin de l'article ${i + 1}.`,
    }));
    const file = { ...example, documents: [{ ...example.documents[0], id: "loi-volumineuse", body }] };
    const payload = JSON.stringify({ source: "canonical", name: "volumineuse.json", file });
    // Many reads on the API's side: the front hands the socket over after the first.
    expect(Buffer.byteLength(payload)).toBeGreaterThan(8_000_000);
    const submitted = await api("/api/v1/admin/ingest-runs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: payload,
    });
    expect(submitted.status).toBe(202);
    const url = ((await submitted.json()) as { data: { url: string } }).data.url;
    let status = "queued";
    for (let i = 0; i < 600 && !["succeeded", "failed"].includes(status); i++) {
      await new Promise((r) => setTimeout(r, 100));
      status = ((await (await api(url)).json()) as { data: { status: string } }).data.status;
    }
    expect(status).toBe("succeeded");
    const last = await api(`/api/v1/documents/loi-volumineuse?limit=1&offset=${articles - 1}&toc=false`);
    const document = (await last.json()) as {
      data: { provision_count: number; provisions: { text: string }[] };
    };
    expect(document.data.provision_count).toBe(articles);
    expect(document.data.provisions[0]!.text).toBe(body[articles - 1]!.text);
  });

  it("reads a request line sent in pieces, and gives the API what only starts like a probe", async () => {
    const split = await rawExchange(["GE", "T /heal", "thz HTTP/1.1\r\nHost: x\r\n\r\n"]);
    expect(split).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(split).toContain('{"status":"ok"}');
    // Not a probe: the API's own 404 envelope, with its request id.
    const lookalike = await rawExchange(["GET /healthzz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"]);
    expect(lookalike).toMatch(/^HTTP\/1\.1 404 /);
    expect(lookalike).toContain('"code":"not_found"');
    // A POST to a probe's path is the API's: its 404 envelope, with helmet's headers.
    const post = await rawExchange([
      "POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
    ]);
    expect(post).toMatch(/^HTTP\/1\.1 404 /);
    expect(post).toContain("Content-Security-Policy");
  });

  it("keeps a connection handed over for all its requests, probes included (the API answers those)", async () => {
    const replies = await rawExchange(
      [
        "GET /api/v1/openapi.json HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
      ],
      2,
    );
    expect(replies.match(/HTTP\/1\.1 200 OK/g)).toHaveLength(2);
    // The API's own answer to the probe carries helmet's headers, which the front's does not need.
    expect(replies.split("HTTP/1.1 200 OK")[2]).toContain("Content-Security-Policy");
  });

  it("answers probes while the API process cannot answer anything, and says it is unresponsive", async () => {
    process.kill(apiPid, "SIGSTOP");
    try {
      let searched = false;
      const search = api("/api/v1/search?q=salari%C3%A9").then((r) => {
        searched = true;
        return r;
      });
      // Answered at once, from the last report, while the search waits in the stopped process.
      const first = await probe("/healthz");
      expect([200, 503]).toContain(first.status);
      expect(searched).toBe(false);
      // Silent for longer than HEALTH_STALL_SECONDS (2): liveness fails, and readiness says why.
      const live = await probeUntil("/healthz", 503);
      expect(JSON.parse(live.body)).toMatchObject({
        status: "unresponsive",
        detail: expect.stringMatching(/^the API process has not answered for \d+\.\d s$/),
      });
      // Readiness reports are older than 3 s a little later than liveness's 2 s.
      const ready = await probeUntil("/readyz", 503);
      expect(JSON.parse(ready.body)).toMatchObject({
        status: "unavailable",
        checks: { api: expect.stringMatching(/^unresponsive: no readiness report for /) },
      });
      expect(searched).toBe(false);

      process.kill(apiPid, "SIGCONT");
      expect((await search).status).toBe(200);
      expect((await probeUntil("/healthz", 200)).status).toBe(200);
    } finally {
      continueApi();
    }
  });

  it("stops on SIGTERM: the API process finishes and exits, and the front exits with its code", async () => {
    const exited = new Promise<number | null>((resolve) => server.once("exit", (code) => resolve(code)));
    server.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(() => process.kill(apiPid, 0)).toThrow();
  });

  it("after a kill -9 of the front, the API process stops gracefully and releases the store", async () => {
    await start();
    const apiExited = new Promise<void>((resolve) => {
      const check = setInterval(() => {
        try {
          process.kill(apiPid, 0);
        } catch {
          clearInterval(check);
          resolve();
        }
      }, 100);
    });
    server.kill("SIGKILL");
    await apiExited;
    // No lock left behind: the CLI opens the store at once (after a kill -9 of the API process
    // it would have to wait for the lock to expire: embedded-server.test.ts).
    const stats = await runCli(["stats", "--json"], env());
    expect(stats.code).toBe(0);
    expect(output).toContain("the front process ended");
  });

  /** Probes every 100 ms, for 10 s at most, until the answer has this status; returns the last. */
  async function probeUntil(url: string, status: number) {
    let answer = await probe(url);
    for (let i = 0; i < 100 && answer.status !== status; i++) {
      await new Promise((r) => setTimeout(r, 100));
      answer = await probe(url);
    }
    expect(answer.status, `${url} never answered ${status}`).toBe(status);
    return answer;
  }

  /** GET on a connection of its own, as a supervisor probes. */
  function probe(url: string, headers: Record<string, string> = {}) {
    return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
      (resolve, reject) => {
        const req = http.get(
          { host: "127.0.0.1", port, path: url, agent: false, headers, timeout: 5_000 },
          (res) => {
            let body = "";
            res.setEncoding("utf8");
            res.on("data", (chunk) => {
              body += chunk;
            });
            res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
          },
        );
        req.on("timeout", () => req.destroy(new Error(`${url}: no answer within 5 s`)));
        req.on("error", reject);
      },
    );
  }

  /** Writes the pieces 50 ms apart on one connection, and reads until it closes (or `responses` arrived). */
  function rawExchange(pieces: string[], responses = 1) {
    return new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, "127.0.0.1");
      let received = "";
      socket.setEncoding("latin1");
      socket.on("data", (chunk) => {
        received += chunk;
      });
      socket.on("end", () => resolve(received));
      socket.on("error", reject);
      socket.setTimeout(5_000, () => {
        socket.destroy();
        const answered = received.match(/HTTP\/1\.1 \d{3}/g)?.length ?? 0;
        if (answered >= responses) resolve(received);
        else reject(new Error(`no answer within 5 s; got: ${received}`));
      });
      void (async () => {
        for (const piece of pieces) {
          socket.write(piece);
          await new Promise((r) => setTimeout(r, 50));
        }
      })();
    });
  }
});
