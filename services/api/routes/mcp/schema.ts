import { z } from "zod";

/** For the OpenAPI document: the SDK validates the messages themselves. */
export const jsonRpcMessageSchema = z
  .object({
    jsonrpc: z.literal("2.0"),
    id: z.union([z.string(), z.number()]).optional().meta({ description: "Absent on notifications." }),
    method: z.string().optional().meta({ example: "tools/call" }),
    params: z.record(z.string(), z.unknown()).optional(),
    result: z.record(z.string(), z.unknown()).optional(),
    error: z.object({ code: z.number(), message: z.string(), data: z.unknown().optional() }).optional(),
  })
  .meta({ id: "JsonRpcMessage", description: "A JSON-RPC 2.0 message of the Model Context Protocol." });
