/**
 * Postgres COPY text format (the default format of `COPY … FROM`), built up row by row.
 * One value per column, tab-separated, one row per line; `\N` is NULL.
 * https://www.postgresql.org/docs/current/sql-copy.html#id-1.9.3.55.9.2
 */

export type CopyValue = string | number | boolean | null | string[];

/** Backslash, newline, carriage return and tab are the characters the text format reserves. */
const RESERVED = /[\\\n\r\t]/g;
const ESCAPED: Record<string, string> = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escapeText(value: string): string {
  return value.replace(RESERVED, (c) => ESCAPED[c]!);
}

/** `{"a","b\"c"}`: every element quoted, so commas, braces and spaces inside need no thought. */
function arrayLiteral(values: string[]): string {
  return `{${values.map((v) => `"${v.replace(/["\\]/g, "\\$&")}"`).join(",")}}`;
}

function field(value: CopyValue): string {
  if (value === null) return "\\N";
  if (Array.isArray(value)) return escapeText(arrayLiteral(value));
  return escapeText(String(value));
}

function columnValue(row: Record<string, CopyValue>, column: string, table: string): CopyValue {
  const value = row[column];
  if (value === undefined) throw new Error(`${table}: the row has no value for column ${column}`);
  return value;
}

/** Rows are grouped into chunks of about this many characters: few, large writes to the database. */
const CHUNK_CHARS = 1 << 20;

/** The COPY payload of one table: its column list and its rows, already encoded. */
export class CopyTable {
  private readonly chunks: string[] = [];
  rows = 0;
  private pending: string[] = [];
  private pendingChars = 0;

  readonly columns: readonly string[];

  /** `columns`: the column names, separated by spaces. */
  constructor(
    readonly table: string,
    columns: string,
  ) {
    this.columns = columns.trim().split(/\s+/);
  }

  /** Adds one row; its keys are the column names (a missing one is a bug, not a NULL). */
  add(row: Record<string, CopyValue>): void {
    const line = `${this.columns.map((column) => field(columnValue(row, column, this.table))).join("\t")}\n`;
    this.pending.push(line);
    this.pendingChars += line.length;
    this.rows += 1;
    if (this.pendingChars >= CHUNK_CHARS) this.flush();
  }

  /** The encoded rows, in order; call once every row has been added. */
  finish(): string[] {
    this.flush();
    return this.chunks;
  }

  /** `COPY <table> (<columns>) FROM <source>`, text format. */
  copySql(source: "STDIN" | "'/dev/blob'"): string {
    return `COPY ${this.table} (${this.columns.join(", ")}) FROM ${source}`;
  }

  private flush() {
    if (this.pending.length === 0) return;
    this.chunks.push(this.pending.join(""));
    this.pending = [];
    this.pendingChars = 0;
  }
}
