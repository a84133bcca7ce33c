-- The search generation: a number that changes, in the writer's transaction, with anything a
-- search reads from provisions (words, filters, priors). An in-memory copy of the search model
-- (services/search/memory-search.ts) is current while the number it was built at is the stored
-- one. Only statements that change rows move it: re-ingesting an unchanged snapshot does not.
CREATE TABLE search_generation (
  singleton  boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  value      bigint NOT NULL
);
INSERT INTO search_generation VALUES (true, 0);

CREATE FUNCTION search_generation_bump() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed boolean;
BEGIN
  -- Each transition table is only there for its own operations: one statement per branch.
  IF TG_OP = 'DELETE' THEN
    changed := EXISTS (SELECT 1 FROM old_rows);
  ELSE
    changed := EXISTS (SELECT 1 FROM new_rows);
  END IF;
  IF changed THEN
    UPDATE search_generation SET value = value + 1;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER search_generation_insert AFTER INSERT ON provisions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_generation_bump();
CREATE TRIGGER search_generation_update AFTER UPDATE ON provisions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_generation_bump();
CREATE TRIGGER search_generation_delete AFTER DELETE ON provisions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION search_generation_bump();

-- Citation counts (migration 011), rewritten after each ingest run.
CREATE TRIGGER search_generation_authority_insert AFTER INSERT ON search_authority
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_generation_bump();
CREATE TRIGGER search_generation_authority_update AFTER UPDATE ON search_authority
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_generation_bump();
CREATE TRIGGER search_generation_authority_delete AFTER DELETE ON search_authority
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION search_generation_bump();
