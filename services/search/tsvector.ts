/**
 * Postgres's tsvector text output, read in JavaScript: `'accord':3B,7C 'l1237-11':1A 'salari':9`.
 * Each lexeme is quoted ('' stands for a quote, a backslash escapes the next character); its
 * positions follow a colon, each with its weight letter, none meaning D. Pure.
 */

/** Weights as Postgres numbers them internally: D 0, C 1, B 2, A 3. */
export const WEIGHT = { D: 0, C: 1, B: 2, A: 3 } as const;

export interface TsvectorEntry {
  lexeme: string;
  /** Position × 4 + weight, ascending: a position fits 14 bits (Postgres caps it at 16383). */
  positions: number[];
}

export const positionOf = (packed: number) => packed >> 2;
export const weightOf = (packed: number) => packed & 3;

export function parseTsvector(text: string): TsvectorEntry[] {
  const entries: TsvectorEntry[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && text[i] === " ") i += 1;
    if (i >= n) break;
    if (text[i] !== "'") throw new Error(`tsvector: expected a quoted lexeme at ${i}`);
    i += 1;
    let lexeme = "";
    for (;;) {
      if (i >= n) throw new Error("tsvector: unterminated lexeme");
      const c = text[i]!;
      if (c === "\\") {
        lexeme += text[i + 1] ?? "";
        i += 2;
      } else if (c === "'") {
        if (text[i + 1] === "'") {
          lexeme += "'";
          i += 2;
        } else {
          i += 1;
          break;
        }
      } else {
        lexeme += c;
        i += 1;
      }
    }
    const positions: number[] = [];
    if (text[i] === ":") {
      i += 1;
      for (;;) {
        let position = 0;
        while (i < n && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) {
          position = position * 10 + text.charCodeAt(i) - 48;
          i += 1;
        }
        const letter = text[i];
        let weight: number = WEIGHT.D;
        if (letter === "A" || letter === "B" || letter === "C" || letter === "D") {
          weight = WEIGHT[letter];
          i += 1;
        }
        positions.push(position * 4 + weight);
        if (text[i] !== ",") break;
        i += 1;
      }
    }
    entries.push({ lexeme, positions });
  }
  return entries;
}
