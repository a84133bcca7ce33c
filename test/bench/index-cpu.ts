import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";

/**
 * Where the CPU went during one indexing run, from Linux's /proc: this Node process, the
 * OpenSearch JVM, the Postgres backends of the benchmark's database, and everything else on the
 * machine (which says whether a run was disturbed by other work). Elsewhere than Linux, nothing.
 */
export interface RunCpu {
  node: number;
  openSearch: number;
  postgres: number;
  /** Share of all CPUs busy with other work during the run: 0–1. */
  othersShare: number;
}

/** Linux reports CPU time in clock ticks of 10 ms (USER_HZ = 100 on every mainstream kernel). */
const TICK_S = 0.01;
const linux = process.platform === "linux";

function pids(): string[] {
  return readdirSync("/proc").filter((name) => /^\d+$/.test(name));
}

function processCpu(pid: string): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * TICK_S; // utime + stime
  } catch {
    return 0; // gone
  }
}

function cmdline(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
}

/** The JVM infra/opensearch or infra/elasticsearch launched for this HTTP port, if it can be found. */
export function findEnginePid(httpPort: number): string | undefined {
  if (!linux) return undefined;
  return pids().find((pid) => {
    const line = cmdline(pid);
    return (
      (line.includes("corpus.OpenSearchNode") || line.includes("corpus.ElasticsearchNode")) &&
      line.includes(`--http-port ${httpPort} `)
    );
  });
}

/** Backends show their database in their process title: `postgres: 15/main: user lc_bench_… host(port)`. */
function postgresCpu(database: string): number {
  return pids()
    .filter((pid) => cmdline(pid).includes(` ${database} `))
    .reduce((sum, pid) => sum + processCpu(pid), 0);
}

function machineBusy(): number {
  const [, user, nice, system, , , , , steal] = readFileSync("/proc/stat", "utf8")
    .split("\n")[0]!
    .trim()
    .split(/\s+/)
    .map(Number);
  return (user! + nice! + system! + steal!) * TICK_S;
}

/** Starts measuring; the returned function ends the window and reports it (undefined off Linux). */
export function measureCpu(watched: {
  enginePid: string | undefined;
  database: string;
}): () => RunCpu | undefined {
  if (!linux) return () => undefined;
  const snapshot = () => ({
    at: performance.now(),
    node: (({ user, system }) => (user + system) / 1e6)(process.cpuUsage()),
    openSearch: watched.enginePid ? processCpu(watched.enginePid) : 0,
    postgres: postgresCpu(watched.database),
    busy: machineBusy(),
  });
  const a = snapshot();
  return () => {
    const b = snapshot();
    const node = b.node - a.node;
    const openSearch = b.openSearch - a.openSearch;
    const postgres = Math.max(0, b.postgres - a.postgres); // a backend that closed meanwhile takes its time away
    const capacity = ((b.at - a.at) / 1000) * os.cpus().length;
    const others = b.busy - a.busy - node - openSearch - postgres;
    return { node, openSearch, postgres, othersShare: Math.max(0, others / capacity) };
  };
}
