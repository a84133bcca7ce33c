import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";

/**
 * Where the CPU went during a measured window, from Linux's /proc: this process (the load
 * generator, or the engine loops and, on PGlite, the database), the server process, the OpenSearch
 * node (its JVM) where there is one, the Postgres backends serving the benchmark's database, and
 * everything else on the machine. On a 2-core
 * machine the last one says whether a run was disturbed by other work; the others say where the
 * API's extra cost per request goes. Elsewhere than Linux nothing is measured.
 */
export interface CpuReport {
  /** CPU milliseconds per completed call. */
  perCallMs: { benchProcess: number; server: number; openSearch: number; postgres: number };
  /** Share of all CPUs busy with other work during the window (other processes, hypervisor steal): 0–1. */
  othersShare: number;
}

interface Snapshot {
  at: number;
  benchProcess: number;
  server: number;
  openSearch: number;
  postgres: number;
  machineBusy: number;
}

/** Linux reports CPU time in clock ticks of 10 ms (USER_HZ = 100 on every mainstream kernel). */
const TICK_MS = 10;
const canMeasure = process.platform === "linux";

function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime + stime
  } catch {
    return 0; // the process has exited
  }
}

/** Backends show their database in their process title: `postgres: 15/main: user lc_bench_… host(port)`. */
function postgresCpuMs(database: string): number {
  let total = 0;
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(` ${database} `))
        total += processCpuMs(Number(pid));
    } catch {
      // gone between listing and reading
    }
  }
  return total;
}

/** Interrupt time is left out: the benchmark's own loopback traffic is handled there. */
function machineBusyMs(): number {
  const [, user, nice, system, , , , , steal] = readFileSync("/proc/stat", "utf8")
    .split("\n")[0]!
    .trim()
    .split(/\s+/)
    .map(Number);
  return (user! + nice! + system! + steal!) * TICK_MS;
}

/** Measures one window; `serverPids`, `enginePid` and `database` are left out where there is no such thing. */
export class CpuMeter {
  private first: Snapshot | undefined;
  private last: Snapshot | undefined;

  constructor(
    private readonly watched: {
      /** The server's processes: the front and the API process under `npm start`. */
      serverPids?: readonly number[] | undefined;
      enginePid?: number | undefined;
      database?: string | undefined;
    },
  ) {}

  private snapshot(): Snapshot | undefined {
    if (!canMeasure) return undefined;
    const self = process.cpuUsage();
    return {
      at: performance.now(),
      benchProcess: (self.user + self.system) / 1000,
      server: (this.watched.serverPids ?? []).reduce((sum, pid) => sum + processCpuMs(pid), 0),
      openSearch: this.watched.enginePid ? processCpuMs(this.watched.enginePid) : 0,
      postgres: this.watched.database ? postgresCpuMs(this.watched.database) : 0,
      machineBusy: machineBusyMs(),
    };
  }

  begin(): void {
    this.first = this.snapshot();
  }

  end(): void {
    this.last = this.snapshot();
  }

  report(calls: number): CpuReport | undefined {
    const [a, b] = [this.first, this.last];
    if (!a || !b || calls === 0) return undefined;
    const benchProcess = b.benchProcess - a.benchProcess;
    const server = b.server - a.server;
    const openSearch = b.openSearch - a.openSearch;
    // A backend that exits during the window (the pool closing an idle connection) takes its time away.
    const postgres = Math.max(0, b.postgres - a.postgres);
    const capacity = (b.at - a.at) * os.cpus().length;
    const others = b.machineBusy - a.machineBusy - benchProcess - server - openSearch - postgres;
    return {
      perCallMs: {
        benchProcess: benchProcess / calls,
        server: server / calls,
        openSearch: openSearch / calls,
        postgres: postgres / calls,
      },
      othersShare: Math.max(0, others / capacity),
    };
  }
}
