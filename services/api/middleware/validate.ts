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
    res.locals[part] = parsed.data;
    next();
  };
}

export function parsed<S extends z.ZodType>(res: Response, part: Part, _schema: S): z.infer<S> {
  return res.locals[part] as z.infer<S>;
}
