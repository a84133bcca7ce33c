import { z } from "zod";
import type { Domain } from "../core/domains.ts";
import { AppError } from "../core/errors.ts";
import {
  type ApiKeyRow,
  findApiKeyByLookupId,
  findPlan,
  findProjectById,
  findProjectByName,
  insertApiKey,
  insertProject,
  type ProjectRow,
  revokeApiKey,
} from "../store/access.ts";
import type { Database } from "../store/database.ts";
import { generateKey, hashSecret, parseKey, secretMatches } from "./api-key.ts";
import type { KeyCache } from "./key-cache.ts";
import { DEFAULT_SCOPES, type Scope } from "./scopes.ts";

/** Who is calling: what a route needs to authorize, never the secret. */
export interface Principal {
  keyId: number;
  lookupId: string;
  projectId: number;
  projectName: string;
  plan: string;
  scopes: Scope[];
  /** Null: every domain. */
  domains: Domain[] | null;
}

/**
 * What a project may be called, in the console and the CLI alike: it names the calling
 * application in keys lists, usage and logs.
 */
export const projectNameSchema = z
  .string()
  .trim()
  .min(1, "give the project a name")
  .max(100, "at most 100 characters")
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} ._-]*$/u, "letters, digits, spaces, dots, dashes and underscores only");

/** A project on a plan; `ownerAccountId` is the console account that creates it (none from the CLI). */
export async function createProject(
  db: Database,
  requestedName: string,
  plan = "beta",
  ownerAccountId: number | null = null,
): Promise<ProjectRow> {
  const checked = projectNameSchema.safeParse(requestedName);
  if (!checked.success)
    throw new AppError("invalid_request", `name: ${checked.error.issues[0]!.message}`, "name");
  const name = checked.data;
  if (!(await findPlan(db, plan))) throw new AppError("invalid_request", `unknown plan "${plan}"`, "plan");
  // The insert itself decides (a unique name), so two requests at once cannot both create it.
  const project = await insertProject(db, name, plan, ownerAccountId);
  if (!project)
    throw new AppError(
      "invalid_request",
      ownerAccountId === null
        ? `name: a project made with the CLI is called "${name}" already`
        : `name: you have a project called "${name}" already`,
      "name",
    );
  return project;
}

export interface CreatedKey {
  /** Shown once, never stored. */
  key: string;
  lookupId: string;
  project: string;
  scopes: Scope[];
  domains: Domain[] | null;
}

export async function createKey(
  db: Database,
  hashKey: string,
  request: {
    /** A name or `#id` as the CLI takes it, or the id itself (the console, which knows it). */
    project: string | number;
    scopes?: Scope[] | undefined;
    domains?: Domain[] | undefined;
    label?: string | undefined;
  },
): Promise<CreatedKey> {
  const project =
    typeof request.project === "number"
      ? await findProjectById(db, request.project)
      : await findProjectByName(db, request.project);
  if (!project) throw new AppError("not_found", `no project "${request.project}"`, "project");
  const scopes = request.scopes?.length ? [...new Set(request.scopes)] : DEFAULT_SCOPES;
  const domains = request.domains?.length ? [...new Set(request.domains)] : null;
  const { key, lookupId, secret } = generateKey();
  await insertApiKey(db, {
    projectId: project.id,
    lookupId,
    secretHash: hashSecret(secret, hashKey),
    scopes,
    domains,
    label: request.label ?? null,
  });
  return { key, lookupId, project: project.name, scopes, domains };
}

export async function revokeKey(db: Database, lookupId: string): Promise<void> {
  if (!(await revokeApiKey(db, lookupId))) throw new AppError("not_found", `no active key ${lookupId}`, "id");
}

const unauthorized = () =>
  new AppError(
    "unauthorized",
    "Missing or invalid API key: send `Authorization: Bearer <API_KEY>` with an active key.",
  );

const UNKNOWN_KEY_HASH = "x".repeat(43);

const principalOf = (row: ApiKeyRow): Principal => ({
  keyId: row.id,
  lookupId: row.lookupId,
  projectId: row.projectId,
  projectName: row.projectName,
  plan: row.plan,
  scopes: row.scopes as Scope[],
  domains: row.domains as Domain[] | null,
});

/**
 * Resolves the Authorization header to a principal, or 401. Unknown, malformed, revoked and wrong
 * keys all get the same answer, so the response tells an attacker nothing.
 */
export async function authenticate(
  db: Database,
  hashKey: string,
  authorization: string | undefined,
  cache?: KeyCache,
): Promise<Principal> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  const parsed = match ? parseKey(match[1]!) : undefined;
  if (!parsed) throw unauthorized();
  const row = cache
    ? await cache.get(parsed.lookupId, (id) => findApiKeyByLookupId(db, id))
    : await findApiKeyByLookupId(db, parsed.lookupId);
  // Hash even when the lookup id is unknown, so both failures take the same time.
  const matches = secretMatches(parsed.secret, row?.secretHash ?? UNKNOWN_KEY_HASH, hashKey);
  if (!row || row.revokedAt || !matches) throw unauthorized();
  return principalOf(row);
}
