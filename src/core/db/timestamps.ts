import pg from 'pg';

const pgParser = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ, 'text') as (text: string) => Date | number;

const at = (text: string, i: number) => text.charCodeAt(i);
const DASH = 45;
const SPACE = 32;
const COLON = 58;
const DOT = 46;
const PLUS = 43;
const ZERO = 48;

/** The number written by `count` digits from `from` (no substring, no conversion of one). */
function digits(text: string, from: number, count: number): number {
  let value = 0;
  for (let i = from; i < from + count; i++) value = value * 10 + at(text, i) - ZERO;
  return value;
}

/**
 * A `timestamptz` as PostgreSQL writes it to a session in UTC with DateStyle ISO
 * (`2024-06-01 10:30:00.123456+00`), read without regular expressions; every other form (another
 * offset, BC, ±infinity, a year before 1000 or after 9999) goes to pg's own parser. Gives the same
 * value as pg's parser (`timestamps.test.ts` compares them): on the feeds, pg's parser was 3–4% of
 * the service's CPU (two regular expressions per value).
 */
export function parseTimestamptz(text: string): Date | number {
  const n = text.length;
  if (
    n >= 22 && n <= 29 && at(text, n - 3) === PLUS && at(text, n - 2) === ZERO && at(text, n - 1) === ZERO &&
    at(text, 0) !== ZERO && at(text, 4) === DASH && at(text, 7) === DASH && at(text, 10) === SPACE && at(text, 13) === COLON && at(text, 16) === COLON &&
    (n === 22 || (n >= 24 && at(text, 19) === DOT))
  ) {
    // The fraction as pg reads it (1000 × parseFloat: Date.UTC truncates what is below a millisecond).
    const ms = n === 22 ? 0 : 1000 * parseFloat(text.slice(19, n - 3));
    return new Date(Date.UTC(digits(text, 0, 4), digits(text, 5, 2) - 1, digits(text, 8, 2), digits(text, 11, 2), digits(text, 14, 2), digits(text, 17, 2), ms));
  }
  return pgParser(text);
}

/** pg's type parsers with `parseTimestamptz` for timestamptz (a pool's `types`; Drizzle's queries bring their own). */
export const fastTypeParsers: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === pg.types.builtins.TIMESTAMPTZ && format !== 'binary' ? parseTimestamptz : pg.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
};
