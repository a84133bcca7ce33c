-- LEGI writes 2222-02-22 for a date it does not know yet (the end of an article whose repeal is
-- scheduled, ABROGE_DIFF, before the day is fixed), as it writes 2999-01-01 for "no end". Ingest
-- read the first as a real day until now (ingest/sources/legi/dates.ts): an article in force
-- showed `effective_to: 2222-02-22`, and its scheduled repeal was listed as a change effective
-- that day. Both placeholders, and any later date, are no date (NULL), as 001 states for
-- 2999-01-01. Content hashes are left as they are: the next run over the same snapshot rewrites
-- these rows once with the same values.
UPDATE documents SET effective_to = NULL WHERE effective_to >= DATE '2222-02-22';
UPDATE documents SET effective_from = NULL WHERE effective_from >= DATE '2222-02-22';
UPDATE sections SET effective_to = NULL WHERE effective_to >= DATE '2222-02-22';
UPDATE sections SET effective_from = NULL WHERE effective_from >= DATE '2222-02-22';
-- Index documents carry the provision's dates: the index engines are told through the outbox (004).
WITH corrected AS (
  UPDATE provisions SET
    effective_to = CASE WHEN effective_to >= DATE '2222-02-22' THEN NULL ELSE effective_to END,
    effective_from = CASE WHEN effective_from >= DATE '2222-02-22' THEN NULL ELSE effective_from END
  WHERE effective_to >= DATE '2222-02-22' OR effective_from >= DATE '2222-02-22'
  RETURNING public_id
)
INSERT INTO search_outbox (public_id) SELECT public_id FROM corrected;
UPDATE provision_versions SET effective_to = NULL WHERE effective_to >= DATE '2222-02-22';
UPDATE provision_versions SET effective_from = NULL WHERE effective_from >= DATE '2222-02-22';
UPDATE provision_versions SET repealed_on = NULL WHERE repealed_on >= DATE '2222-02-22';
UPDATE provision_links SET effective_on = NULL WHERE effective_on >= DATE '2222-02-22';

-- A repeal whose day is not known has not taken effect: it is no entry of the change log (ingest
-- derives none now: a version without an end date ends nothing). The entry comes when a later
-- snapshot fixes the day.
DELETE FROM change_log WHERE effective_on >= DATE '2222-02-22';
DELETE FROM change_outbox WHERE written_at IS NULL AND (event->>'effectiveOn')::date >= DATE '2222-02-22';
