-- The web console (services/console): integrators' and editors' accounts, their sign-in sessions,
-- the projects an account owns, and requests per project and day for the usage chart.
-- A password is kept only as its Argon2id hash; a session cookie's token only as its SHA-256.

CREATE TABLE accounts (
  id             integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email          text NOT NULL UNIQUE CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 254),
  password_hash  text NOT NULL,
  role           text NOT NULL DEFAULT 'integrator' CHECK (role IN ('integrator', 'editor')),
  created_at     timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE console_sessions (
  token_hash  text PRIMARY KEY,
  account_id  integer NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL
);
CREATE INDEX console_sessions_account ON console_sessions (account_id);

-- NULL: a project made with the CLI, which no console account sees.
ALTER TABLE projects ADD COLUMN owner_account_id integer REFERENCES accounts (id) ON DELETE SET NULL;
CREATE INDEX projects_owner ON projects (owner_account_id);

-- Written in batches by each API process (services/access/usage-meter.ts).
CREATE TABLE usage_daily (
  project_id  integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  day         date NOT NULL,
  requests    bigint NOT NULL CHECK (requests >= 0),
  PRIMARY KEY (project_id, day)
);
