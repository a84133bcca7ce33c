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
    const nul = nulCharacterAt(parsed.data);
    if (nul) {
      const field = (part === "query" ? nul[0] : nul.join(".")) || part;
      return next(new AppError("invalid_request", `${field}: ${NUL_MESSAGE}`, field));
    }
    res.locals[part] = parsed.data;
    next();
  };
}

const NUL_MESSAGE = "must not contain a NUL character (U+0000)";

/**
 * Where a value holds U+0000, as a path of keys, or undefined. PostgreSQL text cannot store NUL,
 * so a NUL anywhere in a request is the client's error: refused with a 400 naming the field
 * before any statement sees it.
 */
export function nulCharacterAt(value: unknown, path: string[] = []): string[] | undefined {
  if (typeof value === "string") return value.includes("\u0000") ? path : undefined;
  if (value === null || typeof value !== "object") return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = nulCharacterAt(item, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

/** A path segment as the route read it, refused with a 400 naming it when it holds a NUL. */
export function pathParameter(value: string | string[] | undefined, name: string): string {
  const text = Array.isArray(value) ? value.join("/") : String(value ?? "");
  if (text.includes("\u0000")) throw new AppError("invalid_request", `${name}: ${NUL_MESSAGE}`, name);
  return text;
}

export function parsed<S extends z.ZodType>(res: Response, part: Part, _schema: S): z.infer<S> {
  return res.locals[part] as z.infer<S>;
}
