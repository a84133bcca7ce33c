import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../core/config.ts";
import { startupHint } from "./startup-hint.ts";

describe("the hint npm start prints", () => {
  it("names the server's DATA_DIR in the commands that make a key", () => {
    const hint = startupHint(parseConfig({ DATA_DIR: "/srv/corpus data" }), "embedded", "x");
    expect(hint).toContain("    DATA_DIR='/srv/corpus data' npx corpus projects create my-app");
    expect(hint).toContain("    DATA_DIR='/srv/corpus data' npx corpus keys create --project my-app");
    const relative = startupHint(parseConfig({ DATA_DIR: "other" }), "embedded", "x");
    expect(relative).toContain(`DATA_DIR=${path.resolve("other")} npx corpus projects create`);
  });

  it("says nothing more on the defaults, and never prints a DATABASE_URL", () => {
    expect(startupHint(parseConfig({}), "embedded", "x")).toContain(
      "\n    npx corpus projects create my-app",
    );
    const server = startupHint(
      parseConfig({ DATABASE_URL: "postgres://corpus:s3cret@db:5432/legal" }),
      "Postgres",
      "x",
    );
    expect(server).toContain("with this server's DATABASE_URL set");
    expect(server).not.toContain("s3cret");
  });
});
