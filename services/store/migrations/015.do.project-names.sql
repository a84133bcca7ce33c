-- A project's name was unique across the service, so the console answered "this name is taken"
-- for a name another account had chosen: one account learnt the project names of others (issue
-- 18, item 23). A name is now unique per owner: among each console account's projects, and among
-- the projects made with the CLI (no owner, 0 below; accounts are numbered from 1). The CLI
-- names a project by name, or by id (#12) when several owners chose the same name.
ALTER TABLE projects DROP CONSTRAINT projects_name_key;
CREATE UNIQUE INDEX projects_owner_name ON projects ((coalesce(owner_account_id, 0)), name);
