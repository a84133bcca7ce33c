/**
 * The most a tool result may hold, in characters of its JSON (the structured content; the text
 * copy MCP asks for repeats it). Past it an agent's context fills with one answer: tools page
 * their results to stay under it (get_document), and any result still over is refused with the
 * way to ask for less (server.ts).
 */
export const MAX_TOOL_RESULT_CHARS = 100_000;
