import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness.js';
import { Role } from '../core/access/roles.js';
import { verifyPassword } from '../core/auth/idp/local/passwords.js';
import { main } from './index.js';

/**
 * The administration commands (idp, users, audit) run in-process through main(), on one
 * cloned database. The tests of one describe block build on each other, in order.
 */

let target: TestDatabase;
let pool: pg.Pool;
// The audit checkpoint lives in the data folder: one of this file's own.
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'fishlog-cli-'));
beforeAll(async () => {
  target = await createTestDatabase();
  pool = new pg.Pool({ connectionString: target.url, max: 2 });
});
afterAll(async () => {
  await pool?.end();
  await target?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function run(args: string[], env: Record<string, string> = {}) {
  let out = '';
  let err = '';
  const code = await main(args, {
    out: (t) => (out += t),
    err: (t) => (err += t),
    env: { DATABASE_URL: target.url, FISHLOG_SCRYPT_COST: '10', FISHLOG_DATA_DIR: dataDir, FISHLOG_AUDIT_KEY: process.env.FISHLOG_AUDIT_KEY!, ...env },
  });
  return { code, out, err };
}

async function idpUser(username: string) {
  const { rows } = await pool.query<{ sub: string; password_hash: string; status: string; enabled: boolean }>(
    'SELECT sub, password_hash, status, enabled FROM idp.users WHERE lower(username) = lower($1)',
    [username],
  );
  return rows[0];
}

async function appUser(username: string) {
  const { rows } = await pool.query<{ id: string; sub: string; role: number }>('SELECT id, sub, role FROM users WHERE lower(username) = lower($1)', [username]);
  return rows[0];
}

async function createUser(username: string, extra: string[] = []) {
  const result = await run(['idp', 'users', 'create', username, '--email', `${username}@example.test`, '--password', `${username} password 1`, ...extra]);
  expect(result.code, result.err).toBe(0);
  return result;
}

async function insertRefreshToken(sub: string): Promise<void> {
  await pool.query(
    `INSERT INTO idp.refresh_tokens (id, family_id, sub, token_hash, auth_time, expires_at)
     VALUES ($1, $2, $3, $4, now(), now() + interval '1 day')`,
    [randomUUID(), randomUUID(), sub, randomUUID()],
  );
}

describe('fishlog idp', () => {
  it.each(['idp', 'idp users', 'idp users create', 'idp users list', 'idp users reset-password', 'idp keys rotate', 'users set-role', 'audit verify'])(
    'has --help on %s',
    async (command) => {
      const { code, out } = await run([...command.split(' '), '--help']);
      expect(code).toBe(0);
      expect(out).toContain(`Usage: fishlog ${command}`);
    },
  );

  it('documents --force on users set-role', async () => {
    const { out } = await run(['users', 'set-role', '--help']);
    expect(out).toMatch(/--force\s+allow changing the Owner's role/);
  });

  it('creates a user, lists them (table and JSON) without any password, and refuses a duplicate', async () => {
    const created = await createUser('alice');
    expect(created.out).toContain('created alice <alice@example.test>');
    expect(created.out).toContain('CONFIRMED');
    expect(created.out + created.err).not.toContain('alice password 1');

    const table = await run(['idp', 'users', 'list']);
    expect(table.code).toBe(0);
    const [header, ...lines] = table.out.trim().split('\n');
    expect(header).toMatch(/^USERNAME\s+EMAIL\s+STATUS\s+ENABLED\s+SUB\s+CREATED$/);
    const row = lines.find((line) => line.startsWith('alice '));
    const { sub, password_hash: hash } = (await idpUser('alice'))!;
    expect(row).toMatch(new RegExp(`^alice\\s+alice@example\\.test\\s+CONFIRMED\\s+yes\\s+${sub}\\s+\\d{4}-\\d\\d-\\d\\dT`));
    expect(table.out).not.toContain(hash);
    expect(table.out).not.toContain('scrypt$');

    const json = await run(['idp', 'users', 'list', '--json']);
    expect(json.code).toBe(0);
    const users = JSON.parse(json.out) as Record<string, unknown>[];
    expect(users).toContainEqual(expect.objectContaining({ username: 'alice', email: 'alice@example.test', status: 'CONFIRMED', enabled: true, sub }));
    for (const user of users) expect(Object.keys(user).some((key) => /password|hash/i.test(key))).toBe(false);
    expect(json.out).not.toContain('scrypt$');

    const duplicate = await run(['idp', 'users', 'create', 'ALICE', '--email', 'other@example.test', '--password', 'another password']);
    expect(duplicate.code).toBe(1);
    expect(duplicate.err).toBe('fishlog: A user named ALICE already exists (usernames are case-insensitive).\n');
  });

  it('exits 2 on invalid input: a bad email, a short password, missing options', async () => {
    const email = await run(['idp', 'users', 'create', 'bob', '--email', 'not-an-email', '--password', 'bob password 1']);
    expect(email.code).toBe(2);
    expect(email.err).toContain('fishlog: "not-an-email" is not an email address');
    const password = await run(['idp', 'users', 'create', 'bob', '--email', 'bob@example.test', '--password', 'short']);
    expect(password.code).toBe(2);
    expect(password.err).toContain('at least 8 characters');
    expect(password.err).not.toContain('short');
    const missing = await run(['idp', 'users', 'create', 'bob', '--email', 'bob@example.test']);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("required option '--password <password>' not specified");
    expect(await idpUser('bob')).toBeUndefined();
  });

  it('creates an unconfirmed user and confirms them', async () => {
    const created = await createUser('carol', ['--unconfirmed']);
    expect(created.out).toContain('fishlog idp users confirm carol');
    expect((await idpUser('carol'))!.status).toBe('UNCONFIRMED');
    const confirmed = await run(['idp', 'users', 'confirm', 'carol']);
    expect(confirmed.code).toBe(0);
    expect(confirmed.out).toBe('carol: CONFIRMED\n');
    expect((await idpUser('carol'))!.status).toBe('CONFIRMED');
  });

  it('sets a password that then verifies, without printing it', async () => {
    const result = await run(['idp', 'users', 'set-password', 'alice', '--password', 'a brand new secret']);
    expect(result.code).toBe(0);
    expect(result.out).toBe('alice: password changed\n');
    const { password_hash: hash } = (await idpUser('alice'))!;
    await expect(verifyPassword('a brand new secret', hash)).resolves.toBe(true);
    await expect(verifyPassword('alice password 1', hash)).resolves.toBe(false);
  });

  it('disables and enables a user', async () => {
    const disabled = await run(['idp', 'users', 'disable', 'carol']);
    expect(disabled.code).toBe(0);
    expect((await idpUser('carol'))!.enabled).toBe(false);
    const enabled = await run(['idp', 'users', 'enable', 'carol']);
    expect(enabled.code).toBe(0);
    expect((await idpUser('carol'))!.enabled).toBe(true);
  });

  it('resets a password: prints a new one once, which verifies, and revokes the sessions', async () => {
    const { sub } = (await idpUser('alice'))!;
    await insertRefreshToken(sub);
    await insertRefreshToken(sub);
    const result = await run(['idp', 'users', 'reset-password', 'alice']);
    expect(result.code).toBe(0);
    const password = /^new password: (\S+)$/m.exec(result.out)?.[1];
    expect(password).toBeDefined();
    expect(result.out.split(password!).length - 1).toBe(1);
    expect(result.out).toContain('2 sessions revoked');
    await expect(verifyPassword(password!, (await idpUser('alice'))!.password_hash)).resolves.toBe(true);
    const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM idp.refresh_tokens WHERE sub = $1 AND revoked_at IS NULL', [sub]);
    expect(rows[0]!.n).toBe(0);
  });

  it('deletes a user; deleting again, or touching an unknown user, exits 1', async () => {
    await createUser('dave');
    const deleted = await run(['idp', 'users', 'delete', 'dave']);
    expect(deleted.code).toBe(0);
    const list = await run(['idp', 'users', 'list', '--json']);
    expect((JSON.parse(list.out) as { username: string }[]).map((u) => u.username)).not.toContain('dave');
    const again = await run(['idp', 'users', 'delete', 'dave']);
    expect(again.code).toBe(1);
    expect(again.err).toBe('fishlog: No user named dave.\n');
    for (const command of ['confirm', 'disable', 'enable', 'reset-password']) expect((await run(['idp', 'users', command, 'nobody'])).code).toBe(1);
  });

  it('rotates the signing key: a new kid, every previous key retired', async () => {
    const first = await run(['idp', 'keys', 'rotate']);
    expect(first.code).toBe(0);
    const second = await run(['idp', 'keys', 'rotate']);
    expect(second.code).toBe(0);
    const firstKid = /^new signing key: (\S+)$/m.exec(first.out)?.[1];
    const secondKid = /^new signing key: (\S+)$/m.exec(second.out)?.[1];
    expect(firstKid).toBeDefined();
    expect(secondKid).not.toBe(firstKid);
    expect(second.out).toContain(`retired keys: ${firstKid}`);
    expect(second.out).toContain('stay valid until they expire');
    const { rows } = await pool.query<{ kid: string; retired_at: Date | null }>('SELECT kid, retired_at FROM idp.signing_keys');
    expect(rows.filter((r) => r.retired_at === null).map((r) => r.kid)).toEqual([secondKid]);
    expect(rows.find((r) => r.kid === firstKid)!.retired_at).toBeInstanceOf(Date);
  });

  it('refuses every idp command with IDP=cognito (exit 2), pointing to the user pool', async () => {
    const cognito = { IDP: 'cognito', COGNITO_USER_POOL_ID: 'eu-west-1_Abc123', COGNITO_CLIENT_ID: 'x', AWS_REGION: 'eu-west-1' };
    for (const command of [['idp', 'users', 'list'], ['idp', 'users', 'delete', 'alice'], ['idp', 'keys', 'rotate']]) {
      const { code, err } = await run(command, cognito);
      expect(code).toBe(2);
      expect(err).toContain('users are managed in the Cognito user pool');
      expect(err).toContain('AWS console or the AWS CLI');
    }
  });
});

describe('fishlog users set-role', () => {
  async function auditRows() {
    const { rows } = await pool.query<{ id: number; action: string; actor_type: string; target_id: string; reason: string | null; before: unknown; after: unknown }>(
      'SELECT id, action, actor_type, target_id, reason, before, after FROM audit_log ORDER BY id',
    );
    return rows;
  }

  it('provisions a user who never called the API and makes them Owner, with one audit entry', async () => {
    await createUser('olivia');
    expect(await appUser('olivia')).toBeUndefined();
    const auditBefore = await auditRows();

    const result = await run(['users', 'set-role', 'olivia', 'owner', '--reason', 'first owner']);
    expect(result.code, result.err).toBe(0);
    expect(result.out).toBe('olivia: Standard -> Owner\n');

    const user = (await appUser('olivia'))!;
    expect(user.role).toBe(Role.Owner);
    expect(user.sub).toBe((await idpUser('olivia'))!.sub);
    const added = (await auditRows()).slice(auditBefore.length);
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({
      action: 'users.role_set',
      actor_type: 'system',
      target_id: user.id,
      reason: 'first owner',
      before: { role: 'Standard' },
      after: { role: 'Owner' },
    });
  });

  it('exits 2 on an unknown role, listing the roles', async () => {
    const { code, err } = await run(['users', 'set-role', 'olivia', 'Captain']);
    expect(code).toBe(2);
    expect(err).toContain('unknown role "Captain"');
    expect(err).toContain('Standard, DNR, Researcher, Admin, Moderator, Owner');
  });

  it('exits 1 for a user unknown to the app and the identity provider', async () => {
    const { code, err } = await run(['users', 'set-role', 'ghost', 'Admin']);
    expect(code).toBe(1);
    expect(err).toContain('no user named ghost');
  });

  it("protects the Owner's role unless --force", async () => {
    const refused = await run(['users', 'set-role', 'olivia', 'Admin']);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("The Owner's role cannot be changed.");
    expect(refused.err).toContain('--force');
    expect((await appUser('olivia'))!.role).toBe(Role.Owner);

    const forced = await run(['users', 'set-role', 'olivia', 'Researcher', '--force']);
    expect(forced.code, forced.err).toBe(0);
    expect(forced.out).toBe('olivia: Owner -> Researcher\n');
    expect((await appUser('olivia'))!.role).toBe(Role.Researcher);
    expect((await run(['users', 'set-role', 'olivia', 'Owner'])).code).toBe(0);
  });

  it('keeps the last Admin an Admin', async () => {
    await createUser('adam');
    const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE role = $1', [Role.Admin]);
    expect(rows[0]!.n).toBe(0);
    expect((await run(['users', 'set-role', 'adam', 'ADMIN'])).code).toBe(0);

    const refused = await run(['users', 'set-role', 'adam', 'Standard']);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('last Admin');
    expect((await appUser('adam'))!.role).toBe(Role.Admin);
  });
});

describe('fishlog audit verify', () => {
  it('reports an intact log', async () => {
    const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log');
    expect(rows[0]!.n).toBeGreaterThan(0);
    const result = await run(['audit', 'verify']);
    expect(result.code).toBe(0);
    expect(result.out).toContain(`audit log intact: ${rows[0]!.n} entries checked; no checkpoint yet\n`);
    expect(result.out).toMatch(/head: #\d+ [0-9a-f]{64} \(saved to .*audit\.checkpoint/);
    expect((await run(['audit', 'verify'])).out).toContain('checkpoint #');
  });

  it.each([
    ['UPDATE', "UPDATE audit_log SET reason = 'x'"],
    ['DELETE', 'DELETE FROM audit_log'],
    ['TRUNCATE', 'TRUNCATE audit_log'],
  ])('refuses a plain %s of the audit log', async (operation, statement) => {
    await expect(pool.query(statement)).rejects.toThrow(`audit_log is append-only: ${operation} is not allowed`);
  });

  it('finds an entry altered behind the triggers back', async () => {
    const client = await pool.connect();
    let tampered: number;
    try {
      // replica mode skips ordinary triggers: what someone with superuser rights could do.
      await client.query('SET session_replication_role = replica');
      const { rows } = await client.query<{ id: string }>("UPDATE audit_log SET reason = 'x' WHERE id = (SELECT min(id) FROM audit_log) RETURNING id");
      tampered = Number(rows[0]!.id);
    } finally {
      await client.query('RESET session_replication_role');
      client.release();
    }
    const result = await run(['audit', 'verify']);
    expect(result.code).toBe(1);
    expect(result.err).toBe(`fishlog: audit log BROKEN at entry ${tampered}: its content does not match its HMAC (the row was altered, inserted, or the chain recomputed without the key) (0 entries before it are intact)\n`);
  });
});

describe('fishlog users show', () => {
  it('prints the API user id (not the identity-provider subject), provisioning a user the API has not seen yet', async () => {
    await createUser('dora');
    expect(await appUser('dora')).toBeUndefined();
    const shown = await run(['users', 'show', 'DORA']);
    expect(shown.code, shown.err).toBe(0);
    const row = await appUser('dora');
    const identity = await idpUser('dora');
    expect(row).toBeDefined();
    expect(shown.out).toContain(`user id:  ${row!.id}`);
    expect(shown.out).toContain(`subject:  ${identity!.sub}`);
    expect(row!.id).not.toBe(identity!.sub);

    const json = await run(['users', 'show', 'dora', '--json']);
    expect(JSON.parse(json.out)).toEqual({ userId: row!.id, username: 'dora', role: 'Standard', active: true, sub: identity!.sub });
    // The same id again: showing does not create another user.
    expect(JSON.parse((await run(['users', 'show', 'dora', '--json'])).out).userId).toBe(row!.id);
  });

  it('fails with exit code 1 for an unknown user', async () => {
    const result = await run(['users', 'show', 'nobody_at_all']);
    expect(result.code).toBe(1);
    expect(result.err).toContain('no user named nobody_at_all');
  });
});
