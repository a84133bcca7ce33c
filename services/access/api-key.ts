import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * API keys: `lc_live_<lookup>_<secret>`. The 8-character lookup segment finds the row; the
 * secret is checked against a keyed hash (HMAC-SHA256 under the server's key-hash secret), in
 * constant time. The secret has 190 bits of entropy, so a keyed fast hash is as safe as a slow
 * one and keeps per-request verification cheap; the database alone is useless to an attacker.
 */
export const KEY_PREFIX = "lc";
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const LOOKUP_LENGTH = 8;
const SECRET_LENGTH = 32;
const KEY_SHAPE = new RegExp(
  `^${KEY_PREFIX}_live_([A-Za-z0-9]{${LOOKUP_LENGTH}})_([A-Za-z0-9]{${SECRET_LENGTH}})$`,
);

function randomString(length: number): string {
  // Rejection sampling keeps every character equally likely.
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

export interface NewKey {
  key: string;
  lookupId: string;
  secret: string;
}

export function generateKey(): NewKey {
  const lookupId = randomString(LOOKUP_LENGTH);
  const secret = randomString(SECRET_LENGTH);
  return { key: `${KEY_PREFIX}_live_${lookupId}_${secret}`, lookupId, secret };
}

/** Splits a presented key; undefined when it does not have the shape of one of ours. */
export function parseKey(presented: string): { lookupId: string; secret: string } | undefined {
  const match = KEY_SHAPE.exec(presented);
  return match ? { lookupId: match[1]!, secret: match[2]! } : undefined;
}

export function hashSecret(secret: string, hashKey: string): string {
  return createHmac("sha256", hashKey).update(secret).digest("base64url");
}

export function secretMatches(secret: string, storedHash: string, hashKey: string): boolean {
  const presented = Buffer.from(hashSecret(secret, hashKey));
  const stored = Buffer.from(storedHash);
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}
