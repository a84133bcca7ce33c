import http from "node:http";
import { type LoadSummary, summariseLatencies } from "./latency.ts";

/**
 * GET /healthz as a supervisor sends it: one probe at a time, each on a new connection (a liveness
 * probe does not keep one open), `intervalMs` apart. A MeasuredWindow: runHttpLoad starts it when
 * its measured window opens and stops it when it closes, so that it samples /healthz exactly while
 * the searches run. Probes run in this process, beside the load generator; on a load of slow
 * searches that process is nearly idle, and the probe's own cost is in the idle figure too.
 */
export class HealthProbe {
  private readonly latenciesMs: number[] = [];
  private readonly failures: string[] = [];
  private running: Promise<void> | undefined;
  private stopped = false;
  private startedAt = 0;
  private seconds = 0;

  constructor(
    private readonly baseUrl: string,
    private readonly intervalMs = 20,
  ) {}

  begin(): void {
    this.startedAt = performance.now();
    this.running = this.loop();
  }

  end(): void {
    this.stopped = true;
    this.seconds = (performance.now() - this.startedAt) / 1000;
  }

  /** After `end()`: waits for the probe in flight, then summarises; failed probes are counted apart. */
  async summary(): Promise<LoadSummary & { failed: number; failures: string[] }> {
    await this.running;
    return {
      ...summariseLatencies(this.latenciesMs, this.seconds),
      failed: this.failures.length,
      failures: [...new Set(this.failures)],
    };
  }

  /** Probes for `seconds`, without any other load: the baseline of the loaded figure. */
  static async idle(baseUrl: string, seconds: number, intervalMs?: number) {
    const probe = new HealthProbe(baseUrl, intervalMs);
    probe.begin();
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    probe.end();
    return probe.summary();
  }

  private async loop(): Promise<void> {
    const url = new URL("/healthz", this.baseUrl);
    while (!this.stopped) {
      const started = performance.now();
      try {
        await probeOnce(url);
        this.latenciesMs.push(performance.now() - started);
      } catch (error) {
        this.failures.push(error instanceof Error ? error.message : String(error));
      }
      await new Promise((resolve) => setTimeout(resolve, this.intervalMs));
    }
  }
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
