import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testConfig, type TestDatabase } from '../../../test/harness.js';
import { openDatabase, type Database } from './client.js';

/** A connection the server ends (57P01 admin shutdown, a kill) never crashes the process. */

let testDb: TestDatabase;
let database: Database;
const lines: string[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase({ empty: true });
  database = await openDatabase(testConfig({ DATABASE_URL: testDb.url }), { log: (line) => lines.push(line), poolSize: 3 });
});
afterAll(async () => {
  await database?.close();
  await testDb?.drop();
});

async function terminate(pid: number): Promise<void> {
  const admin = new pg.Client({ connectionString: testDb.url });
  await admin.connect();
  try {
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
  } finally {
    await admin.end();
  }
}

describe('database connection failures', () => {
  it('a checked-out connection terminated by the server is reported, not an uncaught error event', async () => {
    const client = await database.pool.connect();
    const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    await terminate(pid);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(lines.some((l) => l.startsWith('database connection failed'))).toBe(true);
    client.release(true);
    expect((await database.pool.query('SELECT 1 AS ok')).rows).toEqual([{ ok: 1 }]);
  });

  it('an idle pooled connection terminated by the server is reported and replaced', async () => {
    const client = await database.pool.connect();
    const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    client.release();
    lines.length = 0;
    await terminate(pid);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(lines.some((l) => l.includes('connection failed'))).toBe(true);
    expect((await database.pool.query('SELECT 1 AS ok')).rows).toEqual([{ ok: 1 }]);
  });
});
