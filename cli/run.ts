import { CommanderError } from "commander";
import { AppError, InputError } from "../services/core/errors.ts";
import { StoreBusyError } from "../services/store/open.ts";
import { buildCli } from "./program.ts";
import type { CliRuntime } from "./runtime.ts";

/**
 * Runs one command line against a runtime. Bad input is a message for a person and exit code 2;
 * a busy embedded store is returned to the caller, which may hand the command to the server.
 */
export async function runCommand(
  argv: string[],
  rt: CliRuntime,
): Promise<{ code: number; storeBusy?: StoreBusyError }> {
  try {
    await buildCli(rt).parseAsync(argv, { from: "user" });
    return { code: 0 };
  } catch (error) {
    if (error instanceof CommanderError) return { code: error.exitCode };
    if (error instanceof StoreBusyError) return { code: 2, storeBusy: error };
    if (error instanceof InputError || error instanceof AppError) {
      rt.err(`error: ${error.message}`);
      return { code: 2 };
    }
    throw error;
  }
}
