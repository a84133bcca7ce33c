import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Config } from "../core/config.ts";

/**
 * The secret under which key secrets are hashed. From KEY_HASH_SECRET when set (every API process
 * of a deployment must share it); otherwise made once and kept in DATA_DIR/key-hash.secret with
 * owner-only permissions. It never goes into the database: a copy of the database alone cannot
 * be used to check guesses of keys.
 */
export function keyHashSecret(config: Pick<Config, "KEY_HASH_SECRET" | "DATA_DIR">): string {
  if (config.KEY_HASH_SECRET) return config.KEY_HASH_SECRET;
  const file = path.join(config.DATA_DIR, "key-hash.secret");
  if (!existsSync(file)) {
    mkdirSync(config.DATA_DIR, { recursive: true });
    writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
  }
  return readFileSync(file, "utf8").trim();
}
