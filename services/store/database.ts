import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import pg from "pg";
import { redactUrl } from "../core/config.ts";

/**
 * The only module that knows which Postgres we talk to. Everything above it sees `Database`:
 * the same SQL runs on a Postgres server (through `pg`) and on embedded PGlite.
 */
export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: Row[] }>;
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
  close(): Promise<void>;
}

const DATE_OID = 1082;
const INT8_OID = 20;
const NUMERIC_OID = 1700;

/** Dates stay `YYYY-MM-DD` strings (no time zone games); counts become numbers. */
const parsers = {
  [DATE_OID]: (value: string) => value,
  [INT8_OID]: (value: string) => Number(value),
  [NUMERIC_OID]: (value: string) => Number(value),
};

class ServerDatabase implements Database {
  readonly kind = "pg" as const;
  readonly location: string;
  private readonly pool: pg.Pool;

  constructor(
    private readonly url: string,
    poolSize: number,
    onIdleError: (error: Error) => void,
  ) {
    this.location = redactUrl(url);
    this.pool = new pg.Pool({
      connectionString: url,
      max: poolSize,
      types: {
        getTypeParser: ((oid: number, format?: string) =>
          (parsers as Record<number, (v: string) => unknown>)[oid] ??
          pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
      },
    });
    // An idle connection dropped by the server (restart, failover) must not crash the process;
    // the pool replaces it on the next query.
    this.pool.on("error", onIdleError);
  }

  async query<Row>(sql: string, params?: unknown[]) {
    const result = await this.pool.query(sql, params);
    return { rows: result.rows as Row[] };
  }

  async exec(sql: string) {
    await this.pool.query(sql);
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
      query: async <Row>(sql: string, params?: unknown[]) => ({
        rows: (await client.query(sql, params)).rows as Row[],
      }),
      exec: async (sql: string) => {
        await client.query(sql);
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

  async close() {
    await this.pool.end();
  }
}

class EmbeddedDatabase implements Database {
  readonly kind = "pglite" as const;

  private constructor(
    private readonly db: PGlite,
    readonly location: string,
  ) {}

  static async open(dataDir: string | undefined): Promise<EmbeddedDatabase> {
    if (dataDir) mkdirSync(path.dirname(dataDir), { recursive: true });
    const db = await PGlite.create({ dataDir, extensions: { unaccent }, parsers });
    return new EmbeddedDatabase(db, dataDir ?? "memory://");
  }

  async query<Row>(sql: string, params?: unknown[]) {
    // PGlite runs queued queries back to back without giving the event loop a turn; yielding
    // first keeps the server accepting connections under load (p99 halved in bench:api).
    await new Promise((resolve) => setImmediate(resolve));
    const result = await this.db.query<Row>(sql, params);
    return { rows: result.rows };
  }

  async exec(sql: string) {
    await this.db.exec(sql);
  }

  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.db.transaction(async (inner) =>
      work({
        query: async <Row>(sql: string, params?: unknown[]) => ({
          rows: (await inner.query<Row>(sql, params)).rows,
        }),
        exec: async (sql: string) => {
          await inner.exec(sql);
        },
      }),
    );
  }

  async listen(
    channel: string,
    onNotify: (payload: string) => void,
    onState: (listening: boolean) => void = () => {},
  ) {
    const unlisten = await this.db.listen(channel, onNotify);
    onState(true);
    return unlisten;
  }

  async close() {
    await this.db.close();
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
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) {
    return new ServerDatabase(options.url, options.poolSize ?? 10, options.onIdleError ?? (() => undefined));
  }
  return EmbeddedDatabase.open(options.dataDir);
}

/** The embedded store's directory inside DATA_DIR. */
export function embeddedDataDir(dataDir: string): string {
  return path.join(dataDir, "pglite");
}
