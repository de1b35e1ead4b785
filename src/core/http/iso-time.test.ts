import { describe, expect, it } from 'vitest';
import { isoTime } from './iso-time.js';

const utc = (year: number, ...rest: number[]) => {
  const date = new Date(Date.UTC(2000, 0, 1, ...(rest.slice(2) as [])));
  date.setUTCFullYear(year, rest[0] ?? 0, rest[1] ?? 1); // Date.UTC reads years 0–99 as 1900–1999
  return date;
};

describe('isoTime (toISOString in JavaScript)', () => {
  it('gives toISOString of random dates of the years 0000–9999, and of the edges', () => {
    const first = utc(0, 0, 1).getTime();
    const span = utc(9999, 11, 31, 23, 59, 59, 999).getTime() - first;
    const edges = [
      utc(0, 0, 1), utc(9999, 11, 31, 23, 59, 59, 999), new Date(0), new Date(-1), utc(999, 11, 31, 23, 59, 59, 999), utc(1000, 0, 1),
      utc(2000, 1, 29, 12), utc(1900, 1, 28, 23, 59, 59, 999), utc(1900, 2, 1), utc(2100, 2, 1), utc(2400, 1, 29), utc(2026, 10, 26, 8, 0, 0, 5),
    ];
    const dates = [...edges, ...Array.from({ length: 100_000 }, () => new Date(first + Math.floor(Math.random() * span)))];
    const wrong = dates.filter((date) => isoTime(date) !== date.toISOString()).map((date) => date.toISOString());
    expect(wrong).toEqual([]);
  });

  it('leaves other years and invalid dates to toISOString', () => {
    expect(isoTime(new Date(Date.UTC(10_000, 0, 1)))).toBe('+010000-01-01T00:00:00.000Z');
    expect(isoTime(utc(-1, 5, 1))).toBe('-000001-06-01T00:00:00.000Z');
    expect(() => isoTime(new Date(Number.NaN))).toThrow(RangeError);
  });
});
