import { z } from "zod";
import { isoDateParam } from "../../params.ts";

export const provisionQuerySchema = z
  .object({
    as_of: isoDateParam
      .optional()
      .meta({ description: "Read the provision as it was in force on this day." }),
  })
  .strict();

export const diffQuerySchema = z
  .object({
    from: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .meta({ description: "Version id to compare from; default: the version before `to`." }),
    to: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .meta({ description: "Version id to compare to; default: the current version." }),
  })
  .strict();
