import { createHash } from "node:crypto";

/** Stable content hash of a JSON-serialisable value (key order as given by the producer). */
export function contentHash(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("base64url").slice(0, 32);
}
