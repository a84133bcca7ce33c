import type { ToolDefinition } from "../tool.ts";
import { answerQuestionTool } from "./answer-question.ts";
import { getDocumentTool } from "./get-document.ts";
import { getProvisionTool } from "./get-provision.ts";
import { listAgreementsTool } from "./list-agreements.ts";
import { listChangesTool } from "./list-changes.ts";
import { listDomainsTool } from "./list-domains.ts";
import { resolveCitationTool } from "./resolve-citation.ts";
import { searchProvisionsTool } from "./search-provisions.ts";

/** Every tool the MCP server offers, in the order clients list them. */
export const TOOLS: ToolDefinition[] = [
  searchProvisionsTool,
  getProvisionTool,
  resolveCitationTool,
  getDocumentTool,
  listAgreementsTool,
  listDomainsTool,
  listChangesTool,
  answerQuestionTool,
] as unknown as ToolDefinition[];
