import type { Response } from "express";
import type { z } from "zod";
import { AppError } from "../core/errors.ts";
import type { AccountRow } from "../store/accounts.ts";
import type { FieldErrors } from "./views/layout.ts";

/** The first problem of each form field, as the page shows it beside the field. */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "form");
    errors[field] ??= issue.message;
  }
  return errors;
}

export function currentAccount(res: Response): AccountRow {
  const account = res.locals.account as AccountRow | undefined;
  if (!account) throw new AppError("unauthorized", "Sign in to see this page.");
  return account;
}
