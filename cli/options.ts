import { AppError } from "../services/core/errors.ts";

/** Option parsers the command groups share. */

/** `--x a,b --x c`: a list, comma-separated or repeated. */
export const list = (value: string, previous: string[] = []) => [
  ...previous,
  ...value
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean),
];

/** The values given, each one of `allowed`; an unknown one is a usage error naming the option. */
export function checked<T extends string>(
  values: string[] | undefined,
  allowed: readonly T[],
  field: string,
): T[] | undefined {
  const unknown = values?.filter((v) => !(allowed as readonly string[]).includes(v)) ?? [];
  if (unknown.length)
    throw new AppError(
      "invalid_request",
      `--${field}: unknown ${unknown.join(", ")}; expected ${allowed.join(", ")}`,
      field,
    );
  return values as T[] | undefined;
}
