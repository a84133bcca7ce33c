/**
 * Control characters: C0 but tab, line feed and carriage return, and DEL. No person writes them
 * in a query, a path or a question; PostgreSQL text cannot store NUL, and an escape character
 * (U+001B) searched for matches nothing. Refused by the API's validation and by the MCP tools alike, with a 400 naming the field, before
 * any statement sees them.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
export const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

export const controlMessage = (character: string) =>
  `must not contain a control character (found U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")})`;

/** Where a value holds a control character, as a path of keys, and which; or undefined. */
export function controlCharacterAt(
  value: unknown,
  path: string[] = [],
): { path: string[]; character: string } | undefined {
  if (typeof value === "string") {
    const found = CONTROL_CHARACTER.exec(value);
    return found ? { path, character: found[0] } : undefined;
  }
  if (value === null || typeof value !== "object") return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = controlCharacterAt(item, [...path, key]);
    if (found) return found;
  }
  return undefined;
}
