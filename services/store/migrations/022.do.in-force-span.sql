-- A provision in force in a version whose text we do not hold (issue 17). A LEGI snapshot gives the
-- text of one version of each article, and lists the versions acts have already scheduled after
-- it without their text. The Code de la sécurité sociale's L461-1, which defines the occupational
-- disease, holds the text in force until 2026-09-30, then versions from 2026-09-30, 2026-11-01 and
-- 2027-01-01 (open-ended): the article is in force today, in a wording the snapshot lacks. Search
-- read "in force on a day" from the text's dates alone, so from 2026-10-01 it hid L461-1 and
-- about fifty other amended articles, as if repealed.
--
-- provisions.in_force_to: the end of the provision's in-force span, the text's end carried on
-- through the versions that start the day the previous one ends (an amendment, not a repeal),
-- until one is open-ended (null) or none follows; a version that never took effect (it ends when
-- it starts) carries nothing on. Ingest computes it from the versions it reads
-- (ingest/pipeline/rows.ts, inForceUntil); this fills it for stored provisions, by the same rule.
-- Search filters on it on every engine and flags a hit whose text is not the one in force that
-- day; effective_from and effective_to stay the text's own dates.
ALTER TABLE provisions ADD COLUMN in_force_to date;

UPDATE provisions SET in_force_to = effective_to WHERE effective_to IS NOT NULL;

WITH RECURSIVE span (provision_id, ends) AS (
    SELECT id, effective_to FROM provisions WHERE effective_to IS NOT NULL
  UNION
    SELECT s.provision_id, v.effective_to
    FROM span s JOIN provision_versions v ON v.provision_id = s.provision_id AND v.effective_from = s.ends
    WHERE v.effective_to IS NULL OR v.effective_to > v.effective_from),
  ends AS (
    SELECT provision_id, CASE WHEN bool_or(ends IS NULL) THEN NULL ELSE max(ends) END AS in_force_to
    FROM span GROUP BY provision_id)
UPDATE provisions p SET in_force_to = e.in_force_to
FROM ends e
WHERE e.provision_id = p.id AND e.in_force_to IS DISTINCT FROM p.in_force_to;

-- The index engines filter on a field of their own (`in_force_to`), a mapping change: `corpus
-- index rebuild` after upgrading (README), as for migration 020. The field enters the indexed
-- hash, so `corpus index verify` names the documents an index made before holds without it.
