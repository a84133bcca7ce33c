-- Citation authority: how many other provisions cite a provision. Lawyers read the article every
-- other article refers to ("au sens de l'article L. 1233-3") as the one that states the rule.
-- provision_references keeps, per provision present in its source, the article numbers its text
-- cites (kept in step by triggers, like the postings of migration 009); a reference without a
-- code's name points within the provision's own document. search_authority holds the counts,
-- refreshed after each ingest run (refreshSearchAuthority), which is what every engine reads.

CREATE TABLE provision_references (
  provision_id  integer NOT NULL,
  document_id   integer NOT NULL,
  number_key    text NOT NULL,
  PRIMARY KEY (provision_id, number_key)
);
CREATE INDEX provision_references_target ON provision_references (document_id, number_key);

CREATE TABLE search_authority (
  provision_id  integer PRIMARY KEY REFERENCES provisions (id) ON DELETE CASCADE,
  cited_by      integer NOT NULL
);

-- "L. 1233-3", "L1233-3", "R. 4451-39", "D.*1237-7": the number keys an article text cites.
CREATE FUNCTION cited_number_keys(text) RETURNS SETOF text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT DISTINCT upper(regexp_replace(m[1], '[\s.*]', '', 'g'))
  FROM regexp_matches($1, '\m([LRDA]\.?\s?\*?\d{1,4}(?:-\d+)*)\M', 'g') AS m
$$;

CREATE FUNCTION provision_references_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    changed := ARRAY(SELECT id FROM new_rows);
  ELSIF TG_OP = 'UPDATE' THEN
    changed := ARRAY(
      SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.text, n.present_in_source, n.number_key, n.document_id)
            IS DISTINCT FROM (o.text, o.present_in_source, o.number_key, o.document_id));
  ELSE
    changed := ARRAY(SELECT id FROM old_rows);
  END IF;
  IF cardinality(changed) = 0 THEN RETURN NULL; END IF;
  DELETE FROM provision_references WHERE provision_id = ANY(changed);
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO provision_references (provision_id, document_id, number_key)
    SELECT p.id, p.document_id, k FROM provisions p, cited_number_keys(p.text) AS k
    WHERE p.id = ANY(changed) AND p.present_in_source AND k <> p.number_key
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER provision_references_insert AFTER INSERT ON provisions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION provision_references_sync();
CREATE TRIGGER provision_references_update AFTER UPDATE ON provisions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION provision_references_sync();
CREATE TRIGGER provision_references_delete AFTER DELETE ON provisions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION provision_references_sync();

INSERT INTO provision_references (provision_id, document_id, number_key)
SELECT p.id, p.document_id, k FROM provisions p, cited_number_keys(p.text) AS k
WHERE p.present_in_source AND k <> p.number_key
ON CONFLICT DO NOTHING;

INSERT INTO search_authority (provision_id, cited_by)
SELECT t.id, count(DISTINCT r.provision_id)
FROM provision_references r JOIN provisions t ON t.document_id = r.document_id AND t.number_key = r.number_key
WHERE t.present_in_source
GROUP BY t.id;
