import type { Command } from "commander";
import { AppError } from "../../services/core/errors.ts";
import { type AccountRole, listAccounts, setAccountRole } from "../../services/store/accounts.ts";
import { table } from "../output.ts";
import type { CliRuntime } from "../runtime.ts";

const ROLES: AccountRole[] = ["integrator", "editor"];

/** Console accounts: people sign up in the console; an operator makes corpus editors here. */
export function addAccountsCommands(program: Command, rt: CliRuntime): void {
  const accounts = program
    .command("accounts")
    .description("Console accounts (people sign up at /console/sign-up); editors see ingest runs there.");
  accounts.command("list").action(async () => {
    const rows = await rt.withStore(listAccounts);
    rt.out(
      table(
        ["e-mail", "role", "projects", "created"],
        rows.map((a) => [a.email, a.role, String(a.projects), a.createdAt.toISOString().slice(0, 16)]),
      ),
    );
  });
  accounts
    .command("role <email> <role>")
    .description(`Give an account a role: ${ROLES.join(" or ")}.`)
    .action(async (email: string, role: string) => {
      if (!ROLES.includes(role as AccountRole))
        throw new AppError("invalid_request", `role: unknown ${role}; expected ${ROLES.join(", ")}`, "role");
      const address = email.trim().toLowerCase();
      if (!(await rt.withStore((db) => setAccountRole(db, address, role as AccountRole))))
        throw new AppError("not_found", `no account ${address}`, "email");
      rt.out(`${address} is now ${role === "editor" ? "an editor" : "an integrator"}.`);
    });
}
