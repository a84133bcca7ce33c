import type { z } from "zod";
import type { Principal } from "../access/keys.ts";
import type { Scope } from "../access/scopes.ts";
import type { Meta } from "../presenters/envelope.ts";
import type { AppContext } from "../runtime/context.ts";
import type { PlanRow } from "../store/access.ts";
import type { CallGate } from "./call-gate.ts";

/** What a tool runs with: the service, the calling key and its plan, and the meta every result carries. */
export interface ToolEnv {
  ctx: AppContext;
  who: Principal;
  plan: PlanRow;
  meta: Meta;
  /** The request's share of the service: every tool call runs through it (call-gate.ts). */
  gate: CallGate;
}

/**
 * One MCP tool: its scope, a zod input (every field described), an output schema for its
 * structured content, and what it does. server.ts registers them all the same way.
 */
export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  scope: Scope;
  input: I;
  output: O;
  run(env: ToolEnv, input: z.output<I>): Promise<z.infer<O>>;
}

export const defineTool = <I extends z.ZodObject, O extends z.ZodObject>(tool: ToolDefinition<I, O>) => tool;
