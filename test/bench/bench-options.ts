import { execFileSync } from "node:child_process";
import { SETUP_KINDS, type SetupKind } from "./api-setup.ts";

/** What bench:api and bench:search read from the environment, and how they describe the run. */

/** A positive integer from the environment, or the default; anything else ends the process (exit 2). */
export function positiveInteger(name: string, byDefault: number): number {
  const value = Number.parseInt(process.env[name] ?? String(byDefault), 10);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`${name} must be a positive integer, got ${JSON.stringify(process.env[name])}`);
    process.exit(2);
  }
  return value;
}

/** BENCH_SETUPS (comma-separated; default all), in the usual order whatever the order written, each once. */
export function setupKinds(): SetupKind[] {
  const names = (process.env.BENCH_SETUPS ?? SETUP_KINDS.join(","))
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !(SETUP_KINDS as readonly string[]).includes(name));
  if (names.length === 0 || unknown.length > 0) {
    console.error(
      `BENCH_SETUPS must name set-ups among ${SETUP_KINDS.join(", ")} (comma-separated), ` +
        `got ${JSON.stringify(process.env.BENCH_SETUPS)}`,
    );
    process.exit(2);
  }
  return SETUP_KINDS.filter((kind) => names.includes(kind));
}

/** The commit measured, and whether the working tree differed from it. */
export function commitLabel(): string {
  try {
    const head = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain"], { encoding: "utf8" }).trim() !== "";
    return dirty ? `working tree at commit ${head}` : `commit ${head}`;
  } catch {
    return "commit unknown";
  }
}
