const DATE_OID = 1082;
const INT8_OID = 20;
const NUMERIC_OID = 1700;

/**
 * How both stores read column values: dates stay `YYYY-MM-DD` strings (no time zone games), counts
 * become numbers. Its own module because the embedded store's worker thread needs it too.
 */
export const parsers: Record<number, (value: string) => unknown> = {
  [DATE_OID]: (value: string) => value,
  [INT8_OID]: (value: string) => Number(value),
  [NUMERIC_OID]: (value: string) => Number(value),
};
