-- The planner's statistics refreshed after an ingest run only when the runs since the last
-- refresh wrote enough to change them, by autovacuum's own rule (autovacuum_analyze_threshold 50
-- plus autovacuum_analyze_scale_factor 0.1 of the rows: 50 provisions plus a tenth of the store).
-- Until now every run ended with VACUUM (ANALYZE) of the search tables. Most of its cost is
-- ANALYZE provisions, which samples the wide rows and their vectors: 1.4 s on the four codes and
-- the collective agreements on server Postgres, paid by an editor's act of five articles as by a
-- whole code's snapshot. Server Postgres's autovacuum applies the same rule on its own; PGlite
-- has no autovacuum and keeps no row counters (pg_stat_user_tables reads 0 there, even after
-- inserts in the same session), so the store counts what the runs wrote itself, from their
-- summaries.
--
-- ingest_runs.analyzed_at: when the run refreshed the statistics (NULL: it did not need to).
-- The runs finished before this migration all did; one still queued or running has not yet, and
-- must be counted when it writes.

ALTER TABLE ingest_runs ADD COLUMN analyzed_at timestamptz;
UPDATE ingest_runs SET analyzed_at = finished_at WHERE finished_at IS NOT NULL;

-- The provisions written since the last refresh: by the runs that did not refresh and had not
-- finished when it ran (still running, queued, or finished since), as their summaries count them:
-- added, changed or no longer in the source (a document run), or whose guides field changed (a
-- guides run). Times, not run ids: a queued run keeps the id it got when submitted, and may run
-- after a later one refreshed. A run finished after the last refresh may have written part of its
-- rows before it and is counted whole, which brings the next refresh sooner, never later. A
-- run's summary is recorded after each of its documents, so a run killed midway counts what it
-- committed. Due as well when the provisions were never analysed (reltuples -1).
CREATE OR REPLACE FUNCTION corpus_statistics_due() RETURNS boolean LANGUAGE sql STABLE AS $$
  WITH last AS (SELECT max(analyzed_at) AS at FROM ingest_runs),
  written AS (
    SELECT coalesce(sum(
             coalesce((r.summary->'provisions'->>'added')::bigint, 0)
             + coalesce((r.summary->'provisions'->>'changed')::bigint, 0)
             + coalesce((r.summary->'provisions'->>'absent')::bigint, 0)
             + coalesce((r.summary->>'provisionsChanged')::bigint, 0)), 0) AS provisions
    FROM ingest_runs r, last
    WHERE r.analyzed_at IS NULL AND (r.finished_at IS NULL OR last.at IS NULL OR r.finished_at > last.at))
  SELECT c.reltuples < 0 OR w.provisions > 50 + 0.1 * c.reltuples
  FROM pg_class c, written w
  WHERE c.oid = 'provisions'::regclass
$$;

CREATE OR REPLACE FUNCTION corpus_mark_analyzed(run integer) RETURNS void LANGUAGE sql AS $$
  UPDATE ingest_runs SET analyzed_at = now() WHERE id = run
$$;
