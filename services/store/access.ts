import { AppError } from "../core/errors.ts";
import type { Queryable } from "./database.ts";

/** Projects, plans and API keys: SQL only; the rules live in services/access. */

/** Revoking a key notifies this channel with its lookup id (API processes evict their cached copy). */
export const KEY_REVOKED_CHANNEL = "lc_api_key_revoked";

export interface PlanRow {
  name: string;
  requestsPerMinute: number;
  requestsPerMonth: number;
  answerEnabled: boolean;
  description: string;
}

export interface ProjectRow {
  id: number;
  name: string;
  plan: string;
  /** The console account that owns it; null for projects made with the CLI. */
  ownerAccountId: number | null;
  createdAt: Date;
}

export interface ApiKeyRow {
  id: number;
  projectId: number;
  projectName: string;
  plan: string;
  lookupId: string;
  secretHash: string;
  scopes: string[];
  domains: string[] | null;
  label: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

type Row = Record<string, unknown>;

const toPlan = (r: Row): PlanRow => ({
  name: r.name as string,
  requestsPerMinute: r.requests_per_minute as number,
  requestsPerMonth: r.requests_per_month as number,
  answerEnabled: r.answer_enabled as boolean,
  description: r.description as string,
});

const toProject = (r: Row): ProjectRow => ({
  id: r.id as number,
  name: r.name as string,
  plan: r.plan as string,
  ownerAccountId: (r.owner_account_id as number | null) ?? null,
  createdAt: new Date(r.created_at as string),
});

const toKey = (r: Row): ApiKeyRow => ({
  id: r.id as number,
  projectId: r.project_id as number,
  projectName: r.project_name as string,
  plan: r.plan as string,
  lookupId: r.lookup_id as string,
  secretHash: r.secret_hash as string,
  scopes: r.scopes as string[],
  domains: (r.domains as string[] | null) ?? null,
  label: (r.label as string | null) ?? null,
  createdAt: new Date(r.created_at as string),
  lastUsedAt: r.last_used_at ? new Date(r.last_used_at as string) : null,
  revokedAt: r.revoked_at ? new Date(r.revoked_at as string) : null,
});

export async function findPlan(db: Queryable, name: string): Promise<PlanRow | undefined> {
  const { rows } = await db.query("SELECT * FROM plans WHERE name = $1", [name]);
  return rows[0] ? toPlan(rows[0]) : undefined;
}

export async function insertProject(
  db: Queryable,
  name: string,
  plan: string,
  ownerAccountId: number | null = null,
): Promise<ProjectRow | undefined> {
  const { rows } = await db.query(
    `INSERT INTO projects (name, plan, owner_account_id) VALUES ($1, $2, $3)
     ON CONFLICT ((coalesce(owner_account_id, 0)), name) DO NOTHING RETURNING *`,
    [name, plan, ownerAccountId],
  );
  return rows[0] ? toProject(rows[0]) : undefined;
}

export async function findProjectById(db: Queryable, id: number): Promise<ProjectRow | undefined> {
  const { rows } = await db.query("SELECT * FROM projects WHERE id = $1", [id]);
  return rows[0] ? toProject(rows[0]) : undefined;
}

export async function listProjectsOwnedBy(db: Queryable, accountId: number): Promise<ProjectRow[]> {
  const { rows } = await db.query("SELECT * FROM projects WHERE owner_account_id = $1 ORDER BY name", [
    accountId,
  ]);
  return rows.map(toProject);
}

/**
 * A project named as an operator names it: `#12` is the project with id 12; a name is the one
 * project of that name, refused (400 naming `project`) when several owners chose it (migration
 * 015): the error lists their ids.
 */
export async function findProjectByName(db: Queryable, ref: string): Promise<ProjectRow | undefined> {
  const byId = /^#(\d{1,9})$/.exec(ref);
  if (byId) return findProjectById(db, Number(byId[1]));
  const { rows } = await db.query("SELECT * FROM projects WHERE name = $1 ORDER BY id", [ref]);
  if (rows.length > 1)
    throw new AppError(
      "invalid_request",
      `project: ${rows.length} projects are called "${ref}" (owned by different accounts): name one by id, ${rows.map((r) => `#${r.id}`).join(" or ")}`,
      "project",
    );
  return rows[0] ? toProject(rows[0]) : undefined;
}

export async function listProjects(db: Queryable): Promise<ProjectRow[]> {
  return (await db.query("SELECT * FROM projects ORDER BY name")).rows.map(toProject);
}

export async function insertApiKey(
  db: Queryable,
  key: {
    projectId: number;
    lookupId: string;
    secretHash: string;
    scopes: string[];
    domains: string[] | null;
    label: string | null;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO api_keys (project_id, lookup_id, secret_hash, scopes, domains, label)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [key.projectId, key.lookupId, key.secretHash, key.scopes, key.domains, key.label],
  );
}

const KEY_SELECT = `SELECT k.*, p.name AS project_name, p.plan FROM api_keys k JOIN projects p ON p.id = k.project_id`;

export async function findApiKeyByLookupId(db: Queryable, lookupId: string): Promise<ApiKeyRow | undefined> {
  const { rows } = await db.query(`${KEY_SELECT} WHERE k.lookup_id = $1`, [lookupId]);
  return rows[0] ? toKey(rows[0]) : undefined;
}

export async function listApiKeys(db: Queryable, projectName?: string): Promise<ApiKeyRow[]> {
  const { rows } = projectName
    ? await db.query(`${KEY_SELECT} WHERE p.name = $1 ORDER BY k.created_at`, [projectName])
    : await db.query(`${KEY_SELECT} ORDER BY p.name, k.created_at`);
  return rows.map(toKey);
}

/** Returns false when there is no such key or it was already revoked. */
export async function revokeApiKey(db: Queryable, lookupId: string): Promise<boolean> {
  // The notification tells every API process to forget its cached copy of the key at once.
  const { rows } = await db.query(
    `WITH revoked AS (
       UPDATE api_keys SET revoked_at = now() WHERE lookup_id = $1 AND revoked_at IS NULL RETURNING lookup_id)
     SELECT pg_notify($2, lookup_id) FROM revoked`,
    [lookupId, KEY_REVOKED_CHANNEL],
  );
  return rows.length > 0;
}

export async function touchApiKey(db: Queryable, id: number): Promise<void> {
  await db.query("UPDATE api_keys SET last_used_at = now() WHERE id = $1", [id]);
}
