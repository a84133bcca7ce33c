-- The change log behind GET /api/v1/changes: provisions added, amended or repealed.
--
-- Ingest derives change events inside each document's transaction and writes them to
-- change_outbox; a dispatcher hands them to BullMQ jobs (or runs them in-process when embedded);
-- the change-log writer inserts them into change_log. Every event carries an idempotency key
-- naming the legal event itself (provision, kind, version), so a retried job, a replayed outbox
-- range, or the same amendment seen again in a later snapshot is recorded exactly once.

CREATE TABLE change_outbox (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  event         jsonb NOT NULL,
  recorded_at   timestamptz NOT NULL DEFAULT now(),
  dispatched_at timestamptz,
  -- Set by the writer, in the transaction that inserts the event into change_log.
  written_at    timestamptz
);
CREATE INDEX change_outbox_pending ON change_outbox (id) WHERE written_at IS NULL;

CREATE TABLE change_log (
  -- Recording order. The writer serialises its transactions (advisory lock), so a sequence
  -- number is never committed after a larger one: a client syncing "after seq N" misses nothing.
  seq             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  idempotency_key text NOT NULL UNIQUE,
  provision_id    integer NOT NULL REFERENCES provisions (id) ON DELETE CASCADE,
  document_id     integer NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
  kind            text NOT NULL CHECK (kind IN ('added', 'amended', 'repealed')),
  -- When the change took legal effect, as the source states it; NULL when the source does not
  -- say (a provision that is simply absent from a newer snapshot).
  effective_on    date,
  -- When effective_on is unknown: the window the change took effect in (previous snapshot's
  -- date, exclusive; this snapshot's date, inclusive).
  effective_after date,
  effective_by    date,
  -- What `since`/`until` filter and sort on: effective_on, or else the latest date it can be.
  listed_on       date NOT NULL,
  version_before  text,
  version_after   text,
  number_before   text,                          -- set when the provision was renumbered
  number_after    text NOT NULL,
  act_id          text,
  act_title       text,
  act_date        date,
  origin          text NOT NULL CHECK (origin IN ('source_history', 'snapshot_comparison')),
  source_version  text,                          -- the snapshot the change was found in
  run_id          integer REFERENCES ingest_runs (id),
  recorded_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX change_log_listed ON change_log (listed_on, seq);
CREATE INDEX change_log_document ON change_log (document_id, listed_on, seq);
CREATE INDEX change_log_provision ON change_log (provision_id, seq);

-- A version that ends by repeal rather than by a later version: the date the repeal takes effect.
ALTER TABLE provision_versions ADD COLUMN repealed_on date;
CREATE INDEX change_log_recorded ON change_log (recorded_at);
