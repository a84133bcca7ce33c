-- Audit of answers given by POST /api/v1/answer and the MCP answer_question tool, without
-- personal data: the question is kept only as a keyed hash (HMAC under KEY_HASH_SECRET, so equal
-- questions can be counted but not read back) and its length; the rest is what was answered from.

CREATE TABLE answer_log (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  project_id      integer NOT NULL REFERENCES projects (id),
  key_lookup_id   text NOT NULL,
  question_hmac   text NOT NULL,
  question_chars  integer NOT NULL,
  domains         text[],
  composer        text NOT NULL CHECK (composer IN ('extractive', 'generative')),
  evidence        text NOT NULL CHECK (evidence IN ('sufficient', 'insufficient')),
  fallback_reason text,
  retrieved       text[] NOT NULL,
  cited           text[] NOT NULL,
  sentences       integer NOT NULL,
  milliseconds    integer NOT NULL,
  channel         text NOT NULL CHECK (channel IN ('http', 'mcp', 'eval')),
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX answer_log_project ON answer_log (project_id, created_at);
