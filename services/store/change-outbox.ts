import type { ChangeKind } from "./change-log.ts";
import type { Queryable } from "./database.ts";
import type { Outbox } from "./outbox.ts";

/**
 * The change outbox (migration 006): events wait here until the change-log writer has them
 * (change-log.ts marks them written in its transaction). SQL only.
 */
export const CHANGE_OUTBOX: Outbox<ChangeEvent> = {
  table: "change_outbox",
  payload: "event",
  done: "written_at",
};

/** One change to one provision, as ingest derived it (ingest/pipeline/derive-changes.ts). */
export interface ChangeEvent {
  key: string;
  provisionId: number;
  documentId: number;
  kind: ChangeKind;
  effectiveOn: string | null;
  effectiveAfter: string | null;
  effectiveBy: string | null;
  /** effectiveOn, or the latest date the change can have taken effect: what `since`/`until` filter on. */
  listedOn: string;
  versionBefore: string | null;
  versionAfter: string | null;
  numberBefore: string | null;
  numberAfter: string;
  act: { id: string; title: string | null; date: string | null } | null;
  origin: "source_history" | "snapshot_comparison";
  sourceVersion: string | null;
  runId: number;
}

const BATCH = 2000;

/** In the ingest transaction: the document's change events. */
export async function recordChanges(tx: Queryable, events: ChangeEvent[]): Promise<void> {
  for (let i = 0; i < events.length; i += BATCH) {
    await tx.query("INSERT INTO change_outbox (event) SELECT jsonb_array_elements($1::jsonb)", [
      JSON.stringify(events.slice(i, i + BATCH)),
    ]);
  }
}
