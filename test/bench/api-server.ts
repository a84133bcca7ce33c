import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { repoRoot } from "../../services/core/config.ts";
import { childrenOf, freePort } from "../helpers/processes.ts";
import type { Cleanups } from "./index-setup.ts";

/**
 * The real server, as `npm start` runs it, in a process of its own: the benchmark then measures
 * everything a client pays for (HTTP parsing, Express, logging, authentication, rate limits,
 * validation, JSON), and the load generator does not share the server's event loop.
 */
export interface RunningServer {
  baseUrl: string;
  /**
   * For CPU and memory accounting: the front (node runs it, not a shell) and the API process it
   * started (services/runtime/front.ts).
   */
  pids: number[];
  /** SIGTERM and wait for the graceful exit; after it the embedded store's lock is released. */
  stop(): Promise<void>;
  /** For a benchmark interrupted by a signal: SIGTERM, without waiting. */
  kill(): void;
}

/** What a benchmark is measuring now: a signal stops that server and runs those cleanups. */
export interface MeasuredSetup {
  current: { cleanups: Cleanups; server: RunningServer | undefined } | undefined;
  interrupted: boolean;
}

/** SIGINT or SIGTERM stops the server being measured, runs its cleanups, and exits with 130. */
export function stopOnSignal(): MeasuredSetup {
  const state: MeasuredSetup = { current: undefined, interrupted: false };
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      state.interrupted = true;
      console.error(`\n${signal}: stopping the server and OpenSearch, dropping the database…`);
      state.current?.server?.kill();
      void (state.current?.cleanups.run() ?? Promise.resolve()).finally(() => process.exit(130));
    });
  }
  return state;
}

const STARTUP_TIMEOUT_MS = 120_000;
const SHUTDOWN_TIMEOUT_MS = 20_000;

/** `env` names the store (DATA_DIR, DATABASE_URL) and the KEY_HASH_SECRET the keys were made with. */
export async function startApiServer(env: Record<string, string>): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(repoRoot, "services/runtime/server.ts")],
    {
      cwd: repoRoot,
      env: { ...process.env, ...env, PORT: String(port), INGEST_ON_FIRST_START: "false", LOG_LEVEL: "warn" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString("utf8");
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));

  await waitForListening(child, () => output, exited);
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    pids: [child.pid!, ...childrenOf(child.pid!)],
    stop: async () => {
      if (child.exitCode !== null) throw new Error(`the server died during the run:\n${output}`);
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), SHUTDOWN_TIMEOUT_MS);
      const code = await exited.finally(() => clearTimeout(timer));
      // What the server logged (LOG_LEVEL=warn: warnings and errors) is worth seeing even when it exits cleanly.
      for (const line of summariseLog(output)) console.log(`  server log: ${line}`);
      if (code !== 0) throw new Error(`the server exited with code ${code} on SIGTERM:\n${output}`);
    },
    kill: () => {
      if (child.exitCode === null) child.kill("SIGTERM");
    },
  };
}

async function waitForListening(child: ChildProcess, output: () => string, exited: Promise<number | null>) {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  let dead = false;
  void exited.then(() => {
    dead = true;
  });
  while (!output().includes("listening on")) {
    if (dead) throw new Error(`the server exited before listening:\n${output()}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the server did not listen within ${STARTUP_TIMEOUT_MS / 1000} s:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** pino's JSON lines grouped by message, with a count: a run can log the same error hundreds of times. */
function summariseLog(output: string): string[] {
  const counts = new Map<string, number>();
  for (const line of output.split("\n").filter((l) => l.startsWith("{"))) {
    const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } };
    const what = `level ${entry.level}: ${entry.msg ?? ""}${entry.err?.message ? ` (${entry.err.message})` : ""}`;
    counts.set(what, (counts.get(what) ?? 0) + 1);
  }
  return [...counts].map(([what, n]) => `${n}× ${what}`);
}
