import { sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness.js';
import { recordStatements } from '../../../test/statements.js';
import { createDb, type Db } from './client.js';
import { issuedTogether, onOneConnection, transaction } from './pipeline.js';
import { namedStatement } from './prepared.js';

describe('pipelining (issuedTogether, transaction, onOneConnection)', () => {
  let target: TestDatabase;
  let pipelined: pg.Pool;
  let plain: pg.Pool;
  let db: Db;
  beforeAll(async () => {
    target = await createTestDatabase({ empty: true });
    pipelined = new pg.Pool({ connectionString: target.url, max: 2, pipeline: true });
    plain = new pg.Pool({ connectionString: target.url, max: 2 });
    db = createDb(pipelined);
    await plain.query('CREATE TABLE pipeline_probes (n int PRIMARY KEY)');
  });
  afterAll(async () => {
    await pipelined?.end();
    await plain?.end();
    await target?.drop();
  });
  const count = async () => (await plain.query('SELECT count(*)::int AS n FROM pipeline_probes')).rows[0].n as number;

  it('sends BEGIN with the first statements in one round trip, runs them in order, and commits', async () => {
    const sent = await recordStatements(() =>
      transaction(db, async (tx) => {
        expect(tx).toBeInstanceOf(PgTransaction);
        const [, seen] = await issuedTogether(tx, () => Promise.all([tx.execute(sql`INSERT INTO pipeline_probes VALUES (1)`), tx.execute(sql`SELECT count(*)::int AS n FROM pipeline_probes`)]));
        expect(seen.rows[0]!.n).toBe(1); // the second statement sees the first
        await tx.execute(sql`INSERT INTO pipeline_probes VALUES (2)`);
      }),
    );
    expect(sent.map((s) => [s.trip, s.text.split(' ')[0]])).toEqual([
      [1, 'BEGIN'],
      [1, 'INSERT'],
      [1, 'SELECT'],
      [2, 'INSERT'],
      [3, 'COMMIT'],
    ]);
    expect(await count()).toBe(2);
  });

  it('rolls everything back when a statement fails, whether the ones issued with it or later', async () => {
    await plain.query('TRUNCATE pipeline_probes');
    const failing = transaction(db, async (tx) => {
      await issuedTogether(tx, () => Promise.all([tx.execute(sql`INSERT INTO pipeline_probes VALUES (10)`), tx.execute(sql`INSERT INTO pipeline_probes VALUES (10)`), tx.execute(sql`INSERT INTO pipeline_probes VALUES (11)`)]));
    });
    await expect(failing).rejects.toMatchObject({ cause: { code: '23505' } });
    await expect(transaction(db, async (tx) => {
      await tx.execute(sql`INSERT INTO pipeline_probes VALUES (12)`);
      throw new Error('refused');
    })).rejects.toThrow('refused');
    expect(await count()).toBe(0);
    // The connections are clean afterwards.
    await transaction(db, (tx) => tx.execute(sql`INSERT INTO pipeline_probes VALUES (13)`));
    expect(await count()).toBe(1);
  });

  it('reports the first failing statement of a transaction, not the "transaction is aborted" of those after it, and writes nothing', async () => {
    await plain.query('TRUNCATE pipeline_probes');
    await plain.query('CREATE TABLE IF NOT EXISTS pipeline_texts (n int PRIMARY KEY, t text NOT NULL)');
    // Which rejection reaches Promise.all first depends on the promise layers around each call and
    // on how the answers arrive: the failing statement's is held back here (as a repository that
    // does more with its answer would), so the "aborted" of the statement after it comes first.
    const later = <T>(answer: Promise<T>) => answer.catch(async (error: unknown) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      throw error;
    });
    const probe = namedStatement<{ n: number }>('pipeline_test_probe_count', () => sql`SELECT count(*)::int AS n FROM pipeline_probes`);
    const insert = namedStatement<{ n: number }, { t: string | null }>('pipeline_test_insert_text', () => sql`INSERT INTO pipeline_texts VALUES (1, ${sql.placeholder('t')}) RETURNING n`);
    const attempt = (t: string | null) =>
      transaction(db, async (tx) => {
        await tx.execute(sql`INSERT INTO pipeline_probes VALUES (1)`);
        await issuedTogether(tx, () => Promise.all([later(insert.first(tx, { t })), probe.rows(tx, {}), tx.execute(sql`INSERT INTO pipeline_probes VALUES (2)`)]));
      });
    await expect(attempt('a\u0000b')).rejects.toMatchObject({ code: '22021' });
    await expect(attempt(null)).rejects.toMatchObject({ code: '23502' });
    expect(await count()).toBe(0);
    expect((await plain.query('SELECT count(*)::int AS n FROM pipeline_texts')).rows[0].n).toBe(0);
  });

  it('onOneConnection: sends the statements issued together in one round trip on one connection, each in its own transaction, and hands the connection back', async () => {
    await plain.query('TRUNCATE pipeline_probes');
    await plain.query('INSERT INTO pipeline_probes VALUES (1), (2)');
    type Answer = { rows: { pid: number; n?: number; xid: string }[] };
    let answers!: Answer[];
    const sent = await recordStatements(async () => {
      answers = (await onOneConnection(db, (connection) =>
        Promise.all([
          connection.execute(sql`SELECT pg_backend_pid() AS pid, count(*)::int AS n, txid_current()::text AS xid FROM pipeline_probes`),
          connection.execute(sql`SELECT pg_backend_pid() AS pid, txid_current()::text AS xid`),
        ]),
      )) as unknown as Answer[];
    });
    expect(sent.map((s) => s.trip)).toEqual([1, 1]);
    expect(answers[0]!.rows[0]).toMatchObject({ n: 2 });
    expect(answers[0]!.rows[0]!.pid).toBe(answers[1]!.rows[0]!.pid);
    expect(answers[0]!.rows[0]!.xid).not.toBe(answers[1]!.rows[0]!.xid); // no transaction around them
    // A failing statement fails its own promise only; the connection goes back to the pool, clean.
    const failing = onOneConnection(db, (connection) => Promise.all([connection.execute(sql`SELECT 1/0`), connection.execute(sql`SELECT 1`)]));
    await expect(failing).rejects.toMatchObject({ cause: { code: '22012' } });
    expect(pipelined.totalCount - pipelined.idleCount).toBe(0);
    expect((await onOneConnection(db, (connection) => connection.execute(sql`SELECT 2 AS two`))).rows).toEqual([{ two: 2 }]);
  });

  it('onOneConnection is issue(db) on a pool that does not pipeline', async () => {
    const plainDb = createDb(plain);
    let given: unknown;
    await onOneConnection(plainDb, async (connection) => (given = connection));
    expect(given).toBe(plainDb);
  });

  it('is a plain Drizzle transaction on a pool that does not pipeline', async () => {
    const sent = await recordStatements(() => transaction(createDb(plain), (tx) => tx.execute(sql`SELECT 1`)));
    expect(sent.map((s) => [s.trip, s.text])).toEqual([
      [1, 'begin'],
      [2, 'SELECT 1'],
      [3, 'commit'],
    ]);
  });
});
