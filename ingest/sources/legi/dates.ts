/**
 * LEGI dates. Articles carry epoch milliseconds at UTC midnight; the code index carries ISO
 * instants at Paris midnight. Two dates are placeholders, not days: 2999-01-01 means "no end",
 * and 2222-02-22 "a date not yet known" (the end of an article whose repeal is scheduled,
 * ABROGE_DIFF, before the day is fixed). Both, and anything later, are stored as null: no date.
 * No act of French law is dated that far ahead.
 */
const FIRST_PLACEHOLDER = "2222-02-22";

const parisDate = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Europe/Paris",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

export function legiDate(value: number | string | null | undefined): string | null {
  if (value === null || value === undefined || value === "") return null;
  let date: string;
  if (typeof value === "number") {
    date = new Date(value).toISOString().slice(0, 10);
  } else if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    date = value;
  } else {
    const instant = new Date(value);
    if (Number.isNaN(instant.getTime())) return null;
    date = parisDate.format(instant);
  }
  return date >= FIRST_PLACEHOLDER ? null : date;
}
