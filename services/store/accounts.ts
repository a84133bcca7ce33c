import type { Queryable } from "./database.ts";

/** Console accounts, their sessions and daily usage: SQL only; the rules live in services/console. */

export type AccountRole = "integrator" | "editor";

export interface AccountRow {
  id: number;
  email: string;
  passwordHash: string;
  role: AccountRole;
  createdAt: Date;
}

type Row = Record<string, unknown>;

const toAccount = (r: Row): AccountRow => ({
  id: r.id as number,
  email: r.email as string,
  passwordHash: r.password_hash as string,
  role: r.role as AccountRole,
  createdAt: new Date(r.created_at as string),
});

/** Undefined when the address is taken already. */
export async function insertAccount(
  db: Queryable,
  email: string,
  passwordHash: string,
): Promise<AccountRow | undefined> {
  const { rows } = await db.query(
    `INSERT INTO accounts (email, password_hash) VALUES ($1, $2)
     ON CONFLICT (email) DO NOTHING RETURNING *`,
    [email, passwordHash],
  );
  return rows[0] ? toAccount(rows[0]) : undefined;
}

export async function findAccountByEmail(db: Queryable, email: string): Promise<AccountRow | undefined> {
  const { rows } = await db.query("SELECT * FROM accounts WHERE email = $1", [email]);
  return rows[0] ? toAccount(rows[0]) : undefined;
}

/** Returns false when there is no such account. */
export async function setAccountRole(db: Queryable, email: string, role: AccountRole): Promise<boolean> {
  const { rows } = await db.query("UPDATE accounts SET role = $2 WHERE email = $1 RETURNING id", [
    email,
    role,
  ]);
  return rows.length > 0;
}

export async function insertSession(
  db: Queryable,
  tokenHash: string,
  accountId: number,
  expiresAt: Date,
): Promise<void> {
  await db.query("INSERT INTO console_sessions (token_hash, account_id, expires_at) VALUES ($1, $2, $3)", [
    tokenHash,
    accountId,
    expiresAt,
  ]);
}

/** The account a live session belongs to; expired sessions are no sessions. */
export async function findSessionAccount(db: Queryable, tokenHash: string): Promise<AccountRow | undefined> {
  const { rows } = await db.query(
    `SELECT a.* FROM console_sessions s JOIN accounts a ON a.id = s.account_id
     WHERE s.token_hash = $1 AND s.expires_at > now()`,
    [tokenHash],
  );
  return rows[0] ? toAccount(rows[0]) : undefined;
}

export async function deleteSession(db: Queryable, tokenHash: string): Promise<void> {
  await db.query("DELETE FROM console_sessions WHERE token_hash = $1 OR expires_at <= now()", [tokenHash]);
}

/** Requests counted per project and UTC day since the last flush, added to what is stored. */
export async function addDailyUsage(
  db: Queryable,
  counts: Array<{ projectId: number; day: string; requests: number }>,
): Promise<void> {
  if (counts.length === 0) return;
  await db.query(
    `INSERT INTO usage_daily (project_id, day, requests)
     SELECT project_id, day, requests FROM unnest($1::int[], $2::date[], $3::bigint[]) AS u(project_id, day, requests)
     ON CONFLICT (project_id, day) DO UPDATE SET requests = usage_daily.requests + EXCLUDED.requests`,
    [counts.map((c) => c.projectId), counts.map((c) => c.day), counts.map((c) => c.requests)],
  );
}

/** Requests per day over the last `days` days (today included), zero-filled, oldest first. */
export async function dailyUsage(
  db: Queryable,
  projectId: number,
  days: number,
  today: string,
): Promise<Array<{ day: string; requests: number }>> {
  const { rows } = await db.query(
    `SELECT to_char(d, 'YYYY-MM-DD') AS day, coalesce(u.requests, 0)::int AS requests
     FROM generate_series($2::date - ($3::int - 1), $2::date, interval '1 day') AS d
     LEFT JOIN usage_daily u ON u.project_id = $1 AND u.day = d::date
     ORDER BY d`,
    [projectId, today, days],
  );
  return rows.map((r) => ({ day: r.day as string, requests: r.requests as number }));
}

export async function listAccounts(
  db: Queryable,
): Promise<Array<Omit<AccountRow, "passwordHash"> & { projects: number }>> {
  const { rows } = await db.query(
    `SELECT a.id, a.email, a.role, a.created_at, count(p.id)::int AS projects
     FROM accounts a LEFT JOIN projects p ON p.owner_account_id = a.id GROUP BY a.id ORDER BY a.email`,
  );
  return rows.map((r) => ({
    id: r.id as number,
    email: r.email as string,
    role: r.role as AccountRole,
    createdAt: new Date(r.created_at as string),
    projects: r.projects as number,
  }));
}
