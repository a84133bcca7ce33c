import type { RequestHandler, Response } from "express";
import { z } from "zod";
import { CONTROL_CHARACTER, controlCharacterAt, controlMessage } from "../../core/control-characters.ts";
import { AppError } from "../../core/errors.ts";
import { deepBodyError } from "../../core/json-depth.ts";

type Part = "query" | "params" | "body";

/**
 * Validates one part of the request with the same zod schema the OpenAPI document is generated
 * from; the first issue becomes a 400 that names the field. The parsed value is kept in
 * res.locals[part] (Express 5's req.query cannot be replaced).
 */
export function validate<S extends z.ZodType>(part: Part, schema: S): RequestHandler {
  return (req, res, next) => {
    // A body arrives only as JSON: anything else (no Content-Type, a form) leaves req.body unset.
    if (part === "body" && (req.body === undefined || req.body === null || typeof req.body !== "object"))
      return next(new AppError("invalid_request", `body: ${BODY_MESSAGE}`, "body"));
    const deep = part === "body" ? deepBodyError(req.body) : undefined;
    if (deep) return next(deep);
    const parsed = schema.safeParse(req[part] ?? {}, { error: plainMessage });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      if (issue.code === "unrecognized_keys") {
        const field = issue.keys[0]!;
        const known = "shape" in schema ? Object.keys(schema.shape as object) : [];
        const noun = part === "query" ? "parameter" : "field";
        const message = `unknown ${noun}; ${known.length ? `known: ${known.join(", ")}` : "this endpoint takes none"}`;
        return next(new AppError("invalid_request", `${field}: ${message}`, field));
      }
      // A query parameter is named as the client wrote it (`domains`, not `domains.1`).
      const field =
        (part === "query" ? String(issue.path[0] ?? "") : issue.path.map(String).join(".")) || part;
      // `limit=5&limit=6`: Express reads an array where one value was expected.
      const repeated =
        part === "query" &&
        issue.code === "invalid_type" &&
        Array.isArray((req.query as Record<string, unknown>)[field]);
      const message = repeated ? "must be given once" : issue.message;
      return next(new AppError("invalid_request", `${field}: ${message}`, field));
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

const BODY_MESSAGE = "must be a JSON object, sent with Content-Type: application/json";

const TYPE_WORDS: Record<string, string> = {
  string: "text",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  object: "a JSON object",
  array: "a list",
};

/**
 * What a field must be, in plain words, for each kind of zod issue ("must be a whole number",
 * "must be at most 500 characters", "must be one of: added, amended, repealed"), instead of the
 * validator's own text ("expected number, received NaN", "Too small"). A schema's own message
 * (a refinement's, `min(3, "is required…")`) wins over these; an issue not listed here keeps zod's.
 */
export function plainMessage(issue: z.core.$ZodRawIssue): string | undefined {
  const plural = (n: number | bigint, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "is required";
      return `must be ${TYPE_WORDS[issue.expected] ?? issue.expected}`;
    case "too_small": {
      const at = issue.inclusive === false ? "more than" : "at least";
      if (issue.origin === "string")
        return Number(issue.minimum) <= 1
          ? "must not be empty"
          : `must be ${at} ${plural(issue.minimum, "character")}`;
      if (issue.origin === "array" || issue.origin === "set")
        return `must hold ${at} ${plural(issue.minimum, "value")}`;
      return `must be ${at} ${issue.minimum}`;
    }
    case "too_big": {
      const at = issue.inclusive === false ? "less than" : "at most";
      if (issue.origin === "string") return `must be ${at} ${plural(issue.maximum, "character")}`;
      if (issue.origin === "array" || issue.origin === "set")
        return `must hold ${at} ${plural(issue.maximum, "value")}`;
      return `must be ${at} ${issue.maximum}`;
    }
    case "invalid_format":
      if (issue.format === "date") return "must be a date, YYYY-MM-DD";
      if (issue.format === "datetime") return "must be a date and time, ISO 8601 (2024-01-01T00:00:00Z)";
      if (issue.format === "url") return "must be a URL";
      if (issue.format === "email") return "must be an email address";
      return `must be a valid ${issue.format}`;
    case "invalid_value":
      return `must be one of: ${issue.values.map(String).join(", ")}`;
    default:
      return undefined;
  }
}

/**
 * For endpoints that take no query parameter: one given is a 400 naming it, as on every endpoint
 * (a misspelt `limt=5` must not be silently ignored).
 */
export const noQuery = (): RequestHandler => validate("query", z.object({}).strict());

/** A path segment as the route read it, refused with a 400 naming it when it holds a control character. */
export function pathParameter(value: string | string[] | undefined, name: string): string {
  const text = Array.isArray(value) ? value.join("/") : String(value ?? "");
  const found = CONTROL_CHARACTER.exec(text);
  if (found) throw new AppError("invalid_request", `${name}: ${controlMessage(found[0])}`, name);
  return text;
}

export function parsed<S extends z.ZodType>(res: Response, part: Part, _schema: S): z.infer<S> {
  return res.locals[part] as z.infer<S>;
}
