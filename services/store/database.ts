import path from "node:path";
import pg from "pg";
import { redactUrl } from "../core/config.ts";
import { EmbeddedDatabase } from "./embedded-database.ts";
import { parsers } from "./type-parsers.ts";

/**
 * The only module that knows which Postgres we talk to. Everything above it sees `Database`:
 * the same SQL runs on a Postgres server (through `pg`) and on embedded PGlite (in a worker
 * thread: services/store/embedded-database.ts).
 */
export interface QueryOptions {
  /**
   * Server Postgres: when it aborts (the client that asked has left), the statement is cancelled
   * on the server at once (pg_cancel_backend) rather than left to run to its timeout. PGlite
   * cannot cancel a statement and ignores it.
   */
  signal?: AbortSignal | undefined;
}

export interface Queryable {
  query<Row = Record<string, unknown>>(
    sql: string,
    params?: unknown[],
    options?: QueryOptions,
  ): Promise<{ rows: Row[] }>;
  /** Several statements, no parameters (migrations, DDL). */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: "pg" | "pglite";
  /** Where the data lives, with any password redacted. */
  readonly location: string;
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * LISTEN on a channel. `onState` says whether notifications are being received (false while a
   * server connection is lost and being re-made), so callers can stop trusting caches meanwhile.
   */
  listen(
    channel: string,
    onNotify: (payload: string) => void,
    onState?: (listening: boolean) => void,
  ): Promise<() => Promise<void>>;
  /** How the store has been answering, read by readiness checks that must not queue behind work. */
  activity(): StoreActivity;
  /**
   * This database for statements that must not run longer than `ms` (searches). Server Postgres:
   * a pool of its own whose statements the server cancels after `ms` (error code 57014), and which
   * hands out a connection within `ms` or fails. PGlite cannot cancel a statement: itself.
   */
  withStatementTimeout(ms: number): Database;
  close(): Promise<void>;
}

export interface StoreActivity {
  /** When a statement last succeeded (epoch ms), through this database or a view of it. */
  lastAnswerAt: number | undefined;
  /**
   * Statements under way: running or waiting for a connection (server Postgres: the main pool,
   * not the statement-timeout views), sent and not yet answered (PGlite).
   */
  inFlight: number;
}

/** The last successful answer, shared by a server database and its statement-timeout views. */
class AnswerClock {
  lastAnswerAt: number | undefined;
  answered() {
    this.lastAnswerAt = Date.now();
  }
}

class ServerDatabase implements Database {
  readonly kind = "pg" as const;
  readonly location: string;
  private readonly pool: pg.Pool;
  private readonly views = new Map<number, ServerDatabase>();
  private closed: Promise<void> | undefined;

  constructor(
    private readonly url: string,
    private readonly poolSize: number,
    private readonly onIdleError: (error: Error) => void,
    private readonly clock = new AnswerClock(),
    limits: Pick<pg.PoolConfig, "statement_timeout" | "connectionTimeoutMillis"> = {},
  ) {
    this.location = redactUrl(url);
    this.pool = new pg.Pool({
      connectionString: url,
      max: poolSize,
      // No JIT: a search's plan is costed high (estimates over two million postings) but runs in
      // milliseconds; compiling its expressions took 2.3 s a query (seen in eval:relevance).
      options: "-c jit=off",
      ...limits,
      types: {
        getTypeParser: ((oid: number, format?: string) =>
          parsers[oid] ?? pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
      },
    });
    // An idle connection dropped by the server (restart, failover) must not crash the process;
    // the pool replaces it on the next query.
    this.pool.on("error", onIdleError);
  }

  async query<Row>(sql: string, params?: unknown[], options: QueryOptions = {}) {
    const { signal } = options;
    if (!signal) {
      const result = await this.pool.query(sql, params);
      this.clock.answered();
      return { rows: result.rows as Row[] };
    }
    signal.throwIfAborted();
    // A connection of our own, so that we know which backend to cancel.
    const client = await this.pool.connect();
    const cancel = () => void this.cancelBackend((client as unknown as { processID: number }).processID);
    signal.addEventListener("abort", cancel, { once: true });
    try {
      const result = await client.query(sql, params);
      this.clock.answered();
      return { rows: result.rows as Row[] };
    } finally {
      signal.removeEventListener("abort", cancel);
      client.release();
    }
  }

  /** Cancels what a backend runs, from a connection outside the pools (they may be full). */
  private async cancelBackend(pid: number): Promise<void> {
    const canceller = new pg.Client({ connectionString: this.url });
    try {
      await canceller.connect();
      await canceller.query("SELECT pg_cancel_backend($1)", [pid]);
    } catch (error) {
      this.onIdleError(error as Error);
    } finally {
      await canceller.end().catch(() => undefined);
    }
  }

  async exec(sql: string) {
    await this.pool.query(sql);
    this.clock.answered();
  }

  activity(): StoreActivity {
    const { totalCount, idleCount, waitingCount } = this.pool;
    return { lastAnswerAt: this.clock.lastAnswerAt, inFlight: totalCount - idleCount + waitingCount };
  }

  withStatementTimeout(ms: number): Database {
    let view = this.views.get(ms);
    if (!view) {
      // A pool of its own: long searches fill it, never the pool readiness and key checks use.
      view = new ServerDatabase(this.url, this.poolSize, this.onIdleError, this.clock, {
        statement_timeout: ms,
        connectionTimeoutMillis: ms,
      });
      this.views.set(ms, view);
    }
    return view;
  }

  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    // A checked-out connection has no pool listener: the server going away between two queries
    // (a restart) would be an unhandled 'error' event that ends the process. The transaction fails
    // at its next query instead, and the broken connection is discarded, not pooled again.
    let broken: Error | undefined;
    const onError = (error: Error) => {
      broken = error;
    };
    client.on("error", onError);
    const tx: Queryable = {
      query: async <Row>(sql: string, params?: unknown[]) => {
        const result = await client.query(sql, params);
        this.clock.answered();
        return { rows: result.rows as Row[] };
      },
      exec: async (sql: string) => {
        await client.query(sql);
        this.clock.answered();
      },
    };
    try {
      await client.query("BEGIN");
      const result = await work(tx);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch((rollbackError: Error) => {
        broken ??= rollbackError;
      });
      throw error;
    } finally {
      client.off("error", onError);
      client.release(broken);
    }
  }

  async listen(
    channel: string,
    onNotify: (payload: string) => void,
    onState: (listening: boolean) => void = () => {},
  ) {
    let client: pg.Client | undefined;
    let stopped = false;
    const connect = async (): Promise<void> => {
      if (stopped) return;
      const next = new pg.Client({ connectionString: this.url });
      next.on("notification", (message) => {
        if (message.channel === channel) onNotify(message.payload ?? "");
      });
      next.on("error", () => {
        onState(false);
        next.end().catch(() => undefined);
        setTimeout(() => void connect().catch(() => undefined), 1000);
      });
      try {
        await next.connect();
        await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
        client = next;
        onState(true);
      } catch {
        onState(false);
        await next.end().catch(() => undefined);
        setTimeout(() => void connect().catch(() => undefined), 1000);
      }
    };
    await connect();
    return async () => {
      stopped = true;
      await client?.end().catch(() => undefined);
    };
  }

  close(): Promise<void> {
    this.closed ??= Promise.all([...this.views.values()].map((view) => view.close())).then(() =>
      this.pool.end(),
    );
    return this.closed;
  }
}

export interface DatabaseOptions {
  /** Server Postgres. When absent, embedded PGlite is used. */
  url?: string | undefined;
  /** PGlite directory; absent means in memory (tests). */
  dataDir?: string | undefined;
  poolSize?: number;
  /** Called when the server drops an idle pooled connection. */
  onIdleError?: (error: Error) => void;
  /** Called when the embedded store's worker thread stops without being closed (a crash). */
  onEmbeddedStopped?: (error: Error) => void;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) {
    return new ServerDatabase(options.url, options.poolSize ?? 10, options.onIdleError ?? (() => undefined));
  }
  return EmbeddedDatabase.open(options.dataDir, options.onEmbeddedStopped);
}

/** The embedded store's directory inside DATA_DIR. */
export function embeddedDataDir(dataDir: string): string {
  return path.join(dataDir, "pglite");
}
