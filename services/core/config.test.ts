import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, configSchema, parseConfig, redactUrl, repoRoot } from "./config.ts";

describe("configuration", () => {
  it("runs embedded with nothing set", () => {
    const config = parseConfig({});
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.DATA_DIR).toBe(path.resolve("./data"));
    expect(config.LOG_LEVEL).toBe("info");
  });

  it("lists every bad variable at once", () => {
    try {
      parseConfig({ DATABASE_URL: "mysql://x", LOG_LEVEL: "loud" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).issues.map((issue) => issue.split(":")[0])).toEqual([
        "DATABASE_URL",
        "LOG_LEVEL",
      ]);
    }
  });

  it("never shows a database password", () => {
    expect(redactUrl("postgres://corpus:s3cret@db:5432/legal")).toBe("postgres://corpus:***@db:5432/legal");
    expect(() => parseConfig({ DATABASE_URL: "postgres//corpus:s3cret@db" })).toThrow(ConfigError);
    expect(() => parseConfig({ DATABASE_URL: "postgres//corpus:s3cret@db" })).not.toThrow(/s3cret/);
  });

  it("reads TRUST_PROXY as a hop count or a list of proxies, and refuses to believe everyone", () => {
    expect(parseConfig({}).TRUST_PROXY).toBe(false);
    expect(parseConfig({ TRUST_PROXY: "false" }).TRUST_PROXY).toBe(false);
    expect(parseConfig({ TRUST_PROXY: "1" }).TRUST_PROXY).toBe(1);
    expect(parseConfig({ TRUST_PROXY: "loopback, 10.0.0.0/8,fd00::1" }).TRUST_PROXY).toEqual([
      "loopback",
      "10.0.0.0/8",
      "fd00::1",
    ]);
    expect(() => parseConfig({ TRUST_PROXY: "true" })).toThrow(/TRUST_PROXY: "true" is not .*any client/);
    expect(() => parseConfig({ TRUST_PROXY: "10.0.0.0/8,proxy.local" })).toThrow(/"proxy.local"/);
  });

  it("documents every variable in the README", () => {
    const readme = readFileSync(path.join(repoRoot, "README.md"), "utf8");
    for (const name of Object.keys(configSchema.shape))
      expect(readme).toMatch(new RegExp(`\\| \`${name}\`\\s+\\|`));
  });
});
