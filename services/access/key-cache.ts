import { type ApiKeyRow, KEY_REVOKED_CHANNEL } from "../store/access.ts";
import type { Database } from "../store/database.ts";

/**
 * Key rows by lookup id, so that a request does not need a database round trip to authenticate
 * (it still checks the secret's hash every time). Revocation stays immediate across processes:
 * revoking notifies on KEY_REVOKED_CHANNEL in the same transaction, every API process listens and
 * evicts the key, and while the listener is down the cache is not used at all. Entries also
 * expire after a minute, which bounds any surprise.
 */
export class KeyCache {
  private readonly entries = new Map<string, { row: ApiKeyRow | null; until: number }>();
  private listening = false;

  constructor(
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 10_000,
  ) {}

  async attach(db: Database): Promise<() => Promise<void>> {
    return db.listen(
      KEY_REVOKED_CHANNEL,
      (lookupId) => this.entries.delete(lookupId),
      (listening) => {
        this.listening = listening;
        if (!listening) this.entries.clear();
      },
    );
  }

  async get(
    lookupId: string,
    load: (lookupId: string) => Promise<ApiKeyRow | undefined>,
  ): Promise<ApiKeyRow | undefined> {
    if (!this.listening) return load(lookupId);
    const hit = this.entries.get(lookupId);
    if (hit && hit.until > Date.now()) return hit.row ?? undefined;
    const row = await load(lookupId);
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    // Unknown lookup ids are not cached: a key created a moment later must work at once.
    if (row) this.entries.set(lookupId, { row, until: Date.now() + this.ttlMs });
    return row;
  }
}
