-- A part of a code is no division of special rules (issue 17). Migration 020 reads a division of
-- special rules from any heading of an article's path, so that within « Section 2 : Dérogations »
-- no article opens. The Code du travail's seventh part is headed « Dispositions particulières à
-- certaines professions et activités »: it gathers whole regimes, each a body of rules of its
-- own (« Livre Ier : Journalistes professionnels, professions du spectacle, de la publicité et de
-- la mode », « Titre Ier : Voyageurs, représentants ou placiers »), whose divisions open with their
-- rule as any other (L7111-3 defines the professional journalist, L7311-3 the VRP). As migration
-- 029 reads no name in a part's heading, a part's heading makes no division special: only the
-- headings below it are read.

CREATE OR REPLACE FUNCTION corpus_special_division(text[]) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT EXISTS (
    SELECT 1 FROM unnest($1) AS heading
    WHERE heading ~* '(d[éÉ]rogations?|exceptions?|particuli(er|[èÈ]re)s?|sp[éÉ]cifiques?|sp[éÉ]ciales?|p[éÉ]nales?|transitoires?)\M'
      AND heading !~* '^(\S+\s+)?partie\M')
$$;

-- The openers and the names they hold, written again where they change, and queued for the index
-- engines, as migration 028 did.
WITH openers AS MATERIALIZED (SELECT provision_id FROM corpus_section_openers()),
     closed AS (
       UPDATE search_authority SET opens_section = false
       WHERE opens_section AND provision_id NOT IN (SELECT provision_id FROM openers)
       RETURNING provision_id),
     opened AS (
       INSERT INTO search_authority (provision_id, cited_by, opens_section)
       SELECT provision_id, 0, true FROM openers
       ON CONFLICT (provision_id) DO UPDATE SET opens_section = true WHERE NOT search_authority.opens_section
       RETURNING provision_id)
INSERT INTO search_outbox (public_id)
SELECT public_id FROM provisions
WHERE id IN (SELECT provision_id FROM closed UNION SELECT provision_id FROM opened);

INSERT INTO search_outbox (public_id)
SELECT public_id FROM provisions WHERE id IN (SELECT * FROM corpus_write_opened_divisions());
