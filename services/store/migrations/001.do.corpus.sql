-- The corpus: normative documents, their table of contents, provisions, provision versions,
-- the acts that amended them, and the ingest runs that loaded them.
-- Dates are legal dates (DATE); an open-ended validity is NULL, never a sentinel like 2999-01-01.

CREATE TABLE ingest_runs (
  id              integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  source          text NOT NULL,                 -- 'legi', 'canonical'
  source_version  text,                          -- e.g. '@socialgouv/legi-data@2.513.0', a file path
  parameters      jsonb NOT NULL DEFAULT '{}',
  rules_hash      text,
  status          text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'succeeded', 'failed')),
  documents_total integer NOT NULL DEFAULT 0,
  documents_done  integer NOT NULL DEFAULT 0,
  summary         jsonb NOT NULL DEFAULT '{}',
  error           text,
  started_at      timestamptz NOT NULL DEFAULT now(),
  finished_at     timestamptz
);

CREATE TABLE documents (
  id              integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  public_id       text NOT NULL UNIQUE,
  source          text NOT NULL,
  source_id       text NOT NULL,
  source_version  text,
  kind            text NOT NULL,
  title           text NOT NULL,
  jurisdiction    text NOT NULL,
  status          text NOT NULL CHECK (status IN ('in_force', 'repealed', 'not_yet_in_force')),
  source_status   text,
  effective_from  date,
  effective_to    date,
  modified_on     date,
  domains         text[] NOT NULL DEFAULT '{}',
  content_hash    text NOT NULL,
  rules_hash      text NOT NULL,
  last_run_id     integer REFERENCES ingest_runs (id),
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (source, source_id)
);

-- Table of contents, flattened in document order; parent links rebuild the tree.
CREATE TABLE sections (
  document_id     integer NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
  source_id       text NOT NULL,
  parent_source_id text,
  position        integer NOT NULL,
  depth           integer NOT NULL,
  title           text NOT NULL,
  status          text,
  effective_from  date,
  effective_to    date,
  PRIMARY KEY (document_id, source_id)
);

CREATE TABLE provisions (
  id                integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  public_id         text NOT NULL UNIQUE,
  document_id       integer NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
  source_id         text NOT NULL,               -- stable across versions (LEGI cid)
  version_id        text NOT NULL,               -- the current version's source id (LEGI id)
  number            text NOT NULL,
  number_key        text NOT NULL,
  text              text NOT NULL,
  text_html         text,
  notes             text,
  status            text NOT NULL CHECK (status IN ('in_force', 'repealed', 'not_yet_in_force')),
  source_status     text,
  effective_from    date,
  effective_to      date,
  section_source_id text,
  section_path      text[] NOT NULL DEFAULT '{}',
  position          integer NOT NULL,
  domains           text[] NOT NULL DEFAULT '{}',
  content_hash      text NOT NULL,
  present_in_source boolean NOT NULL DEFAULT true,
  last_run_id       integer REFERENCES ingest_runs (id),
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  UNIQUE (document_id, source_id)
);
CREATE INDEX provisions_document_position ON provisions (document_id, position);
CREATE INDEX provisions_number_key ON provisions (number_key);
CREATE INDEX provisions_source_id ON provisions (source_id);
CREATE INDEX provisions_version_id ON provisions (version_id);
CREATE INDEX provisions_domains ON provisions USING gin (domains);

CREATE TABLE provision_versions (
  provision_id    integer NOT NULL REFERENCES provisions (id) ON DELETE CASCADE,
  version_id      text NOT NULL,
  label           text,
  status          text NOT NULL CHECK (status IN ('in_force', 'repealed', 'not_yet_in_force', 'superseded')),
  source_status   text,
  effective_from  date,
  effective_to    date,
  text            text,                          -- known for the current version; older ones as they arrive
  PRIMARY KEY (provision_id, version_id)
);
CREATE INDEX provision_versions_version_id ON provision_versions (version_id);

-- Links between a provision and other acts: which act created, amended, moved or repealed it.
CREATE TABLE provision_links (
  provision_id    integer NOT NULL REFERENCES provisions (id) ON DELETE CASCADE,
  position        integer NOT NULL,
  act_id          text NOT NULL,
  act_title       text,
  act_kind        text,
  relation        text NOT NULL,                 -- LEGI link type: MODIFIE, CREE, ABROGE, CODIFICATION…
  direction       text NOT NULL CHECK (direction IN ('amended_by', 'amends')),
  act_article_id  text,
  act_article_number text,
  act_published_on date,
  act_signed_on   date,
  effective_on    date,
  PRIMARY KEY (provision_id, position)
);
CREATE INDEX provision_links_act ON provision_links (act_id);
