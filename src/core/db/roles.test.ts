import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { openDatabase } from './client.js';

/** Least privilege (migration 0030): what the request path's role may and may not do. */
describe('the application role', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  async function refused(statement: string): Promise<string> {
    const error = (await t.database.pool.query(statement).then(
      () => undefined,
      (e: unknown) => e,
    )) as { code?: string; message?: string } | undefined;
    expect(error, statement).toBeDefined();
    expect(error!.code, `${statement}: ${error!.message}`).toBe('42501');
    return error!.message!;
  }

  it('is what the app runs as, while migrations ran as the owner', async () => {
    const { rows } = await t.database.pool.query<{ user: string; super: boolean }>(
      "SELECT current_user AS user, current_setting('is_superuser') = 'on' AS super",
    );
    expect(rows[0]).toEqual({ user: 'fishlog_app', super: false });
    const owner = await t.database.owner.pool.query<{ user: string }>('SELECT current_user AS user');
    expect(owner.rows[0]!.user).not.toBe('fishlog_app');
  });

  it('reads and writes the application rows (the whole suite runs as this role)', async () => {
    const client = await t.database.pool.connect();
    try {
      await client.query('BEGIN');
      expect((await client.query('SELECT count(*) AS n FROM users')).rowCount).toBe(1);
      await client.query('UPDATE users SET updated_at = updated_at');
      await client.query('DELETE FROM seed_runs');
      await client.query("SELECT count(*) FROM idp.users");
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });

  it.each([
    ['UPDATE the audit log', "UPDATE audit_log SET reason = 'rewritten'"],
    ['DELETE from the audit log', 'DELETE FROM audit_log'],
    ['TRUNCATE the audit log', 'TRUNCATE audit_log'],
    ['disable the audit log triggers', 'ALTER TABLE audit_log DISABLE TRIGGER ALL'],
    ['bypass triggers with the replication role', 'SET session_replication_role = replica'],
    ['create a table', 'CREATE TABLE probe (id int)'],
    ['create a table in the identity provider schema', 'CREATE TABLE idp.probe (id int)'],
    ['drop a table', 'DROP TABLE users'],
    ['create a role', 'CREATE ROLE probe_role'],
    ['create an extension', 'CREATE EXTENSION IF NOT EXISTS tablefunc'],
    ['rewrite the migration history', 'DELETE FROM drizzle.__drizzle_migrations'],
  ])('cannot %s', async (_what, statement) => {
    await refused(statement);
  });

  it('runs through DATABASE_APP_URL as a login role of its own, when one is configured', async () => {
    const login = `fishlog_app_login_${randomBytes(4).toString('hex')}`;
    const password = randomBytes(12).toString('hex');
    await t.database.owner.pool.query(`CREATE ROLE ${login} LOGIN PASSWORD '${password}' IN ROLE fishlog_app`);
    try {
      const url = new URL(t.testDatabase.url);
      url.username = login;
      url.password = password;
      const database = await openDatabase({ databaseUrl: t.testDatabase.url, databaseAppUrl: url.toString(), dataDir: '' }, { poolSize: 1 });
      try {
        await database.useApplicationRole();
        expect((await database.pool.query('SELECT current_user AS user')).rows[0].user).toBe(login);
        expect((await database.pool.query('SELECT count(*) AS n FROM users')).rowCount).toBe(1);
        const error = await database.pool.query("UPDATE audit_log SET reason = 'x'").catch((e: { code?: string }) => e);
        expect((error as { code?: string }).code).toBe('42501');
        // Unlike a role set at connection start, a login role cannot switch to the owner.
        const owner = (await t.database.owner.pool.query<{ user: string }>('SELECT current_user AS user')).rows[0]!.user;
        const escape = await database.pool.query(`SET ROLE ${owner}`).catch((e: { code?: string }) => e);
        expect((escape as { code?: string }).code).toBe('42501');
      } finally {
        await database.close();
      }
    } finally {
      await t.database.owner.pool.query(`DROP ROLE ${login}`).catch(() => undefined);
    }
  });

  it('refuses to start when the role is missing, instead of running as the owner', async () => {
    const client = new pg.Client({ connectionString: t.testDatabase.url, options: '-c role=fishlog_missing_role' });
    await expect(client.connect()).rejects.toThrow(/fishlog_missing_role/);
    await client.end().catch(() => undefined);
  });
});
