-- The search outbox: provisions whose index document must be rewritten, recorded in the same
-- transaction as the change itself, so a crash can never leave the index silently behind.
-- Jobs index the provisions' current rows, so replaying an entry is harmless.

CREATE TABLE search_outbox (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  public_id     text NOT NULL,
  recorded_at   timestamptz NOT NULL DEFAULT now(),
  -- Set when a job carrying the entry has been handed to the queue (or run in-process).
  dispatched_at timestamptz,
  -- Set when the index holds the entry's provision as Postgres has it.
  indexed_at    timestamptz
);
CREATE INDEX search_outbox_pending ON search_outbox (id) WHERE indexed_at IS NULL;
