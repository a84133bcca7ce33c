import { InputError } from "../../../services/core/errors.ts";
import { legiDate } from "./dates.ts";

/** An ISO date, or an instant (LEGI's index writes Paris midnight as UTC: 1973-01-02T23:00:00.000Z). */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Reads values out of a LEGI JSON file, which is only as well-formed as its producer made it: each
 * reader checks the kind of value it expects and refuses anything else with the file and the field
 * named, so a damaged file is an InputError, never a TypeError half-way through a code.
 */
export class RawReader {
  constructor(readonly file: string) {}

  fail(field: string, problem: string): never {
    throw new InputError(this.file, field, problem);
  }

  /** An object (a node, its data, a version, a link). */
  object(value: unknown, field: string): Record<string, unknown> {
    if (typeof value !== "object" || value === null || Array.isArray(value))
      this.fail(field, "expected an object");
    return value as Record<string, unknown>;
  }

  /** Text that may be absent: null, undefined and "" are null. */
  text(value: unknown, field: string): string | null {
    if (value === null || value === undefined || value === "") return null;
    if (typeof value !== "string") this.fail(field, `expected text, found ${JSON.stringify(value)}`);
    return value;
  }

  requiredText(value: unknown, field: string): string {
    const text = this.text(value, field);
    if (text === null || text.trim() === "") this.fail(field, "missing or empty");
    return text;
  }

  /** A list that may be absent (then empty). */
  list(value: unknown, field: string): unknown[] {
    if (value === null || value === undefined) return [];
    if (!Array.isArray(value)) this.fail(field, "expected a list");
    return value;
  }

  /** A LEGI date (epoch milliseconds or an ISO date or instant); null when absent or open-ended. */
  date(value: unknown, field: string): string | null {
    if (value === null || value === undefined || value === "") return null;
    const readable =
      (typeof value === "number" && Number.isFinite(new Date(value).getTime())) ||
      (typeof value === "string" && ISO_DATE.test(value) && Number.isFinite(new Date(value).getTime()));
    const date = readable ? legiDate(value as number | string) : undefined;
    // "100" is a year to Date, and epochs far from ours make years of 5 or 6 digits: neither is LEGI's.
    if (date === undefined || (date !== null && !/^\d{4}-\d{2}-\d{2}$/.test(date)))
      this.fail(field, `expected a date, found ${JSON.stringify(value)}`);
    return date;
  }
}
