import { parentPort } from "node:worker_threads";
import { yieldCpuToEventLoop } from "../core/typescript-worker.ts";
import type { MemoryIndex } from "./memory-index.ts";
import { MemoryIndexBuilder } from "./memory-index-builder.ts";
import type { MemoryReply, MemoryRequest } from "./memory-protocol.ts";
import { parseTsvector } from "./tsvector.ts";

/**
 * The thread that holds the in-memory search model and ranks with it (started by
 * memory-search.ts): a search costs a few milliseconds of CPU, which here never delays the
 * server's other requests (/healthz, reads by id). Requests are handled one at a time, in order.
 */
const port = parentPort!;
yieldCpuToEventLoop();
let index: MemoryIndex | undefined;
let building: { build: number; builder: MemoryIndexBuilder } | undefined;

const reply = (message: MemoryReply) => port.postMessage(message);

port.on("message", (request: MemoryRequest) => {
  switch (request.op) {
    case "build-start":
      building = { build: request.build, builder: new MemoryIndexBuilder() };
      return;
    case "build-add":
      if (building?.build !== request.build) return;
      try {
        for (const provision of request.provisions) building.builder.add(provision);
      } catch (error) {
        building = undefined;
        reply({ op: "build-failed", build: request.build, message: (error as Error).message });
      }
      return;
    case "build-finish": {
      if (building?.build !== request.build) return;
      // The previous copy is let go first: the two are never held at once longer than needed.
      index = undefined;
      index = building.builder.finish(request.generation);
      building = undefined;
      reply({
        op: "built",
        build: request.build,
        generation: index.generation,
        provisions: index.size,
        postings: index.postingCount,
      });
      return;
    }
    case "search": {
      if (index?.generation !== request.generation) {
        reply({ op: "searched", id: request.id, page: null });
        return;
      }
      try {
        const { alternatives, ...rest } = request.query;
        const page = index.search({
          ...rest,
          alternatives: alternatives.map((a) => ({
            term: a.term,
            vector: parseTsvector(a.vector),
            inOrder: a.inOrder,
          })),
        });
        reply({ op: "searched", id: request.id, page });
      } catch (error) {
        reply({ op: "search-failed", id: request.id, message: (error as Error).message });
      }
    }
  }
});
