import { describe, expect, it } from "vitest";
import { generateKey, hashSecret, parseKey, secretMatches } from "./api-key.ts";

describe("API keys", () => {
  it("have the spec's shape: prefix, live, an 8-character lookup id, a secret", () => {
    const { key, lookupId, secret } = generateKey();
    expect(key).toMatch(/^lc_live_[A-Za-z0-9]{8}_[A-Za-z0-9]{32}$/);
    expect(parseKey(key)).toEqual({ lookupId, secret });
  });

  it("are all different", () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateKey().key));
    expect(keys.size).toBe(1000);
  });

  it("refuse anything not shaped like one of ours", () => {
    for (const presented of [
      "",
      "lc_live_short_x",
      `lc_test_ABCDEFGH_${"a".repeat(32)}`,
      `xx_live_ABCDEFGH_${"a".repeat(32)}`,
    ]) {
      expect(parseKey(presented)).toBeUndefined();
    }
  });

  it("are checked against a keyed hash, never stored in clear", () => {
    const { secret } = generateKey();
    const stored = hashSecret(secret, "server-secret-one");
    expect(stored).not.toContain(secret);
    expect(secretMatches(secret, stored, "server-secret-one")).toBe(true);
    expect(secretMatches(secret, stored, "server-secret-two")).toBe(false);
    const lastChanged = `${secret.slice(0, -1)}${secret.endsWith("x") ? "y" : "x"}`;
    expect(secretMatches(lastChanged, stored, "server-secret-one")).toBe(false);
  });
});
