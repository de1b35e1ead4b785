import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { scratchDatabase } from '../../../test/harness.js';
import { shareRowTemplates } from './result-fields.js';

const require = createRequire(import.meta.url);
const Result = require('pg/lib/result.js') as { prototype: { addFields: { toString(): string } } };

describe('shareRowTemplates (pg row templates built once per column list)', () => {
  beforeAll(() => shareRowTemplates());
  const scratch = scratchDatabase();

  it('is in place of pg’s own, which still builds a template per result (when pg stops, this patch may go)', () => {
    expect(Result.prototype.addFields.toString()).toContain('templateOf');
    const pgSource = readFileSync(require.resolve('pg/lib/result.js'), 'utf8');
    expect(pgSource).toMatch(/addFields\(fieldDescriptions\) \{[\s\S]*this\._prebuiltEmptyResultObject = \{ \.\.\.row \}/);
  });

  it('gives object rows as pg does: typed values, the last of duplicate names, a column called __proto__', async () => {
    const query = `SELECT 1::int AS a, 'x'::text AS b, NULL::text AS c, true AS d, 2::int AS a, 'p'::text AS "__proto__", '2024-06-01T10:30:00Z'::timestamptz AS at`;
    for (let round = 0; round < 2; round++) {
      const { rows, fields } = await scratch.pool.query(query);
      expect(fields.map((f) => f.name)).toEqual(['a', 'b', 'c', 'd', 'a', '__proto__', 'at']);
      expect(rows).toHaveLength(1);
      const row = rows[0] as Record<string, unknown>;
      expect(Object.keys(row)).toEqual(['a', 'b', 'c', 'd', '__proto__', 'at']);
      expect(row).toMatchObject({ a: 2, b: 'x', c: null, d: true });
      expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toBe('p');
      expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
      expect((row.at as Date).toISOString()).toBe('2024-06-01T10:30:00.000Z');
    }
  });

  it('gives each row its own object, though the column list’s template is shared', async () => {
    const { rows } = await scratch.pool.query('SELECT g AS n, g * 2 AS twice FROM generate_series(1, 3) g');
    expect(rows).toEqual([
      { n: 1, twice: 2 },
      { n: 2, twice: 4 },
      { n: 3, twice: 6 },
    ]);
    rows[0].n = 99;
    const again = await scratch.pool.query('SELECT g AS n, g * 2 AS twice FROM generate_series(1, 1) g');
    expect(again.rows).toEqual([{ n: 1, twice: 2 }]);
  });

  it('gives array rows in rowMode array, several result sets of one simple query, and results without columns', async () => {
    const arrays = await scratch.pool.query({ text: 'SELECT 1::int AS a, $1::text AS b', values: ['y'], rowMode: 'array' });
    expect(arrays.rows).toEqual([[1, 'y']]);
    expect(arrays.fields.map((f) => f.name)).toEqual(['a', 'b']);
    const several = (await scratch.pool.query('SELECT 1::int AS x; SELECT 2::int AS y, 3::int AS z')) as unknown as pg.QueryResult[];
    expect(several.map((r) => r.rows)).toEqual([[{ x: 1 }], [{ y: 2, z: 3 }]]);
    const none = await scratch.pool.query('CREATE TEMP TABLE IF NOT EXISTS t_none (v int)');
    expect(none.rows).toEqual([]);
    expect(none.fields).toEqual([]);
  });

  it('parses with the query’s own types when it gives them', async () => {
    const types = { getTypeParser: (oid: number, format?: string) => (oid === 23 ? (v: string) => `int:${v}` : pg.types.getTypeParser(oid, format as 'text')) };
    const { rows } = await scratch.pool.query({ text: 'SELECT 7::int AS n, 8::bigint AS big', types: types as pg.CustomTypesConfig });
    expect(rows).toEqual([{ n: 'int:7', big: '8' }]);
  });
});
