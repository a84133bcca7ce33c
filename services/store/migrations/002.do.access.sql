-- Access: plans (data, not code), projects, API keys. Only a keyed hash of a key's secret is kept.

CREATE TABLE plans (
  name                 text PRIMARY KEY,
  requests_per_minute  integer NOT NULL CHECK (requests_per_minute > 0),
  requests_per_month   integer NOT NULL CHECK (requests_per_month > 0),
  answer_enabled       boolean NOT NULL,
  description          text NOT NULL
);

INSERT INTO plans (name, requests_per_minute, requests_per_month, answer_enabled, description) VALUES
  ('beta', 60, 10000, false, 'Beta: 60 requests a minute, 10,000 a month, no answer endpoint.'),
  ('pro', 600, 1000000, true, 'Pro: 600 requests a minute, 1,000,000 a month, answer endpoint included.'),
  ('scale', 60000, 100000000, true, 'Scale: 60,000 requests a minute, 100,000,000 a month, answer endpoint included.');

CREATE TABLE projects (
  id          integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name        text NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 100),
  plan        text NOT NULL REFERENCES plans (name),
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id            integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  project_id    integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  lookup_id     text NOT NULL UNIQUE,               -- the 8-character segment shown in the key
  secret_hash   text NOT NULL,                      -- HMAC-SHA256 of the secret under the server's key-hash secret
  scopes        text[] NOT NULL,
  domains       text[],                             -- NULL: every domain
  label         text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_used_at  timestamptz,
  revoked_at    timestamptz
);
CREATE INDEX api_keys_project ON api_keys (project_id);
