import type { Logger } from "pino";
import { touchApiKey } from "../store/access.ts";
import type { Database } from "../store/database.ts";

/**
 * Records when each key was last used (the console shows it). last_used_at is for people, not
 * accounting: once a minute per key is enough, and a failure to record it fails no request.
 */
export class KeyUse {
  private readonly lastTouched = new Map<number, number>();

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
  ) {}

  seen(keyId: number): void {
    if ((this.lastTouched.get(keyId) ?? 0) >= Date.now() - 60_000) return;
    this.lastTouched.set(keyId, Date.now());
    touchApiKey(this.db, keyId).catch((error) =>
      this.logger.warn({ err: error }, "could not record key use"),
    );
  }
}
