-- A provision in force in a version whose text we do not hold (issue 17). A LEGI snapshot gives the
-- text of one version of each article and lists the others without it: the versions it replaced,
-- and those acts have already scheduled after it. The Code de la sécurité sociale's L461-1, which
-- defines the occupational disease, holds the text in force from 2018-07-01 to 2026-09-30, four
-- earlier versions (from 1985-12-21) and three later ones (2026-09-30, 2026-11-01, 2027-01-01,
-- open-ended): the article is in force today, and was in 2010, in wordings the snapshot lacks.
-- Search read "in force on a day" from the text's dates alone, so from 2026-10-01 it hid L461-1
-- and some fifty other amended articles as if repealed, and as of 2015 it hid a third of the
-- codes (every article amended since).
--
-- provisions.in_force_from and in_force_to: the provision's in-force span, the text's dates
-- carried on through the versions that start the day the previous one ends (an amendment, not a
-- repeal), and back through those that end the day the next one starts, until one is open-ended
-- (null) or none joins; a version that never took effect (it ends when it starts, or its start is
-- not known) joins nothing. Ingest computes them from the versions it reads
-- (ingest/pipeline/rows.ts, inForceSpan); this fills them for stored provisions, by the same rule.
-- Search filters on them on every engine and says when a hit's text is not that day's;
-- effective_from and effective_to stay the text's own dates.
ALTER TABLE provisions ADD COLUMN in_force_from date, ADD COLUMN in_force_to date;

UPDATE provisions SET in_force_from = effective_from, in_force_to = effective_to
WHERE effective_from IS NOT NULL OR effective_to IS NOT NULL;

CREATE TABLE migration_022_versions AS
  SELECT provision_id, effective_from, effective_to FROM provision_versions
  WHERE effective_to IS NULL OR (effective_from IS NOT NULL AND effective_to > effective_from);

WITH RECURSIVE later (provision_id, ends) AS (
    SELECT id, effective_to FROM provisions WHERE effective_to IS NOT NULL
  UNION
    SELECT l.provision_id, v.effective_to
    FROM later l JOIN migration_022_versions v ON v.provision_id = l.provision_id AND v.effective_from = l.ends),
  spans AS (
    SELECT provision_id, CASE WHEN bool_or(ends IS NULL) THEN NULL ELSE max(ends) END AS in_force_to
    FROM later GROUP BY provision_id)
UPDATE provisions p SET in_force_to = s.in_force_to
FROM spans s
WHERE s.provision_id = p.id AND s.in_force_to IS DISTINCT FROM p.in_force_to;

WITH RECURSIVE earlier (provision_id, starts) AS (
    SELECT id, effective_from FROM provisions WHERE effective_from IS NOT NULL
  UNION
    SELECT e.provision_id, v.effective_from
    FROM earlier e JOIN migration_022_versions v ON v.provision_id = e.provision_id AND v.effective_to = e.starts),
  spans AS (
    SELECT provision_id, CASE WHEN bool_or(starts IS NULL) THEN NULL ELSE min(starts) END AS in_force_from
    FROM earlier GROUP BY provision_id)
UPDATE provisions p SET in_force_from = s.in_force_from
FROM spans s
WHERE s.provision_id = p.id AND s.in_force_from IS DISTINCT FROM p.in_force_from;

DROP TABLE migration_022_versions;

-- The index engines filter on fields of their own (`in_force_from`, `in_force_to`), a mapping
-- change: `corpus index rebuild` after upgrading (README), as for migration 020. The fields enter
-- the indexed hash, so `corpus index verify` names the documents an index made before holds
-- without them.
