import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setIdpUserEnabled } from '../../core/auth/idp/local/local-users.js';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, type TestUser } from '../../../test/factories.js';

/** The last Admin who can sign in cannot be demoted, also under concurrent demotions. */

let t: TestApp;
let owner: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t, { role: 'Owner' });
});
afterAll(async () => {
  await t?.close();
});

const demote = (userId: string) =>
  t.app.inject({ method: 'PUT', url: `/api/admin/employees/${userId}/role`, headers: owner.headers, payload: { role: 'Moderator', reason: 'rotation' } });
const adminCount = async () => (await t.database.pool.query('SELECT count(*)::int AS n FROM users WHERE role = 3')).rows[0].n as number;

describe('the last Admin rule', () => {
  it('two concurrent demotions of the last two Admins: exactly one passes, the other is 409', async () => {
    const [a, b] = [await createUser(t, { role: 'Admin' }), await createUser(t, { role: 'Admin' })];
    const results = await Promise.all([demote(a.userId), demote(b.userId)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.statusCode === 409)!.json().code).toBe('users.last_admin');
    expect(await adminCount()).toBe(1);
    // tidy: demote nobody else; the survivor is the one Admin left
    await t.database.pool.query('UPDATE users SET role = 4 WHERE role = 3');
  });

  it('8 concurrent demotions of 3 Admins leave exactly one Admin', async () => {
    const admins = [await createUser(t, { role: 'Admin' }), await createUser(t, { role: 'Admin' }), await createUser(t, { role: 'Admin' })];
    const results = await Promise.all([...admins, ...admins, admins[0]!, admins[1]!].map((a) => demote(a.userId)));
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    expect(await adminCount()).toBe(1);
    await t.database.pool.query('UPDATE users SET role = 4 WHERE role = 3');
  });

  it('a disabled Admin does not count: the only Admin who can sign in cannot be demoted', async () => {
    const active = await createUser(t, { role: 'Admin' });
    const disabled = await createUser(t, { role: 'Admin' });
    await setIdpUserEnabled(t.database.db, disabled.username, false);
    const res = await demote(active.userId);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('users.last_admin');
    // the disabled one can be demoted: the active Admin remains
    expect((await demote(disabled.userId)).statusCode).toBe(200);
    await t.database.pool.query('UPDATE users SET role = 4 WHERE role = 3');
  });

  it('a deactivated Admin does not count either', async () => {
    const active = await createUser(t, { role: 'Admin' });
    const gone = await createUser(t, { role: 'Admin' });
    await t.database.pool.query('UPDATE users SET is_active = false, deactivated_at = now() WHERE id = $1', [gone.userId]);
    expect((await demote(active.userId)).statusCode).toBe(409);
  });
});
