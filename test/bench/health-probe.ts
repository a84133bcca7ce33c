import { type ChildProcess, fork } from "node:child_process";
import http from "node:http";
import { pin } from "./bench-options.ts";
import { type LoadSummary, summariseLatencies } from "./latency.ts";

/**
 * GET /healthz as a supervisor sends it: from a process of its own, one probe at a time, each on a
 * new connection (a liveness probe does not keep one open), `intervalMs` apart. A MeasuredWindow:
 * runHttpLoad starts it when its measured window opens and stops it when it closes, so that it
 * samples /healthz exactly while the searches run. The probes run in a child process
 * (`health-probe-process.ts`), not beside the load generator, whose event loop is busy with 32
 * connections' answers: a probe there would measure that loop as much as the server. The child is
 * started and loaded before the window (`start()`): its start (about 2 s of compiling and loading)
 * would otherwise fall inside the window, taking CPU from the server it measures and leaving the
 * window's first seconds unprobed.
 */
export class HealthProbe {
  private child: ChildProcess | undefined;
  private result: Promise<ProbeResult> | undefined;
  private startedAt = 0;
  private seconds = 0;

  /** `cpus` (taskset's syntax): where the probe process runs; unset, where this process does. */
  constructor(
    private readonly baseUrl: string,
    private readonly cpus?: string,
    private readonly intervalMs = 20,
  ) {}

  /** Starts the probe process and waits until it is ready to probe; `begin()` then starts probing. */
  async start(): Promise<void> {
    const child = fork(
      new URL("./health-probe-process.ts", import.meta.url),
      [this.baseUrl, String(this.intervalMs)],
      {
        execArgv: process.execArgv,
        serialization: "advanced",
      },
    );
    this.child = child;
    if (this.cpus && child.pid) pin(child.pid, this.cpus);
    // "close" follows the IPC channel's end, so every message sent before it has been read.
    const exited = new Promise<never>((_, reject) =>
      child.once("close", (code) => reject(new Error(`the health probe process exited with code ${code}`))),
    );
    exited.catch(() => {});
    await Promise.race([new Promise((resolve) => child.once("message", resolve)), exited]);
    this.result = Promise.race([
      new Promise<ProbeResult>((resolve) => child.once("message", resolve)),
      exited,
    ]);
    // Read by summary(); until then a probe process that dies must not end the bench unhandled.
    this.result.catch(() => {});
  }

  begin(): void {
    if (!this.child) throw new Error("the probe was not started");
    this.startedAt = performance.now();
    this.child.send("begin");
  }

  end(): void {
    this.seconds = (performance.now() - this.startedAt) / 1000;
    this.child?.send("stop");
  }

  /** After `end()`: waits for the probe in flight, then summarises; failed probes are counted apart. */
  async summary(): Promise<LoadSummary & { failed: number; failures: string[] }> {
    if (!this.result) throw new Error("the probe was not started");
    const { latenciesMs, failures } = await this.result;
    return {
      ...summariseLatencies(latenciesMs, this.seconds),
      failed: failures.length,
      failures: [...new Set(failures)],
    };
  }

  /** Probes for `seconds`, without any other load: the baseline of the loaded figure. */
  static async idle(baseUrl: string, seconds: number, cpus?: string, intervalMs?: number) {
    const probe = new HealthProbe(baseUrl, cpus, intervalMs);
    await probe.start();
    probe.begin();
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    probe.end();
    return probe.summary();
  }
}

/** What the probe process sends back when told to stop. */
export interface ProbeResult {
  latenciesMs: number[];
  failures: string[];
}

/** Probes until `stopped()` says so; the probe in flight when it does is completed and counted. */
export async function probeLoop(url: URL, intervalMs: number, stopped: () => boolean): Promise<ProbeResult> {
  const result: ProbeResult = { latenciesMs: [], failures: [] };
  while (!stopped()) {
    const started = performance.now();
    try {
      await probeOnce(url);
      result.latenciesMs.push(performance.now() - started);
    } catch (error) {
      result.failures.push(error instanceof Error ? error.message : String(error));
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return result;
}

/** One GET on a connection of its own, the answer read whole; anything but 200 fails. */
function probeOnce(url: URL): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false, timeout: 30_000 }, (response) => {
      response.resume();
      response.on("error", reject);
      response.on("end", () =>
        response.statusCode === 200
          ? resolve()
          : reject(new Error(`/healthz answered ${response.statusCode}`)),
      );
    });
    request.on("timeout", () => request.destroy(new Error("/healthz: no answer within 30 s")));
    request.on("error", reject);
  });
}

/** A bare HTTP server (bare-http-server.ts) in a process of its own, on `cpus` when given. */
export interface BareServer {
  baseUrl: string;
  stop(): Promise<void>;
}

export async function startBareServer(cpus?: string): Promise<BareServer> {
  const child = fork(new URL("./bare-http-server.ts", import.meta.url), [], {
    execArgv: process.execArgv,
    serialization: "advanced",
  });
  const exited = new Promise<never>((_, reject) =>
    child.once("exit", (code) => reject(new Error(`the bare HTTP server exited with code ${code}`))),
  );
  exited.catch(() => {});
  const port = await Promise.race([
    new Promise<unknown>((resolve) => child.once("message", resolve)),
    exited,
  ]);
  if (typeof port !== "number" || port === 0) {
    child.kill();
    throw new Error("the bare HTTP server did not say which port it listens on");
  }
  if (cpus && child.pid) pin(child.pid, cpus);
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill();
      }),
  };
}
