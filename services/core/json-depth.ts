import { AppError } from "./errors.ts";
/**
 * How deep untrusted JSON may nest. A canonical document nests its sections a few dozen levels at
 * most; 10,000 levels overflowed the stack of JSON.stringify (a 500). Checked without recursion,
 * so the check itself cannot overflow.
 */
export const MAX_JSON_DEPTH = 100;

/** True when a parsed JSON value nests arrays or objects deeper than `max` levels. */
export function jsonTooDeep(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== "object") continue;
    if (depth > max) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** Untrusted JSON nested thousands deep overflows the stack of whatever walks it next. */
export const deepBodyError = (body: unknown): AppError | undefined =>
  jsonTooDeep(body)
    ? new AppError("invalid_request", `body: nests deeper than ${MAX_JSON_DEPTH} levels`, "body")
    : undefined;
