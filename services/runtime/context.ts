import type { Logger } from "pino";
import type { KeyCache } from "../access/key-cache.ts";
import type { UsageLimiter } from "../access/rate-limits.ts";
import type { UsageMeter } from "../access/usage-meter.ts";
import type { Config } from "../core/config.ts";
import type { RunExecutor } from "../jobs/ingest-run-job.ts";
import type { SearchEngine } from "../search/engine.ts";
import type { Synonyms } from "../search/synonyms.ts";
import type { TitleClassifier } from "../search/title-classifier.ts";
import type { Database } from "../store/database.ts";

/** Everything a request handler may use; built once by the server (or a test) and passed in. */
export interface AppContext {
  config: Config;
  db: Database;
  search: SearchEngine;
  limiter: UsageLimiter;
  /** Requests per project and day, for the console's usage chart. */
  usage: UsageMeter;
  /** The secret under which API key secrets are hashed. */
  keyHashSecret: string;
  logger: Logger;
  /** Runs submitted ingest runs: the worker through BullMQ, or this process when embedded. */
  runs: RunExecutor;
  /** Key rows cached per process, evicted on revocation by notification. */
  keys?: KeyCache;
  /** Classifies unclassified documents by title for best_effort domain filters. */
  titles: TitleClassifier;
  /** The synonym groups search applies (SEARCH_SYNONYMS); answers read abbreviations with them. */
  synonyms: Synonyms;
  /** Absolute URL of the coverage information, quoted in every response. */
  coverageUrl: string;
}
