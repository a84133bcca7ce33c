import escapeHtml from "escape-html";

/**
 * Server-rendered HTML without a template engine: `html` is a tagged template that escapes every
 * interpolated value unless it is already Html (a fragment built the same way), so text typed by a
 * person (a project name, a key label) can never become markup.
 */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Part = Html | string | number | boolean | null | undefined | Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return "";
  if (part instanceof Html) return part.value;
  if (Array.isArray(part)) return part.map(render).join("");
  return escapeHtml(String(part));
}

export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!;
  });
  return new Html(out);
}

/** Dates as people read them, in UTC (the console says so), to the minute. */
export function when(date: Date | string | null | undefined): string {
  if (!date) return "never";
  const d = typeof date === "string" ? new Date(date) : date;
  return `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** 12,345 rather than 12345. */
export const count = (n: number) => n.toLocaleString("en-GB");
