import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { repoRoot } from "../../services/core/config.ts";
import { freePort } from "./processes.ts";

/**
 * The production topology's processes, started by a test so that it can stop, kill and restart
 * them: a Postgres server of its own (initdb in a temporary folder), the API and the worker.
 */

const PG_BIN = (() => {
  const root = "/usr/lib/postgresql";
  const version = existsSync(root) ? readdirSync(root).sort().at(-1) : undefined;
  return version ? path.join(root, version, "bin") : undefined;
})();

/** A private Postgres server can be made here: the binaries exist, and we can run them as `postgres`. */
export function privatePostgresAvailable(): boolean {
  return PG_BIN !== undefined && process.getuid?.() === 0;
}

export interface PostgresServer {
  url: (database: string) => string;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startPostgresServer(): Promise<PostgresServer> {
  if (!PG_BIN) throw new Error("no PostgreSQL binaries under /usr/lib/postgresql");
  const dir = mkdtempSync(path.join(tmpdir(), "lc-pg-"));
  const uid = Number(execFileSync("id", ["-u", "postgres"]).toString());
  const gid = Number(execFileSync("id", ["-g", "postgres"]).toString());
  chownSync(dir, uid, gid);
  const port = await freePort();
  const data = path.join(dir, "data");
  // The server refuses to run as root: it runs as the `postgres` user, in a folder of its own.
  const asPostgres = (command: string, args: string[]) =>
    execFileSync("runuser", ["-u", "postgres", "--", path.join(PG_BIN!, command), ...args], {
      stdio: "pipe",
    });
  asPostgres("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]);
  const ctl = (...args: string[]) =>
    asPostgres("pg_ctl", [
      "-D",
      data,
      "-l",
      path.join(dir, "log"),
      "-o",
      `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off`,
      "-w",
      ...args,
    ]);
  ctl("start");
  return {
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    restart: async () => {
      ctl("restart", "-m", "fast");
    },
    stop: async () => {
      try {
        ctl("stop", "-m", "immediate");
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A node process of ours (the API or the worker) with its output kept, for restarts and kills. */
export class ServiceProcess {
  child: ChildProcess | undefined;
  output = "";

  constructor(
    private readonly script: string,
    private env: Record<string, string>,
    private readonly readyText: string,
  ) {}

  async start(env: Record<string, string> = {}): Promise<void> {
    this.env = { ...this.env, ...env };
    const child = spawn(process.execPath, ["--import", "tsx", path.join(repoRoot, this.script)], {
      cwd: repoRoot,
      env: { ...process.env, ...this.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child = child;
    const append = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-20_000);
    };
    child.stdout?.on("data", append);
    child.stderr?.on("data", append);
    const started = this.output.length;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${this.script} did not start:\n${this.output}`)),
        60_000,
      );
      const check = () => {
        if (this.output.slice(Math.max(0, started - 200)).includes(this.readyText)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout?.on("data", check);
      child.stderr?.on("data", check);
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`${this.script} exited with ${code}:\n${this.output}`));
      });
    });
  }

  /**
   * SIGKILL: no chance to finish anything, as when a machine dies. Any other signal asks for a
   * graceful stop; after `graceMs` the process is killed, and false says it did not stop in time.
   */
  async kill(signal: NodeJS.Signals = "SIGKILL", graceMs = 20_000): Promise<boolean> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return true;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill(signal);
    const inTime = await Promise.race([exited.then(() => true), sleep(graceMs).then(() => false)]);
    if (!inTime) {
      child.kill("SIGKILL");
      await exited;
    }
    return inTime;
  }
}
