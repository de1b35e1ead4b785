import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CognitoIdentityProvider } from '../../core/auth/idp/cognito/cognito-idp.js';
import { LocalIdentityProvider } from '../../core/auth/idp/local/local-idp.js';
import type { IdentityProvider } from '../../core/auth/idp/types.js';
import { coveredColumns } from '../../core/personal-data.js';
import { serviceDeps } from '../../core/service-deps.js';
import { createTestApp, testConfig, type TestApp } from '../../../test/harness.js';
import { startCognitoStandIn, type CognitoStandIn } from '../../../test/cognito-stand-in.js';
import { startTestS3, type TestS3 } from '../../../test/s3-server.js';
import {
  addToCircle,
  auditEntries,
  befriend,
  bookNewSlot,
  catchPhotosUrl,
  charterCast,
  createAnnouncement,
  createBoat,
  createCatch,
  createClub,
  createComment,
  createEntry,
  createEvent,
  createFishingReport,
  createOrganizer,
  createPost,
  createSession,
  createSetup,
  createSpot,
  createTestPayment,
  createTournament,
  createUser,
  jpegWithGps,
  mediaFiles,
  register,
  smallPng,
  uploadPhoto,
  type TestUser,
} from '../../../test/factories.js';
import { s3Storage } from '../photos/photos.s3-storage.js';
import { eraseDueAccounts, type DeletionDeps } from './deletion.service.js';

/** Erasing an account after its grace period: every module's rows, the photos' files, the identity provider's user. */

const DAY = 86_400_000;
const later = () => new Date(Date.now() + 31 * DAY);

function deletionDeps(t: TestApp, idp: IdentityProvider = new LocalIdentityProvider(t.database.db, t.config.idp as never)): DeletionDeps {
  return { ...serviceDeps(t), idp, settings: { get: () => undefined }, log: { warn: () => undefined, info: () => undefined }, invalidate: () => undefined };
}

async function requestDeletion(t: TestApp, user: TestUser): Promise<void> {
  const res = await t.app.inject({ method: 'POST', url: '/api/account/deletion', headers: user.headers, payload: { password: user.password } });
  expect(res.statusCode).toBe(202);
}

/** Rows of each registered column that name the user, as `table.column` → count. */
async function rowsNaming(t: TestApp, userId: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const name of coveredColumns(t).keys()) {
    const [table, column] = name.split('.') as [string, string];
    const { rows } = await t.database.owner.pool.query(`SELECT count(*)::int AS n FROM "${table}" WHERE "${column}" = $1`, [userId]);
    counts.set(name, rows[0].n as number);
  }
  return counts;
}

describe('an angler with data in every module deletes their account', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('deletes what is theirs, keeps detached what others depend on, and removes photo files and the sign-in', async () => {
    const { staff, captain, listing } = await charterCast(t);
    const owner = staff.owner;
    const jo = await createUser(t);
    const friend = await createUser(t);
    const send = async (user: TestUser, method: 'POST' | 'PUT', url: string, payload?: object) => {
      const res = await t.app.inject({ method, url, headers: user.headers, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
      return res.body ? res.json() : undefined;
    };

    // Fishing log, photos, gear.
    const entry = await createEntry(t, jo, { visibility: 'Public' });
    const caught = await createCatch(t, jo, entry);
    await createSession(t, jo);
    const photo = await uploadPhoto(t, jo, catchPhotosUrl(entry.id, caught.id), await jpegWithGps({ width: 800, height: 600 }));
    await uploadPhoto(t, jo, '/api/userprofile/me/avatar', await smallPng(), { method: 'PUT' });
    await createBoat(t, jo);
    await createSetup(t, jo);
    // Profile and research consent.
    await send(jo, 'PUT', '/api/userprofile/me', { visibility: 'Public', unitsPreference: 'Metric', bio: 'Walleye nut', researchConsent: 'Anonymized' });
    // Social.
    await befriend(t, jo, friend);
    await addToCircle(t, jo, friend);
    await addToCircle(t, friend, jo);
    const post = await createPost(t, jo, { text: 'Dusk bite', visibility: 'Public' });
    const friendsPost = await createPost(t, friend, { text: 'My pike', visibility: 'Public' });
    await createComment(t, friend, post.id, 'Great one');
    await createComment(t, jo, friendsPost.id, 'Nice pike');
    await send(jo, 'POST', `/api/social/posts/${friendsPost.id}/like`);
    // Clubs and events.
    await createClub(t, jo, { name: 'Jo’s club' });
    const friendsClub = await createClub(t, friend, { name: 'Friend’s club' });
    await send(jo, 'POST', `/api/clubs/${friendsClub.id}/join`);
    await createEvent(t, jo);
    const friendsEvent = await createEvent(t, friend, {}, owner);
    await send(jo, 'POST', `/api/events/${friendsEvent.id}/register`);
    // Spots: one others rated (kept, detached), one nobody else touched (deleted); a rating of someone else's.
    const ratedSpot = await createSpot(t, jo, { name: 'Rated edge' });
    await send(friend, 'POST', `/api/spots/${ratedSpot.id}/rate`, { stars: 4 });
    const lonelySpot = await createSpot(t, jo, { name: 'Lonely edge' });
    const friendsSpot = await createSpot(t, friend, { name: 'Friend edge' });
    await send(jo, 'POST', `/api/spots/${friendsSpot.id}/rate`, { stars: 5 });
    // Fishing reports.
    const report = await createFishingReport(t, jo);
    await send(friend, 'POST', `/api/reports/${report.id}/rate`);
    const friendsReport = await createFishingReport(t, friend);
    await send(jo, 'POST', `/api/reports/${friendsReport.id}/rate`);
    // Announcements.
    const announcement = await createAnnouncement(t, owner, { dismissal: 'Dismissible' } as never);
    await send(jo, 'POST', `/api/announcements/${announcement.id}/dismiss`);
    // Tournament (with its entry fee), charter booking, a payment.
    const organizer = await createOrganizer(t);
    const tournament = await createTournament(t, organizer);
    const registration = await register(t, jo, tournament.id, tournament.body.divisions[0]!.id, 'Jo Angler');
    const booking = await bookNewSlot(t, captain, listing, jo);
    expect(booking.statusCode).toBe(201);
    await createTestPayment(t, jo);

    const before = await rowsNaming(t, jo.userId);
    const filled = [...before].filter(([, n]) => n > 0).map(([name]) => name);
    expect(filled).toEqual(
      expect.arrayContaining([
        'fishing_log_entries.owner_id',
        'catches.owner_id',
        'fishing_sessions.owner_id',
        'photos.owner_id',
        'boats.owner_id',
        'gear_setups.owner_id',
        'user_profiles.user_id',
        'research_consents.user_id',
        'friend_links.user_id',
        'friend_links.friend_id',
        'circle_members.owner_id',
        'circle_members.member_id',
        'posts.author_id',
        'post_comments.author_id',
        'post_likes.user_id',
        'clubs.owner_id',
        'club_members.user_id',
        'events.creator_id',
        'event_registrations.user_id',
        'spots.owner_id',
        'spot_ratings.user_id',
        'fishing_reports.author_id',
        'fishing_report_helpful.user_id',
        'notifications.recipient_id',
        'announcement_dismissals.user_id',
        'tournament_registrations.user_id',
        'charter_bookings.customer_id',
        'payments.payer_id',
        'user_sign_ins.user_id',
      ]),
    );
    const files = await mediaFiles(t);
    expect(files.some((file) => file.includes(photo.id))).toBe(true);

    const eventsAbout = async () => (await t.database.pool.query('SELECT count(*)::int AS n FROM notification_events WHERE strpos(payload::text, $1) > 0', [jo.userId])).rows[0].n;
    // An event whose view names them: the Owner made them a Moderator (staff delete their accounts too).
    await send(owner, 'PUT', `/api/admin/employees/${jo.userId}/role`, { role: 'Moderator', reason: 'Helps with reports' });
    expect(await eventsAbout()).toBeGreaterThan(0);

    await requestDeletion(t, jo);
    expect(await eraseDueAccounts(deletionDeps(t), later())).toEqual([jo.userId]);

    // Nothing names them any more but the kept rows, each as documented.
    const registrations = coveredColumns(t);
    const after = await rowsNaming(t, jo.userId);
    for (const [name, n] of after) {
      const { column } = registrations.get(name)!;
      if (column.action !== 'keep') expect(n, name).toBe(0);
    }
    expect([...after].filter(([, n]) => n > 0).map(([name]) => name).sort()).toEqual(
      ['account_deletions.user_id', 'charter_bookings.customer_id', 'payments.payer_id', 'tournament_fee_payments.user_id', 'tournament_registrations.user_id'].filter((name) => after.get(name)! > 0).sort(),
    );
    const { rows: users } = await t.database.pool.query('SELECT username, email, sub, is_active, erased_at FROM users WHERE id = $1', [jo.userId]);
    expect(users).toEqual([{ username: 'former angler', email: null, sub: `erased:${jo.userId}`, is_active: false, erased_at: expect.any(Date) }]);
    const { rows: standings } = await t.database.pool.query('SELECT angler_name FROM tournament_registrations WHERE id = $1', [registration.id]);
    expect(standings).toEqual([{ angler_name: 'Former angler' }]);
    // The spot others rated stays as a community spot; the other is gone, and so is their rating of a friend's spot.
    const { rows: spots } = await t.database.pool.query('SELECT id, owner_id FROM spots WHERE id = ANY($1)', [[ratedSpot.id, lonelySpot.id, friendsSpot.id]]);
    expect(spots).toEqual(expect.arrayContaining([{ id: ratedSpot.id, owner_id: null }, { id: friendsSpot.id, owner_id: friend.userId }]));
    expect(spots).toHaveLength(2);
    // Others' content stays: the friend's post, minus jo's like and comment.
    const friendsView = await t.app.inject({ method: 'GET', url: `/api/social/posts/${friendsPost.id}/comments`, headers: friend.headers });
    expect(friendsView.json()).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: `/api/social/posts/${post.id}`, headers: friend.headers })).statusCode).toBe(404);
    // No notification event keeps a view that names them.
    expect(await eventsAbout()).toBe(0);
    // Photo files gone from disk.
    expect((await mediaFiles(t)).filter((file) => file.includes(photo.id))).toEqual([]);
    // The identity provider's user is gone: no sign-in.
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: jo.username, password: jo.password } })).statusCode).toBe(401);
    const { rows: idp } = await t.database.owner.pool.query('SELECT count(*)::int AS n FROM idp.users WHERE sub::text = $1', [jo.sub]);
    expect(idp[0].n).toBe(0);
    expect(await auditEntries(t, 'accounts.erased')).toEqual([expect.objectContaining({ target_id: jo.userId, actor_type: 'system' })]);
    // Nothing is due any more.
    expect(await eraseDueAccounts(deletionDeps(t), later())).toEqual([]);
  });
});

describe('erasure with S3 photo storage and the Cognito identity provider', () => {
  let s3: TestS3;
  let standIn: CognitoStandIn;
  let t: TestApp;
  let idp: CognitoIdentityProvider;
  let dataDir: string;

  beforeAll(async () => {
    s3 = await startTestS3();
    standIn = await startCognitoStandIn({ region: 'eu-west-1', poolId: 'eu-west-1_Erase1', clientId: 'erase-client' });
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'fishlog-erasure-s3-'));
    const env = { IDP: 'cognito', COGNITO_USER_POOL_ID: 'eu-west-1_Erase1', COGNITO_CLIENT_ID: 'erase-client', AWS_REGION: 'eu-west-1', COGNITO_ENDPOINT: standIn.url, FISHLOG_DATA_DIR: dataDir, ...s3.env };
    idp = new CognitoIdentityProvider(testConfig(env).idp as never);
    t = await createTestApp({ env, idp });
  });
  afterAll(async () => {
    await t?.close();
    await standIn?.close();
    await s3?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('signs out with AdminUserGlobalSignOut, deletes the photo objects and calls AdminDeleteUser', async () => {
    standIn.addUser({ username: 'cora', password: 'cognito-pass-1', email: 'cora@example.com' });
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'cora', password: 'cognito-pass-1' } });
    expect(login.statusCode).toBe(200);
    const tokens = login.json();
    const cora = { headers: { authorization: `Bearer ${tokens.id_token}` }, password: 'cognito-pass-1' } as TestUser;
    const { rows } = await t.database.pool.query("SELECT id FROM users WHERE username = 'cora'");
    const userId = rows[0].id as string;
    const entry = await createEntry(t, userId);
    const caught = await createCatch(t, userId, entry);
    const photo = await uploadPhoto(t, cora, catchPhotosUrl(entry.id, caught.id), await jpegWithGps({ width: 800, height: 600 }));
    const bucket = s3Storage({ bucket: s3.bucket, region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, redirectSeconds: 0 });
    expect(await bucket.get(`photos/${photo.id}/display.jpg`)).toBeDefined();

    await requestDeletion(t, cora);
    expect(standIn.calls).toContain('AdminUserGlobalSignOut');
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: tokens.refresh_token } })).statusCode).toBe(401);

    expect(await eraseDueAccounts(deletionDeps(t, idp), later())).toEqual([userId]);
    expect(standIn.calls).toContain('AdminDeleteUser');
    expect(await bucket.get(`photos/${photo.id}/display.jpg`)).toBeUndefined();
    expect(await bucket.get(`photos/${photo.id}/thumbnail.jpg`)).toBeUndefined();
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'cora', password: 'cognito-pass-1' } })).statusCode).toBe(401);
    const { rows: left } = await t.database.pool.query('SELECT idp_subject FROM account_deletions WHERE user_id = $1', [userId]);
    expect(left).toEqual([{ idp_subject: null }]);
  });
});
