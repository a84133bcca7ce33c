import { readFileSync } from "node:fs";
import path from "node:path";
import { Command } from "commander";
import { repoRoot } from "../services/core/config.ts";
import { addAccountsCommands } from "./commands/accounts.ts";
import { addCorpusCommands } from "./commands/corpus.ts";
import { addIngestCommands } from "./commands/ingest.ts";
import { addKeysCommands } from "./commands/keys.ts";
import { addProjectsCommands } from "./commands/projects.ts";
import { addRunsCommands } from "./commands/runs.ts";
import { addIndexCommands } from "./commands/search-index.ts";
import type { CliRuntime } from "./runtime.ts";

const VERSION = (JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string })
  .version;

/** The `corpus` command line, run standalone (services/runtime/cli.ts) or inside the server (admin socket). */
export function buildCli(rt: CliRuntime): Command {
  const program = new Command("corpus")
    .description("Legal corpus administration: ingest, statistics, projects and API keys.")
    .version(VERSION, "-V, --version", "the version of the service this command belongs to")
    // `corpus -V` is the service's version; after a command, `--version` is that command's own
    // option (`corpus ingest legi --version 2.229.0`), which the program's would otherwise swallow.
    .enablePositionalOptions()
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeOut: (s) => rt.out(s.trimEnd()), writeErr: (s) => rt.err(s.trimEnd()) });

  addIngestCommands(program, rt);
  addCorpusCommands(program, rt);
  addProjectsCommands(program, rt);
  addKeysCommands(program, rt);
  addRunsCommands(program, rt);
  addAccountsCommands(program, rt);
  addIndexCommands(program, rt);
  return program;
}
