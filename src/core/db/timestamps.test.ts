import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { parseTimestamptz } from './timestamps.js';

const pgParser = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ, 'text') as (text: string) => Date | number;
const same = (text: string) => {
  const ours = parseTimestamptz(text);
  const theirs = pgParser(text);
  expect(ours instanceof Date ? ours.getTime() : ours, text).toEqual(theirs instanceof Date ? theirs.getTime() : theirs);
};

describe('parseTimestamptz', () => {
  it('reads what PostgreSQL writes as pg does, fraction digits 0 to 6 included', () => {
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const two = (v: number) => String(v).padStart(2, '0');
    for (let i = 0; i < 20_000; i++) {
      const year = 1000 + Math.floor(random() * 9000);
      const digits = Math.floor(random() * 7);
      const fraction = digits === 0 ? '' : `.${String(Math.floor(random() * 10 ** digits)).padStart(digits, '0')}`;
      same(`${year}-${two(1 + Math.floor(random() * 12))}-${two(1 + Math.floor(random() * 28))} ${two(Math.floor(random() * 24))}:${two(Math.floor(random() * 60))}:${two(Math.floor(random() * 60))}${fraction}+00`);
    }
  });

  it('hands every other form to pg: offsets, BC, infinity, years before 1000 or after 9999', () => {
    for (const text of ['2024-06-01 10:30:00+05:30', '2024-06-01 10:30:00.5-07', '0044-03-15 12:00:00+00 BC', '0099-01-01 00:00:00+00', '0999-12-31 23:59:59.999999+00', '12024-06-01 10:30:00+00', 'infinity', '-infinity', '2024-06-01 10:30:00+00:00']) {
      same(text);
    }
  });

  it('is what the application pool reads a timestamptz column with', async () => {
    const { createTestApp } = await import('../../../test/harness.js');
    const t = await createTestApp();
    try {
      const values = ['2024-06-01 10:30:00.123456+00', '1999-12-31 23:59:59+00', '0044-03-15 12:00:00+00 BC', 'infinity'];
      const read = async (pool: pg.Pool) => (await pool.query({ name: 'timestamps_probe', text: 'SELECT v::timestamptz AS v FROM unnest($1::text[]) v', values: [values] })).rows.map((r) => (r.v instanceof Date ? r.v.getTime() : r.v));
      expect(await read(t.database.pool)).toEqual(await read(t.database.owner.pool));
      expect((await read(t.database.pool))[0]).toBe(Date.UTC(2024, 5, 1, 10, 30, 0, 123));
    } finally {
      await t.close();
    }
  });
});
