import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, PIKE, smallPng, uploadPhoto, type TestUser } from '../../../test/factories.js';
import { ROLES } from '../../core/access/roles.js';
import { notifyPrincipalChanged } from '../../core/auth/notify.js';
import { recordStatements } from '../../../test/statements.js';

/**
 * GET /api/userprofile/me from the process's cache of own views: a change through this process's
 * API is seen at once (the view is dropped at commit); a change committed anywhere else (another
 * server process, the CLI, SQL: the triggers fire alike) within moments, through NOTIFY. (The
 * cache is one per process, so a second app in this test process would share it: the other
 * process is played by SQL on another connection.)
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

type Me = Record<string, unknown> & { researchConsent: { level: string }; favouriteSpecies: { id: string; commonName: string } | null };

async function me(t: TestApp, user: TestUser): Promise<Me> {
  const res = await t.app.inject({ method: 'GET', url: '/api/userprofile/me', headers: user.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Reads until `seen` holds (a notification takes milliseconds); the last view either way. */
async function meSoon(t: TestApp, user: TestUser, seen: (view: Me) => boolean): Promise<Me> {
  for (let i = 0; i < 100; i++) {
    const view = await me(t, user);
    if (seen(view)) return view;
    await new Promise((r) => setTimeout(r, 50));
  }
  return me(t, user);
}

/** Reads until a read runs no statement: the view is kept (its first read may be dropped by a change heard meanwhile). */
async function kept(t: TestApp, user: TestUser): Promise<Me> {
  for (let i = 0; i < 40; i++) {
    let view!: Me;
    const statements = await recordStatements(async () => (view = await me(t, user)));
    if (statements.length === 0) return view;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the own view is never kept');
}

const patch = (t: TestApp, user: TestUser, payload: object) => t.app.inject({ method: 'PATCH', url: '/api/userprofile/me', headers: user.headers, payload });

describe('own profile views kept per process', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createUser(t);
  });

  it('shows a profile change through the API at once, and keeps the new view', async () => {
    await kept(t, user);
    const res = await patch(t, user, { displayName: 'Changed', homeState: 'us-wi' });
    expect(res.statusCode).toBe(200);
    expect(await me(t, user)).toMatchObject({ displayName: 'Changed', homeState: 'US-WI' });
    expect(await kept(t, user)).toMatchObject({ displayName: 'Changed', homeState: 'US-WI' });
  });

  it('shows research consent set through the fishing log at once', async () => {
    await kept(t, user);
    const set = await t.app.inject({ method: 'PUT', url: '/api/fishinglog/research-consent', headers: user.headers, payload: { level: 'Identified' } });
    expect(set.statusCode).toBe(200);
    expect((await me(t, user)).researchConsent).toEqual({ level: 'Identified', givenAt: set.json().givenAt });
  });

  it('hears changes committed elsewhere (SQL on another connection): a profile row updated, then removed', async () => {
    await kept(t, user);
    await t.database.owner.pool.query("UPDATE user_profiles SET bio = 'Set elsewhere' WHERE user_id = $1", [user.userId]);
    expect((await meSoon(t, user, (v) => v.bio === 'Set elsewhere')).bio).toBe('Set elsewhere');
    await kept(t, user);
    await t.database.owner.pool.query('DELETE FROM user_profiles WHERE user_id = $1', [user.userId]);
    expect(await meSoon(t, user, (v) => v.updatedAt === null)).toMatchObject({ displayName: null, bio: null, updatedAt: null, visibility: 'Public' });
  });

  it('hears research consent changed elsewhere', async () => {
    await kept(t, user);
    await t.database.owner.pool.query("UPDATE research_consents SET level = 'Anonymized' WHERE user_id = $1", [user.userId]);
    expect((await meSoon(t, user, (v) => v.researchConsent.level === 'Anonymized')).researchConsent.level).toBe('Anonymized');
  });

  it("shows a favourite species' new common name after a rename elsewhere (every kept view is dropped)", async () => {
    expect((await patch(t, user, { favouriteSpeciesId: PIKE })).statusCode).toBe(200);
    const name = (await kept(t, user)).favouriteSpecies!.commonName;
    try {
      await t.database.owner.pool.query('UPDATE fish_species SET common_name = $2 WHERE id = $1', [PIKE, `${name} (renamed)`]);
      expect((await meSoon(t, user, (v) => v.favouriteSpecies?.commonName !== name)).favouriteSpecies).toEqual({ id: PIKE, commonName: `${name} (renamed)` });
    } finally {
      await t.database.owner.pool.query('UPDATE fish_species SET common_name = $2 WHERE id = $1', [PIKE, name]);
    }
    expect((await meSoon(t, user, (v) => v.favouriteSpecies?.commonName === name)).favouriteSpecies).toEqual({ id: PIKE, commonName: name });
  });

  it('names the caller as their authentication does: a kept view of an older role is read again', async () => {
    const other = await createUser(t);
    expect(await kept(t, other)).toMatchObject({ role: 'Standard' });
    // A role change notifies the principal (as the admin routes do); no profile row changes.
    await t.database.owner.pool.query('UPDATE users SET role = $2 WHERE id = $1', [other.userId, ROLES.indexOf('DNR')]);
    await notifyPrincipalChanged(t.database.db, other.userId);
    expect(await meSoon(t, other, (v) => v.role === 'DNR')).toMatchObject({ role: 'DNR', username: other.username });
    expect(await kept(t, other)).toMatchObject({ role: 'DNR' });
  });

  it('shows the avatar uploaded, replaced or deleted through the API (the photos module keeps it), and one deleted elsewhere', async () => {
    const owner = await createUser(t);
    expect((await kept(t, owner)).avatar).toBeNull();
    const upload = async () => {
      const { suggestedLocation, ...photo } = await uploadPhoto(t, owner, '/api/userprofile/me/avatar', await smallPng(), { method: 'PUT' });
      expect(suggestedLocation).toBeNull();
      return photo;
    };

    const first = await upload();
    expect((await meSoon(t, owner, (v) => v.avatar !== null)).avatar).toEqual(first);
    expect((await kept(t, owner)).avatar).toEqual({ ...first, cover: true, moderationStatus: 'Published', displayUrl: `/api/photos/${first.id}/display` });
    // The profile's own answers (PUT/PATCH) show it too.
    expect((await patch(t, owner, { bio: 'With a face' })).json().avatar).toEqual(first);

    const second = await upload();
    expect((await meSoon(t, owner, (v) => (v.avatar as { id?: string } | null)?.id === second.id)).avatar).toEqual(second);
    await kept(t, owner);
    const deleted = await t.app.inject({ method: 'DELETE', url: '/api/userprofile/me/avatar', headers: owner.headers });
    expect(deleted.statusCode).toBe(204);
    expect((await meSoon(t, owner, (v) => v.avatar === null)).avatar).toBeNull();
    expect((await kept(t, owner)).avatar).toBeNull();

    const third = await upload();
    expect((await meSoon(t, owner, (v) => v.avatar !== null)).avatar).toEqual(third);
    await kept(t, owner);
    await t.database.owner.pool.query('DELETE FROM photos WHERE id = $1', [third.id]);
    expect((await meSoon(t, owner, (v) => v.avatar === null)).avatar).toBeNull();
  });

  it('never shows one user the view of another', async () => {
    const [x, y] = [await createUser(t), await createUser(t)];
    expect((await patch(t, x, { displayName: 'Only X' })).statusCode).toBe(200);
    expect(await kept(t, x)).toMatchObject({ userId: x.userId, username: x.username, displayName: 'Only X' });
    expect(await kept(t, y)).toMatchObject({ userId: y.userId, username: y.username, displayName: null });
  });
});
