import type { Command } from "commander";
import { AppError } from "../../services/core/errors.ts";
import { createIndexedEngine, type IndexedEngine } from "../../services/search/engines.ts";
import { type Drift, rebuildIndex, repairIndex, verifyIndex } from "../../services/search/indexer.ts";
import type { CliRuntime } from "../runtime.ts";

const driftSize = (d: Drift) => d.missing.length + d.stale.length + d.extra.length + (d.index ? 0 : 1);
const layout = (rt: CliRuntime) => ({ shards: rt.config.SEARCH_SHARDS, replicas: rt.config.SEARCH_REPLICAS });

async function withIndex<T>(rt: CliRuntime, work: (engine: IndexedEngine) => Promise<T>): Promise<T> {
  if (rt.config.SEARCH_ENGINE === "postgres") {
    throw new AppError(
      "invalid_request",
      "SEARCH_ENGINE is postgres: its index lives in Postgres and is always in step (set SEARCH_ENGINE and SEARCH_URL)",
    );
  }
  const engine = await createIndexedEngine(rt.config);
  try {
    return await work(engine);
  } finally {
    await engine.close();
  }
}

/** `corpus index rebuild|verify`: the Elasticsearch/OpenSearch index, a derived copy of Postgres. */
export function addIndexCommands(program: Command, rt: CliRuntime): void {
  const index = program
    .command("index")
    .description("The Elasticsearch/OpenSearch index: a derived copy of Postgres.");
  index
    .command("rebuild")
    .description(
      "Build a new index from Postgres and swap the alias to it; searches never see a partial index.",
    )
    .action(async () => {
      const outcome = await rt.withStore((db) =>
        withIndex(rt, (engine) =>
          rebuildIndex(db, engine, layout(rt), (n) => rt.progress.write(`indexed ${n} provisions\n`)),
        ),
      );
      rt.out(
        `Index ${outcome.index} built with ${outcome.documents} provisions in ${outcome.seconds.toFixed(1)} s; alias swapped${outcome.previous.length ? ` from ${outcome.previous.join(", ")}` : ""}.`,
      );
    });
  index
    .command("verify")
    .description("Prove the index matches Postgres (content hashes); --repair re-indexes what differs.")
    .option("--repair", "re-index missing and stale provisions, delete extra ones")
    .option("--json", "machine-readable output")
    .action(async (options: { repair?: boolean; json?: boolean }) => {
      const drift = await rt.withStore((db) =>
        withIndex(rt, async (engine) => {
          const found = await verifyIndex(db, engine);
          return options.repair && driftSize(found) > 0
            ? { found, after: await repairIndex(db, engine, found) }
            : { found, after: found };
        }),
      );
      const describe = (d: Drift) =>
        `${d.missing.length} missing, ${d.stale.length} stale, ${d.extra.length} extra`;
      if (options.json) rt.out(JSON.stringify(drift));
      else
        rt.out(
          `Index ${drift.found.index ?? "(none)"}: ${describe(drift.found)}${options.repair ? `; after repair: ${describe(drift.after)}` : ""}.`,
        );
      if (driftSize(drift.after) > 0)
        throw new AppError(
          "invalid_request",
          "the index does not match Postgres (run `corpus index verify --repair` or `corpus index rebuild`)",
        );
    });
}
