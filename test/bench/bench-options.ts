import { execFileSync } from "node:child_process";
import os from "node:os";
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

/**
 * CPU lists (taskset's syntax) from a variable such as BENCH_ENGINE_CPUS ("1", "2-3"): the CPUs it
 * names, the others and all of them; undefined when it is unset. A list naming no CPU of this
 * machine, or every one of them, ends the process (exit 2).
 */
export function cpuSplit(variable: string): { chosen: string; others: string; all: string } | undefined {
  const wanted = process.env[variable];
  if (!wanted) return undefined;
  const count = os.cpus().length;
  const chosen = new Set<number>();
  for (const part of wanted.split(",")) {
    const range = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!range) {
      console.error(`${variable} must list CPUs like "1" or "2-3", got ${JSON.stringify(wanted)}`);
      process.exit(2);
    }
    for (let cpu = Number(range[1]); cpu <= Number(range[2] ?? range[1]); cpu += 1) chosen.add(cpu);
  }
  const others = [...Array(count).keys()].filter((cpu) => !chosen.has(cpu));
  if ([...chosen].some((cpu) => cpu >= count) || others.length === 0) {
    console.error(
      `${variable}=${wanted} must leave at least one of the ${count} CPUs (0-${count - 1}) to the rest`,
    );
    process.exit(2);
  }
  return { chosen: [...chosen].join(","), others: others.join(","), all: `0-${count - 1}` };
}

/** Every thread of a process (a JVM's too) onto these CPUs; threads it starts later inherit it. */
export function pin(pid: number, cpuList: string): void {
  execFileSync("taskset", ["-a", "-p", "-c", cpuList, String(pid)], { stdio: "ignore" });
}
