import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalIdentityProvider } from '../../core/auth/idp/local/local-idp.js';
import { createIdpUser } from '../../core/auth/idp/local/local-users.js';
import { registerPersonalData } from '../../core/personal-data.js';
import { serviceDeps } from '../../core/service-deps.js';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import {
  auditEntries,
  banUser,
  befriend,
  createCaptain,
  createClub,
  createComment,
  createEvent,
  createFishingReport,
  createListing,
  createOrganizer,
  createPost,
  createSpot,
  createStaff,
  createTournament,
  createUser,
  grant,
  login,
  register,
  type TestUser,
} from '../../../test/factories.js';
import { banIdentityKey, identityHash } from '../users/bans-identity.js';
import { eraseDueAccounts, type DeletionDeps } from './deletion.service.js';

/** The SHA-256 of an identity that ban hashes were before they were keyed (migration 0048). */
const unkeyedDigest = (kind: 'sub' | 'email', value: string) => createHash('sha256').update(`fishlog.banned-identity.${kind}:${value.trim().toLowerCase()}`).digest('base64url');

/** Deleting one's account: who may, the grace period (deactivated, signed out, content hidden), cancelling, the administration and legal holds. */

let t: TestApp;
/** The app's clock (ms): tests move it to make a sign-in stale. */
let clock = Date.now();
const DAY = 86_400_000;

beforeAll(async () => {
  t = await createTestApp({ now: () => clock });
});
afterAll(async () => t?.close());

const requestDeletion = (user: TestUser, payload?: object) =>
  t.app.inject({ method: 'POST', url: '/api/account/deletion', headers: user.headers, ...(payload ? { payload } : {}) });
const cancel = (user: TestUser) => t.app.inject({ method: 'DELETE', url: '/api/account/deletion', headers: user.headers });
const me = (user: TestUser) => t.app.inject({ method: 'GET', url: '/api/userprofile/me', headers: user.headers });

function deletionDeps(): DeletionDeps {
  return { ...serviceDeps(t), idp: new LocalIdentityProvider(t.database.db, t.config.idp as never), settings: { get: () => undefined }, log: { warn: () => undefined, info: () => undefined }, invalidate: () => undefined };
}

describe('asking for the deletion of one’s account', () => {
  it('schedules it after 30 days with a fresh sign-in; the account is signed out everywhere and answers 403 auth.deletion_pending elsewhere', async () => {
    const jo = await createUser(t);
    const res = await requestDeletion(jo);
    expect(res.statusCode).toBe(202);
    const body = res.json();
    expect(body).toMatchObject({ status: 'Pending', cancelledAt: null });
    expect(Date.parse(body.eraseAfter) - Date.parse(body.requestedAt)).toBe(30 * DAY);
    // Signed out everywhere: the refresh token of the sign-in is refused.
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: jo.refreshToken } })).json()).toMatchObject({ status: 401, code: 'auth.refresh_token_invalid' });
    // Deactivated: every route but reading and cancelling the deletion and one's profile.
    const elsewhere = await t.app.inject({ method: 'GET', url: '/api/social/posts', headers: jo.headers });
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.json()).toMatchObject({ code: 'auth.deletion_pending', detail: expect.stringContaining('DELETE /api/account/deletion') });
    expect((await t.app.inject({ method: 'GET', url: '/api/account/deletion', headers: jo.headers })).json()).toEqual(body);
    expect((await me(jo)).json()).toMatchObject({ userId: jo.userId, pendingDeletion: { requestedAt: body.requestedAt, eraseAfter: body.eraseAfter } });
    const [audit] = await auditEntries(t, 'accounts.deletion_requested');
    expect(audit).toMatchObject({ actor_user_id: jo.userId, target_id: jo.userId });
  });

  it('DELETE /api/userprofile/me does the same', async () => {
    const sam = await createUser(t);
    const res = await t.app.inject({ method: 'DELETE', url: '/api/userprofile/me', headers: sam.headers });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ status: 'Pending' });
  });

  it('needs the password again once the sign-in is over 5 minutes old', async () => {
    const kim = await createUser(t);
    clock = Date.now() + 6 * 60_000;
    try {
      const stale = await requestDeletion(kim);
      expect(stale.statusCode).toBe(403);
      expect(stale.json()).toMatchObject({ code: 'accounts.reauthentication_required', detail: expect.stringContaining('password') });
      const wrong = await requestDeletion(kim, { password: 'not the password' });
      expect(wrong.statusCode).toBe(403);
      expect(wrong.json()).toMatchObject({ code: 'accounts.password_incorrect' });
      expect((await me(kim)).json()).toMatchObject({ pendingDeletion: null });
      const right = await requestDeletion(kim, { password: kim.password });
      expect(right.statusCode).toBe(202);
    } finally {
      clock = Date.now();
    }
  });

  it('refuses the Owner (409) and callers without a token (401); a banned angler may leave', async () => {
    const owner = await createUser(t, { role: 'Owner' });
    const refused = await requestDeletion(owner);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'accounts.owner_cannot_be_deleted', detail: expect.stringContaining('Owner role') });
    expect((await me(owner)).json()).toMatchObject({ pendingDeletion: null });
    expect((await t.app.inject({ method: 'POST', url: '/api/account/deletion' })).statusCode).toBe(401);

    const banned = await createUser(t);
    await banUser(t, owner, banned, { durationDays: 7 });
    expect((await requestDeletion(banned)).statusCode).toBe(202);
    // A suspended Admin too: staff are anglers with accounts of their own.
    const admin = await createUser(t, { role: 'Admin' });
    expect((await requestDeletion(admin)).statusCode).toBe(202);
  });

  it('schedules one deletion when asked twice at once', async () => {
    const lee = await createUser(t);
    const answers = await Promise.all([requestDeletion(lee), requestDeletion(lee), t.app.inject({ method: 'DELETE', url: '/api/userprofile/me', headers: lee.headers })]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 200, 202]);
    expect(new Set(answers.map((r) => r.json().eraseAfter)).size).toBe(1);
    const { rows } = await t.database.pool.query('SELECT count(*)::int AS n FROM account_deletions WHERE user_id = $1', [lee.userId]);
    expect(rows[0].n).toBe(1);
    expect((await auditEntries(t, 'accounts.deletion_requested')).filter((e) => e.target_id === lee.userId)).toHaveLength(1);
  });
});

describe('the grace period', () => {
  it('hides the person’s content from others at once; signing in shows the pending deletion; cancelling restores everything', async () => {
    const jo = await createUser(t);
    const friend = await createUser(t);
    await befriend(t, jo, friend);
    const post = await createPost(t, jo, { text: 'Walleye at dusk', visibility: 'Public' });
    const friendsPost = await createPost(t, jo, { text: 'Secret spot', visibility: 'Friends' });
    const othersPost = await createPost(t, friend, { text: 'My pike', visibility: 'Public' });
    await createComment(t, jo, othersPost.id, 'Nice pike!');
    const spot = await createSpot(t, jo, { name: 'Jo’s weed edge', privacy: 'Public' });
    const report = await createFishingReport(t, jo);
    const shown = async (url: string) => (await t.app.inject({ method: 'GET', url, headers: friend.headers })).statusCode;
    const nearby = async (url: string) => (await t.app.inject({ method: 'GET', url, headers: friend.headers })).json().map((x: { id: string }) => x.id);
    const spotsNear = '/api/spots/nearby?lat=46.2333&lon=-93.65&radiusKm=10&pageSize=100';
    const reportsNear = '/api/reports/by-location?lat=46.2345&lon=-93.6543&radiusKm=10&pageSize=100';
    expect([await shown(`/api/spots/${spot.id}`), await shown(`/api/reports/${report.id}`)]).toEqual([200, 200]);
    expect(await nearby(spotsNear)).toContain(spot.id);
    expect(await nearby(reportsNear)).toContain(report.id);
    const feedIds = async () => (await t.app.inject({ method: 'GET', url: '/api/social/posts', headers: friend.headers })).json().map((p: { id: string }) => p.id);
    const comments = async () => (await t.app.inject({ method: 'GET', url: `/api/social/posts/${othersPost.id}/comments`, headers: friend.headers })).json();
    expect(await feedIds()).toEqual(expect.arrayContaining([post.id, friendsPost.id]));
    expect(await comments()).toHaveLength(1);

    expect((await requestDeletion(jo)).statusCode).toBe(202);
    expect(await feedIds()).not.toContain(post.id);
    expect(await feedIds()).not.toContain(friendsPost.id);
    expect((await t.app.inject({ method: 'GET', url: `/api/social/posts/${post.id}`, headers: friend.headers })).statusCode).toBe(403);
    expect(await comments()).toHaveLength(0);
    expect(await shown(`/api/spots/${spot.id}`)).toBe(403);
    expect(await shown(`/api/reports/${report.id}`)).toBe(403);
    expect(await nearby(spotsNear)).not.toContain(spot.id);
    expect(await nearby(reportsNear)).not.toContain(report.id);
    expect((await t.app.inject({ method: 'GET', url: `/api/userprofile/${jo.userId}`, headers: friend.headers })).statusCode).toBe(404);
    const search = await t.app.inject({ method: 'GET', url: `/api/social/users?username=${jo.username}`, headers: friend.headers });
    expect(search.json()).toEqual([]);

    // Signing in again during the grace period works and shows the pending deletion.
    const tokens = await login(t, jo.username, jo.password);
    const again = { ...jo, headers: { authorization: `Bearer ${tokens.id_token}` } };
    expect((await me(again)).json()).toMatchObject({ pendingDeletion: { eraseAfter: expect.any(String) } });

    const cancelled = await cancel(again);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'Cancelled', cancelledAt: expect.any(String) });
    expect((await me(again)).json()).toMatchObject({ pendingDeletion: null });
    expect(await feedIds()).toEqual(expect.arrayContaining([post.id, friendsPost.id]));
    expect(await comments()).toHaveLength(1);
    expect([await shown(`/api/spots/${spot.id}`), await shown(`/api/reports/${report.id}`)]).toEqual([200, 200]);
    expect(await nearby(spotsNear)).toContain(spot.id);
    expect(await nearby(reportsNear)).toContain(report.id);
    expect((await t.app.inject({ method: 'GET', url: '/api/social/posts', headers: again.headers })).statusCode).toBe(200);
    const second = await cancel(again);
    expect(second.statusCode).toBe(404);
    expect(second.json()).toMatchObject({ code: 'accounts.no_pending_deletion' });
    expect((await t.app.inject({ method: 'GET', url: '/api/account/deletion', headers: again.headers })).json()).toMatchObject({ status: 404, code: 'accounts.no_pending_deletion' });
    // Asking again schedules a new deletion.
    expect((await requestDeletion(again)).statusCode).toBe(202);
  });
});

describe('the grace period: what the person runs for others', () => {
  it('hides the clubs they own, events they created, tournaments they organize and listings they captain from others (by id and in lists); registrants and admins keep theirs; cancelling restores them', async () => {
    const staff = await createStaff(t, 'users.view');
    const ann = await createUser(t);
    const organizer = await createOrganizer(t);
    const captain = await createCaptain(t, staff.admin);
    const member = await createUser(t);
    const registrant = await createUser(t);
    const other = await createUser(t);
    const tag = ann.username;
    const club = await createClub(t, ann, { name: `Club ${tag}` });
    expect((await t.app.inject({ method: 'POST', url: `/api/clubs/${club.id}/join`, headers: member.headers })).statusCode).toBeLessThan(300);
    const event = await createEvent(t, ann, { title: `Seminar ${tag}` }, staff.owner);
    const tournament = await createTournament(t, organizer);
    await register(t, registrant, tournament.id, tournament.body.divisions[0]!.id, 'Reg Istrant');
    const listing = await createListing(t, captain, { title: `Trip ${tag}` });

    const get = (user: TestUser, url: string) => t.app.inject({ method: 'GET', url, headers: user.headers });
    const ids = async (user: TestUser, url: string) => {
      const body = (await get(user, url)).json() as Array<{ id: string }> | { items: Array<{ id: string }> };
      return (Array.isArray(body) ? body : body.items).map((item) => item.id);
    };
    const lists = {
      club: () => ids(other, `/api/clubs?q=${encodeURIComponent(tag)}&pageSize=100`),
      event: () => ids(other, '/api/events?pageSize=100'),
      tournament: () => ids(other, '/api/tournament?pageSize=100'),
      listing: () => ids(other, `/api/charter/listings?q=${encodeURIComponent(tag)}&pageSize=100`),
    };
    const pages = { club: `/api/clubs/${club.id}`, event: `/api/events/${event.id}`, tournament: `/api/tournament/${tournament.id}`, listing: `/api/charter/listings/${listing.id}` };
    const shownToOther = async () => ({
      club: (await get(other, pages.club)).statusCode,
      event: (await get(other, pages.event)).statusCode,
      tournament: (await get(other, pages.tournament)).statusCode,
      listing: (await get(other, pages.listing)).statusCode,
      lists: { club: (await lists.club()).includes(club.id), event: (await lists.event()).includes(event.id), tournament: (await lists.tournament()).includes(tournament.id), listing: (await lists.listing()).includes(listing.id) },
    });
    const everything = { club: 200, event: 200, tournament: 200, listing: 200, lists: { club: true, event: true, tournament: true, listing: true } };
    expect(await shownToOther()).toEqual(everything);

    for (const user of [ann, organizer, captain]) expect((await requestDeletion(user)).statusCode).toBe(202);
    expect(await shownToOther()).toEqual({ club: 403, event: 403, tournament: 403, listing: 403, lists: { club: false, event: false, tournament: false, listing: false } });
    expect((await get(other, pages.club)).json()).toMatchObject({ status: 403, code: 'clubs.not_visible' });
    expect((await get(other, pages.event)).json()).toMatchObject({ status: 403, code: 'events.not_visible' });
    expect((await get(other, pages.tournament)).json()).toMatchObject({ status: 403, code: 'tournaments.not_visible', detail: expect.stringContaining('organizer is deactivated') });
    expect((await get(other, pages.listing)).json()).toMatchObject({ status: 403, code: 'charters.listing_not_visible' });
    // Nobody joins, registers or books meanwhile: the same refusal.
    expect((await t.app.inject({ method: 'POST', url: `/api/clubs/${club.id}/join`, headers: other.headers })).json()).toMatchObject({ code: 'clubs.not_visible' });
    expect((await t.app.inject({ method: 'POST', url: `/api/events/${event.id}/register`, headers: other.headers })).json()).toMatchObject({ code: 'events.not_visible' });
    // As for a deactivated club, its members do not see it either; a tournament's registrant keeps seeing it (as whatever happens to it); administrators see everything.
    expect((await get(member, pages.club)).json()).toMatchObject({ status: 403, code: 'clubs.not_visible' });
    expect((await get(registrant, pages.tournament)).statusCode).toBe(200);
    for (const url of [pages.club, pages.event, pages.listing]) expect((await get(staff.admin, url)).statusCode, url).toBe(200);

    for (const user of [ann, organizer, captain]) {
      const again = { ...user, headers: { authorization: `Bearer ${(await login(t, user.username, user.password)).id_token}` } };
      expect((await cancel(again)).statusCode).toBe(200);
    }
    expect(await shownToOther()).toEqual(everything);
    expect((await get(member, pages.club)).statusCode).toBe(200);
  });
});

describe('administration: pending deletions and legal holds', () => {
  it('lists pending deletions for Users.View; only the Owner places and lifts a legal hold, which stops erasure', async () => {
    const owner = await createUser(t, { role: 'Owner' });
    const admin = await createUser(t, { role: 'Admin' });
    const moderator = await createUser(t, { role: 'Moderator' });
    const held = await createUser(t);
    const other = await createUser(t);
    expect((await requestDeletion(held)).statusCode).toBe(202);
    expect((await requestDeletion(other)).statusCode).toBe(202);

    const list = await t.app.inject({ method: 'GET', url: '/api/admin/account-deletions?pageSize=100', headers: admin.headers });
    expect(list.statusCode).toBe(200);
    expect(list.headers['x-total-count']).toBeDefined();
    expect(list.json()).toEqual(expect.arrayContaining([expect.objectContaining({ userId: held.userId, username: held.username, status: 'Pending', legalHold: null })]));
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/account-deletions', headers: moderator.headers })).json()).toMatchObject({ status: 403, code: 'access.permission_denied' });

    const hold = (user: TestUser, reason = 'Preservation letter, case 26-118') =>
      t.app.inject({ method: 'POST', url: `/api/admin/account-deletions/${held.userId}/legal-hold`, headers: user.headers, payload: { reason } });
    expect((await hold(admin)).json()).toMatchObject({ status: 403, code: 'access.permission_denied' });
    await grant(t, owner, moderator, 'users.view', true);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/account-deletions', headers: moderator.headers })).statusCode).toBe(200);
    const placed = await hold(owner);
    expect(placed.statusCode).toBe(200);
    expect(placed.json()).toMatchObject({ userId: held.userId, legalHold: { by: owner.userId, reason: 'Preservation letter, case 26-118' } });
    expect((await hold(owner)).json()).toMatchObject({ status: 409, code: 'accounts.already_on_legal_hold' });
    const onHold = await t.app.inject({ method: 'GET', url: '/api/admin/account-deletions?legalHold=true', headers: admin.headers });
    expect(onHold.json().map((d: { userId: string }) => d.userId)).toEqual([held.userId]);
    expect(await auditEntries(t, 'accounts.legal_hold_placed')).toEqual([expect.objectContaining({ actor_user_id: owner.userId, target_id: held.userId, reason: 'Preservation letter, case 26-118' })]);

    // Past the grace period: the one on hold waits, the other is erased.
    const erased = await eraseDueAccounts(deletionDeps(), new Date(Date.now() + 31 * DAY));
    expect(erased).toContain(other.userId);
    expect(erased).not.toContain(held.userId);
    expect((await t.database.pool.query('SELECT username FROM users WHERE id = $1', [held.userId])).rows[0].username).toBe(held.username);

    const lift = await t.app.inject({ method: 'POST', url: `/api/admin/account-deletions/${held.userId}/legal-hold/lift`, headers: owner.headers, payload: { reason: 'Case closed' } });
    expect(lift.statusCode).toBe(200);
    expect(lift.json()).toMatchObject({ legalHold: null });
    expect(await eraseDueAccounts(deletionDeps(), new Date(Date.now() + 31 * DAY))).toEqual([held.userId]);
    const after = await t.app.inject({ method: 'GET', url: '/api/admin/account-deletions?status=Erased&pageSize=100', headers: admin.headers });
    expect(after.json()).toEqual(expect.arrayContaining([expect.objectContaining({ userId: held.userId, username: 'former angler', email: null, status: 'Erased', erasedAt: expect.any(String) })]));
    const missing = await t.app.inject({ method: 'POST', url: `/api/admin/account-deletions/${held.userId}/legal-hold`, headers: owner.headers, payload: { reason: 'Too late' } });
    expect(missing.json()).toMatchObject({ status: 404, code: 'accounts.deletion_not_found' });
  });
});

describe('a banned angler cannot delete their way around the ban', () => {
  it('recognises a new account with the same e-mail after erasure and bans it too', async () => {
    const owner = await createUser(t, { role: 'Owner' });
    const troll = await createUser(t);
    await banUser(t, owner, troll, { durationDays: null, reason: 'Harassment' });
    expect((await requestDeletion(troll)).statusCode).toBe(202);
    expect(await eraseDueAccounts(deletionDeps(), new Date(Date.now() + 31 * DAY))).toContain(troll.userId);
    // The ban stays, on the erased account, with the identity's hashes.
    const { rows } = await t.database.pool.query('SELECT reason, subject_hash, email_hash, identity_hash_version FROM user_bans WHERE user_id = $1', [troll.userId]);
    expect(rows).toEqual([{ reason: 'Harassment', subject_hash: expect.any(String), email_hash: expect.any(String), identity_hash_version: 2 }]);
    // Keyed: not the SHA-256 anyone could compute from a list of known e-mails, but the HMAC under the server's key.
    const key = banIdentityKey(t.config);
    expect(rows[0].email_hash).not.toBe(unkeyedDigest('email', troll.email));
    expect(rows[0].email_hash).toBe(identityHash(key, 'email', troll.email));
    expect(rows[0].subject_hash).toBe(identityHash(key, 'sub', troll.sub));
    // Another server key makes other hashes: the table alone names nobody.
    expect(identityHash(banIdentityKey({ settingsKey: 'another settings key of at least 32 chars', dataDir: t.config.dataDir }), 'email', troll.email)).not.toBe(rows[0].email_hash);
    // The identity provider's user is gone: the old password signs in nobody.
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: troll.username, password: troll.password } })).statusCode).toBe(401);

    // A new account with the same e-mail is banned from its first sign-in.
    await createIdpUser(t.database.db, 10, { username: `${troll.username}_again`, email: troll.email, password: 'a long password again' });
    const tokens = await login(t, `${troll.username}_again`, 'a long password again');
    const res = await t.app.inject({ method: 'GET', url: '/api/social/posts', headers: { authorization: `Bearer ${tokens.id_token}` } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'auth.banned', detail: expect.stringContaining('Harassment') });
  });
});

describe('ban hashes written before they were keyed', () => {
  it('are re-keyed when the app starts, and still recognise the identity', async () => {
    const owner = await createUser(t, { role: 'Owner' });
    const gone = await createUser(t);
    await banUser(t, owner, gone, { durationDays: null, reason: 'Spam' });
    // A ban as migration 0048 found it: unkeyed SHA-256 hashes, marked version 1.
    const email = `legacy-${gone.username}@example.com`;
    await t.database.pool.query('UPDATE user_bans SET subject_hash = $2, email_hash = $3, identity_hash_version = 1 WHERE user_id = $1', [
      gone.userId,
      unkeyedDigest('sub', `legacy-sub-${gone.userId}`),
      unkeyedDigest('email', email),
    ]);
    // A process starting re-keys it (once: a second start changes nothing).
    for (let i = 0; i < 2; i++) {
      const starting = await createTestApp({ sameDatabaseAs: t });
      await starting.app.ready();
      await starting.close();
    }
    const { rows } = await t.database.pool.query('SELECT email_hash, identity_hash_version FROM user_bans WHERE user_id = $1', [gone.userId]);
    expect(rows).toEqual([{ email_hash: identityHash(banIdentityKey(t.config), 'email', email), identity_hash_version: 2 }]);

    await createIdpUser(t.database.db, 10, { username: `${gone.username}_back`, email: email.toUpperCase(), password: 'a long password back' });
    const tokens = await login(t, `${gone.username}_back`, 'a long password back');
    const res = await t.app.inject({ method: 'GET', url: '/api/social/posts', headers: { authorization: `Bearer ${tokens.id_token}` } });
    expect(res.json()).toMatchObject({ status: 403, code: 'auth.banned', detail: expect.stringContaining('Spam') });
  });
});

describe('an erasure that fails', () => {
  it('changes nothing of that account (one transaction), erases the others, and is retried by the next run', async () => {
    const victim = await createUser(t);
    const other = await createUser(t);
    const post = await createPost(t, victim, { text: 'Still here', visibility: 'Public' });
    let failing = true;
    // Registered last: every module's erasure of the victim ran before it in the same transaction.
    registerPersonalData(t, {
      module: 'test-failing',
      columns: [],
      erase: async (_tx, userId) => {
        if (failing && userId === victim.userId) throw new Error('disk on fire');
      },
    });
    expect((await requestDeletion(victim)).statusCode).toBe(202);
    expect((await requestDeletion(other)).statusCode).toBe(202);

    expect(await eraseDueAccounts(deletionDeps(), new Date(Date.now() + 31 * DAY))).toEqual([other.userId]);
    const { rows } = await t.database.pool.query('SELECT u.username, d.status, (SELECT count(*)::int FROM posts WHERE id = $2) AS posts FROM users u JOIN account_deletions d ON d.user_id = u.id WHERE u.id = $1', [
      victim.userId,
      post.id,
    ]);
    expect(rows).toEqual([{ username: victim.username, status: 'Pending', posts: 1 }]);

    failing = false;
    expect(await eraseDueAccounts(deletionDeps(), new Date(Date.now() + 31 * DAY))).toEqual([victim.userId]);
  });
});
