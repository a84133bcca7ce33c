-- Ingest runs can be submitted before they run (by the admin endpoint or `corpus runs submit`):
-- they wait as `queued` until a worker (or the embedded server) takes them.
ALTER TABLE ingest_runs DROP CONSTRAINT ingest_runs_status_check;
ALTER TABLE ingest_runs ADD CONSTRAINT ingest_runs_status_check
  CHECK (status IN ('queued', 'running', 'succeeded', 'failed'));
ALTER TABLE ingest_runs ADD COLUMN requested_by text;
ALTER TABLE ingest_runs ADD COLUMN request jsonb;
