import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { repoRoot } from "../../services/core/config.ts";

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Starts the real `corpus` CLI in its own process, as an editor would run it. */
export function startCli(
  args: string[],
  env: Record<string, string>,
): { child: ChildProcess; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [path.join(repoRoot, "bin/corpus.js"), ...args], {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: "silent", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  const done = new Promise<CliResult>((resolve) => {
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

export const runCli = (args: string[], env: Record<string, string>) => startCli(args, env).done;
