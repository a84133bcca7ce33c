/**
 * LEGI dates. Articles carry epoch milliseconds at UTC midnight; the code index carries ISO
 * instants at Paris midnight. Both use 2999-01-01 to mean "no end", which we store as null.
 */
const OPEN_ENDED_YEAR = 2999;

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
  return Number(date.slice(0, 4)) >= OPEN_ENDED_YEAR ? null : date;
}
