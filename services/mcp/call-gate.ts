import { AppError } from "../core/errors.ts";

/**
 * What one MCP request may take of the service: at most `concurrency` tool calls at once (a batch
 * of a hundred searches must not fill the connection pool every other request shares), none
 * started after its time budget ends, and none at all once its client has left. One per request
 * (services/api/routes/mcp/router.ts); tool handlers run through it (server.ts).
 */
export class CallGate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly concurrency: number,
    /** Epoch milliseconds after which no call starts. */
    private readonly deadline: number,
    private readonly signal: AbortSignal,
    private readonly budgetSeconds: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running += 1;
    try {
      if (this.signal.aborted)
        throw new AppError("invalid_request", "the client closed the request: not run.");
      if (Date.now() > this.deadline)
        throw new AppError(
          "invalid_request",
          `the request's calls ran past ${this.budgetSeconds} s: not run. Send fewer calls per request.`,
        );
      return await work();
    } finally {
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }
}
