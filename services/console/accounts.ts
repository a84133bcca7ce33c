import { createHash, randomBytes } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import { z } from "zod";
import {
  type AccountRow,
  deleteSession,
  findAccountByEmail,
  findSessionAccount,
  insertAccount,
  insertSession,
} from "../store/accounts.ts";
import type { Database } from "../store/database.ts";

/**
 * Console accounts: sign-up, sign-in and sessions. Passwords are hashed with Argon2id
 * (@node-rs/argon2, OWASP's parameters: 19 MiB, 2 passes); a session is a random token in an
 * HttpOnly cookie, of which the database keeps only the SHA-256, so a copy of the database opens
 * no session.
 */

export const SESSION_HOURS = 12;

export const credentialsSchema = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .max(254, "at most 254 characters")
    .pipe(z.email("an e-mail address such as name@example.org")),
  password: z.string().min(12, "at least 12 characters").max(200, "at most 200 characters"),
});
export type Credentials = z.infer<typeof credentialsSchema>;

export type SignUpResult = { account: AccountRow } | { taken: true };

export async function signUp(db: Database, credentials: Credentials): Promise<SignUpResult> {
  const account = await insertAccount(db, credentials.email, await hash(credentials.password));
  return account ? { account } : { taken: true };
}

/** A hash of nothing, verified when the address is unknown, so both failures take as long. */
let unknownAccountHash: Promise<string> | undefined;

/** The account, or undefined for an unknown address or a wrong password (the caller cannot tell which). */
export async function signIn(db: Database, credentials: Credentials): Promise<AccountRow | undefined> {
  const account = await findAccountByEmail(db, credentials.email);
  unknownAccountHash ??= hash(randomBytes(16).toString("hex"));
  const matches = await verify(account?.passwordHash ?? (await unknownAccountHash), credentials.password);
  return account && matches ? account : undefined;
}

const tokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

/** Starts a session; the token goes into the cookie and nowhere else. */
export async function startSession(db: Database, account: AccountRow): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await insertSession(db, tokenHash(token), account.id, new Date(Date.now() + SESSION_HOURS * 3_600_000));
  return token;
}

export async function sessionAccount(
  db: Database,
  token: string | undefined,
): Promise<AccountRow | undefined> {
  return token ? findSessionAccount(db, tokenHash(token)) : undefined;
}

/** Ends the session (and sweeps expired ones). */
export async function endSession(db: Database, token: string | undefined): Promise<void> {
  if (token) await deleteSession(db, tokenHash(token));
}
