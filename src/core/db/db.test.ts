import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness.js';
import { migrateDatabase } from './migrate.js';
import { applySeeds, type Seed } from './seeds.js';

describe('migrations', () => {
  let target: TestDatabase;
  let pools: pg.Pool[];
  beforeAll(async () => {
    target = await createTestDatabase({ empty: true });
    pools = [new pg.Pool({ connectionString: target.url }), new pg.Pool({ connectionString: target.url })];
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
    await target.drop();
  });

  it('is safe when two processes migrate an empty database at once', async () => {
    await Promise.all(pools.map((pool) => migrateDatabase(pool)));
    const applied = await pools[0]!.query('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
    const tables = await pools[0]!.query("SELECT to_regclass('public.seed_runs') AS t");
    expect(applied.rows[0].n).toBeGreaterThan(0);
    expect(tables.rows[0].t).toBe('seed_runs');
  });

  it('is idempotent', async () => {
    const before = await pools[0]!.query('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
    await migrateDatabase(pools[1]!);
    const after = await pools[0]!.query('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });
});

describe('reference-data seeds', () => {
  let target: TestDatabase;
  let pool: pg.Pool;
  const runs: string[] = [];

  function fishSeed(version: number, names: string[]): Seed {
    return {
      name: 'test.fish',
      version,
      description: 'test fish',
      async run({ tx, progress }) {
        runs.push(`fish v${version}`);
        let done = 0;
        for (const name of names) {
          await tx.execute(`INSERT INTO test_fish (name, version) VALUES ('${name}', ${version}) ON CONFLICT (name) DO UPDATE SET version = EXCLUDED.version`);
          progress(++done, names.length);
        }
      },
    };
  }

  beforeAll(async () => {
    target = await createTestDatabase();
    pool = new pg.Pool({ connectionString: target.url });
    await pool.query('CREATE TABLE test_fish (name text PRIMARY KEY, version int NOT NULL)');
  });
  afterAll(async () => {
    await pool.end();
    await target.drop();
  });

  const fish = async () => (await pool.query('SELECT name, version FROM test_fish ORDER BY name')).rows;

  it('applies a new seed once and skips it while its version is current', async () => {
    const lines: string[] = [];
    const first = await applySeeds(pool, [fishSeed(1, ['bass', 'pike'])], { log: (l) => lines.push(l) });
    expect(first).toEqual({ applied: ['test.fish'], skipped: [] });
    expect(lines.some((l) => l.includes('seed test.fish: 2/2'))).toBe(true);
    const second = await applySeeds(pool, [fishSeed(1, ['bass', 'pike'])]);
    expect(second).toEqual({ applied: [], skipped: ['test.fish'] });
    expect(await fish()).toEqual([
      { name: 'bass', version: 1 },
      { name: 'pike', version: 1 },
    ]);
  });

  it('re-applies on a version bump or when forced, without duplicating rows', async () => {
    expect((await applySeeds(pool, [fishSeed(2, ['bass', 'pike', 'walleye'])])).applied).toEqual(['test.fish']);
    expect((await applySeeds(pool, [fishSeed(2, ['bass', 'pike', 'walleye'])], { force: true })).applied).toEqual(['test.fish']);
    expect(await fish()).toEqual([
      { name: 'bass', version: 2 },
      { name: 'pike', version: 2 },
      { name: 'walleye', version: 2 },
    ]);
    const recorded = await pool.query("SELECT version FROM seed_runs WHERE name = 'test.fish'");
    expect(recorded.rows).toEqual([{ version: 2 }]);
  });

  it('rolls a failing seed back completely', async () => {
    const failing: Seed = {
      name: 'test.broken',
      version: 1,
      description: 'fails half-way',
      async run({ tx }) {
        await tx.execute("INSERT INTO test_fish (name, version) VALUES ('carp', 9)");
        throw new Error('half-way failure');
      },
    };
    await expect(applySeeds(pool, [failing])).rejects.toThrow('half-way failure');
    expect((await fish()).map((f) => f.name)).not.toContain('carp');
    expect((await pool.query("SELECT 1 FROM seed_runs WHERE name = 'test.broken'")).rowCount).toBe(0);
  });

  it('refuses two seeds with one name', async () => {
    await expect(applySeeds(pool, [fishSeed(1, []), fishSeed(1, [])])).rejects.toThrow('two seeds are named test.fish');
  });
});
