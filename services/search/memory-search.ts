import type { Database } from "../store/database.ts";
import { readIndexedProvisions, readSearchGeneration } from "../store/search-snapshot.ts";
import { type MemoryIndex, MemoryIndexBuilder } from "./memory-index.ts";

export interface MemorySearchEvents {
  built?(info: { generation: string; provisions: number; postings: number; ms: number }): void;
  failed?(error: Error): void;
}

/**
 * Keeps an in-memory copy of the search model (memory-index.ts) in step with the store. A copy is
 * used only while the store's search generation (migration 012) is the one it was built at: a
 * search that finds the store moved on is answered by SQL, and starts a rebuild. One build at a
 * time; a build during which the store moved is dropped (the next search starts another), so a
 * copy never mixes two states of the corpus.
 */
export class MemorySearch {
  private index: MemoryIndex | undefined;
  private building: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly db: Database,
    private readonly events: MemorySearchEvents = {},
  ) {}

  /** For readiness: whether a copy has been built, and whether a build is under way. */
  get state(): { built: boolean; building: boolean } {
    return { built: this.index !== undefined, building: this.building !== undefined };
  }

  /** The copy if it is current at `generation`; otherwise undefined, and a rebuild under way. */
  current(generation: string): MemoryIndex | undefined {
    if (this.index?.generation === generation) return this.index;
    void this.refresh();
    return undefined;
  }

  /** Builds a copy unless one is current or being built; resolves when that build is over. */
  refresh(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.building ??= this.build()
      .catch((error: Error) => this.events.failed?.(error))
      .finally(() => {
        this.building = undefined;
      });
    return this.building;
  }

  private async build(): Promise<void> {
    const started = performance.now();
    const generation = await readSearchGeneration(this.db);
    if (this.index?.generation === generation) return;
    const builder = new MemoryIndexBuilder();
    for await (const batch of readIndexedProvisions(this.db)) {
      if (this.closed) return;
      for (const provision of batch) builder.add(provision);
    }
    if ((await readSearchGeneration(this.db)) !== generation) return;
    const index = builder.finish(generation);
    this.index = index;
    this.events.built?.({
      generation,
      provisions: index.size,
      postings: index.postingCount,
      ms: Math.round(performance.now() - started),
    });
  }

  /** Stops building; waits for a build under way to notice. */
  async close(): Promise<void> {
    this.closed = true;
    await this.building;
    this.index = undefined;
  }
}
