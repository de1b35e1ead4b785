import { sql } from 'drizzle-orm';
import { numeric, pgTable, real, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { scratchDatabase } from '../../../test/harness.js';
import { columnsOf, insertOf, namedStatement } from './prepared.js';

const probes = pgTable('named_statement_probes', {
  id: uuid().primaryKey(),
  label: text().notNull(),
  lengthCm: numeric({ precision: 6, scale: 2, mode: 'number' }),
  ratio: real(),
  seenAt: timestamp({ withTimezone: true }).notNull(),
});

const PROBE = insertOf(probes, { id: true, label: true, lengthCm: true, ratio: true, seenAt: true });
const insertProbe = namedStatement<typeof probes.$inferSelect, typeof probes.$inferInsert>(
  'test_probes_insert',
  () => sql`INSERT INTO ${probes} ${PROBE.columns} VALUES (${PROBE.values}) RETURNING ${columnsOf(probes)}`,
);
const backend = namedStatement<{ pid: number }>('test_backend_pid', () => sql`SELECT pg_backend_pid() AS pid`);

describe('namedStatement', () => {
  const scratch = scratchDatabase();
  beforeAll(async () => {
    await scratch.pool.query('CREATE TABLE named_statement_probes (id uuid PRIMARY KEY, label text NOT NULL, length_cm numeric(6,2), ratio real, seen_at timestamptz NOT NULL)');
  });

  it('returns rows under the property names, typed as a Drizzle select gives them', async () => {
    const values = { id: '0190b6a0-0000-7000-8000-000000000001', label: 'walleye', lengthCm: 41.25, ratio: 0.5, seenAt: new Date('2024-06-01T10:30:00Z') };
    const row = await insertProbe.first(scratch.db, values);
    expect(row).toEqual(values);
    const [drizzleRow] = await scratch.db.select().from(probes);
    expect(row).toEqual(drizzleRow);
  });

  it("runs on a transaction's own connection", async () => {
    await scratch.db.transaction(async (tx) => {
      const [{ pid }] = (await tx.execute<{ pid: number }>(sql`SELECT pg_backend_pid() AS pid`)).rows as [{ pid: number }];
      expect((await backend.first(tx, {}))!.pid).toBe(pid);
      await insertProbe.rows(tx, { id: '0190b6a0-0000-7000-8000-000000000002', label: 'rolled back', lengthCm: null, ratio: null, seenAt: new Date() });
      tx.rollback();
    }).catch((error: Error) => expect(error.message).toMatch(/rollback/i));
    expect((await scratch.pool.query("SELECT count(*)::int AS n FROM named_statement_probes WHERE label = 'rolled back'")).rows[0].n).toBe(0);
  });

  it('refuses a second statement of the same name and a missing value', async () => {
    expect(() => namedStatement('test_backend_pid', () => sql`SELECT 1`)).toThrow(/test_backend_pid/);
    await expect(insertProbe.rows(scratch.db, { label: 'no id' } as never)).rejects.toThrow(/no value for id/);
  });
});
