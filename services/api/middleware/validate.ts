import type { RequestHandler, Response } from "express";
import type { z } from "zod";
import { AppError } from "../../core/errors.ts";

type Part = "query" | "params" | "body";

/**
 * Validates one part of the request with the same zod schema the OpenAPI document is generated
 * from; the first issue becomes a 400 that names the field. The parsed value is kept in
 * res.locals[part] (Express 5's req.query cannot be replaced).
 */
export function validate<S extends z.ZodType>(part: Part, schema: S): RequestHandler {
  return (req, res, next) => {
    const parsed = schema.safeParse(req[part] ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      // A query parameter is named as the client wrote it (`domains`, not `domains.1`).
      const field =
        (part === "query" ? String(issue.path[0] ?? "") : issue.path.map(String).join(".")) || part;
      return next(new AppError("invalid_request", `${field}: ${issue.message}`, field));
    }
    const control = controlCharacterAt(parsed.data);
    if (control) {
      const field = (part === "query" ? control.path[0] : control.path.join(".")) || part;
      return next(new AppError("invalid_request", `${field}: ${controlMessage(control.character)}`, field));
    }
    res.locals[part] = parsed.data;
    next();
  };
}

/**
 * Control characters: C0 but tab, line feed and carriage return, and DEL. No person writes them
 * in a query, a path or a question; PostgreSQL text cannot store NUL, and an escape character
 * (U+001B) searched for matches nothing. Refused here, in one place, with a 400 naming the field,
 * before any statement sees them.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

export const controlMessage = (character: string) =>
  `must not contain a control character (found U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")})`;

/** Where a value holds a control character, as a path of keys, and which; or undefined. */
export function controlCharacterAt(
  value: unknown,
  path: string[] = [],
): { path: string[]; character: string } | undefined {
  if (typeof value === "string") {
    const found = CONTROL.exec(value);
    return found ? { path, character: found[0] } : undefined;
  }
  if (value === null || typeof value !== "object") return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = controlCharacterAt(item, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

/** A path segment as the route read it, refused with a 400 naming it when it holds a control character. */
export function pathParameter(value: string | string[] | undefined, name: string): string {
  const text = Array.isArray(value) ? value.join("/") : String(value ?? "");
  const found = CONTROL.exec(text);
  if (found) throw new AppError("invalid_request", `${name}: ${controlMessage(found[0])}`, name);
  return text;
}

export function parsed<S extends z.ZodType>(res: Response, part: Part, _schema: S): z.infer<S> {
  return res.locals[part] as z.infer<S>;
}
