import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, type TestUser, MISSING_ID, auditCount, auditEntries, grant, createPost } from '../../../test/factories.js';

/** User reports for moderators: the list, the resolution, who may, and the audit log. */

let t: TestApp;
let owner: TestUser;
let admin: TestUser;
let adminDenied: TestUser;
let modNone: TestUser;
let modGranted: TestUser;
let standard: TestUser;
let author: TestUser;
let reporter: TestUser;


beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t, { role: 'Owner' });
  admin = await createUser(t, { role: 'Admin' });
  adminDenied = await createUser(t, { role: 'Admin' });
  modNone = await createUser(t, { role: 'Moderator' });
  modGranted = await createUser(t, { role: 'Moderator' });
  standard = await createUser(t);
  author = await createUser(t, { username: 'rude_rudy' });
  reporter = await createUser(t, { username: 'careful_carla' });
  await grant(t, owner, adminDenied, 'Content.Moderate', false);
  await grant(t, owner, modGranted, 'Content.Moderate', true);
});
afterAll(async () => {
  await t?.close();
});

async function reportPost(text = 'You all fish like grandmas') {
  const post = await createPost(t, author, { text });
  const res = await t.app.inject({ method: 'POST', url: `/api/social/posts/${post.id}/report`, headers: reporter.headers, payload: { reason: 'Harassment', details: 'Insulting everyone' } });
  expect(res.statusCode).toBe(201);
  return { postId: post.id, reportId: res.json().id as string };
}

const list = (user: TestUser, query = '') => t.app.inject({ method: 'GET', url: `/api/admin/reports${query}`, headers: user.headers });
const resolve = (user: TestUser, id: string, payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: `/api/admin/reports/${id}/resolve`, headers: user.headers, payload });

describe('who may list and resolve reports', () => {
  it.each([
    ['owner', true],
    ['admin', true],
    ['adminDenied', false],
    ['modNone', false],
    ['modGranted', true],
    ['standard', false],
  ] as const)('%s: %s', async (name, allowed) => {
    const user = { owner, admin, adminDenied, modNone, modGranted, standard }[name];
    const { reportId } = await reportPost();
    const listed = await list(user);
    const resolved = await resolve(user, reportId, { resolution: 'NoViolation' });
    expect(listed.statusCode).toBe(allowed ? 200 : 403);
    expect(resolved.statusCode).toBe(allowed ? 200 : 403);
    if (!allowed) {
      expect(resolved.json()).toMatchObject({ code: 'access.permission_denied', detail: expect.stringContaining('Content.Moderate') });
      const row = await t.database.pool.query('SELECT status FROM user_reports WHERE id = $1', [reportId]);
      expect(row.rows[0].status).toBe('Open');
    }
  });

  it('needs a token (401)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/reports' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: `/api/admin/reports/${MISSING_ID}/resolve`, payload: { resolution: 'NoViolation' } })).statusCode).toBe(401);
  });
});

describe('GET /api/admin/reports', () => {
  it('lists reports oldest first with reporter, target and snapshot, filtered and paginated, audit-logged', async () => {
    const isolated = await createTestApp();
    try {
      const boss = await createUser(isolated, { role: 'Admin' });
      const rude = await createUser(isolated, { username: 'rude_rita' });
      const carla = await createUser(isolated, { username: 'carla_c' });
      const post = await createPost(isolated, rude, { text: 'Original text' });
      const filed = (kind: string, id: string, reason: string) =>
        isolated.app.inject({ method: 'POST', url: `/api/social/${kind}/${id}/report`, headers: carla.headers, payload: { reason } });
      const first = (await filed('posts', post.id, 'Spam')).json();
      const second = (await filed('users', rude.userId, 'Impersonation')).json();
      await isolated.app.inject({ method: 'PATCH', url: `/api/social/posts/${post.id}`, headers: rude.headers, payload: { text: 'Edited to hide it' } });
      const before = await auditCount(isolated);
      const res = await isolated.app.inject({ method: 'GET', url: '/api/admin/reports', headers: boss.headers });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-total-count']).toBe('2');
      expect(res.json()).toEqual([
        {
          id: first.id,
          targetType: 'Post',
          targetId: post.id,
          target: { user: { id: rude.userId, username: 'rude_rita' }, state: 'Published', snapshot: { text: 'Original text', photoUrls: [], username: 'rude_rita' } },
          reporter: { id: carla.userId, username: 'carla_c' },
          reason: 'Spam',
          details: null,
          status: 'Open',
          resolution: null,
          resolutionNote: null,
          resolvedBy: null,
          resolvedAt: null,
          createdAt: expect.any(String),
        },
        expect.objectContaining({ id: second.id, targetType: 'User', target: { user: { id: rude.userId, username: 'rude_rita' }, state: 'Active', snapshot: { username: 'rude_rita' } } }),
      ]);
      expect(res.body).not.toContain(carla.email);
      expect(await auditCount(isolated)).toBe(before + 1);
      expect((await auditEntries(isolated, 'reports.listed'))[0]).toMatchObject({ actor_user_id: boss.userId });

      await isolated.app.inject({ method: 'DELETE', url: `/api/social/posts/${post.id}`, headers: rude.headers });
      const byType = await isolated.app.inject({ method: 'GET', url: '/api/admin/reports?targetType=post&status=Open', headers: boss.headers });
      expect(byType.json()).toEqual([expect.objectContaining({ id: first.id, target: expect.objectContaining({ state: 'Deleted', snapshot: expect.objectContaining({ text: 'Original text' }) }) })]);
      const byTarget = await isolated.app.inject({ method: 'GET', url: `/api/admin/reports?targetId=${rude.userId}`, headers: boss.headers });
      expect(byTarget.json().map((r: { id: string }) => r.id)).toEqual([second.id]);
      const paged = await isolated.app.inject({ method: 'GET', url: '/api/admin/reports?pageSize=1&page=2', headers: boss.headers });
      expect(paged.json().map((r: { id: string }) => r.id)).toEqual([second.id]);
      expect((await isolated.app.inject({ method: 'GET', url: '/api/admin/reports?status=Closed', headers: boss.headers })).statusCode).toBe(400);
    } finally {
      await isolated.close();
    }
  });
});

describe('POST /api/admin/reports/{id}/resolve', () => {
  it('resolves with a note, once, with one audit entry', async () => {
    const { reportId } = await reportPost();
    const before = await auditCount(t);
    const res = await resolve(modGranted, reportId, { resolution: 'NoViolation', note: 'Friendly banter' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: reportId,
      status: 'Resolved',
      resolution: 'NoViolation',
      resolutionNote: 'Friendly banter',
      resolvedBy: { id: modGranted.userId, username: modGranted.username },
      resolvedAt: expect.any(String),
      target: expect.objectContaining({ state: 'Published' }),
    });
    expect(await auditCount(t)).toBe(before + 1);
    const [entry] = (await auditEntries(t, 'reports.resolved')).filter((e) => e.target_id === reportId);
    expect(entry).toMatchObject({ actor_user_id: modGranted.userId, target_type: 'user_report', reason: 'Friendly banter', before: { status: 'Open' }, after: { status: 'Resolved', resolution: 'NoViolation' } });
    const twice = await resolve(admin, reportId, { resolution: 'ActionTaken' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('reports.already_resolved');
  });

  it('ContentRejected rejects the post: its author sees the note as the reason, and both decisions are audit-logged', async () => {
    const { reportId, postId } = await reportPost();
    const res = await resolve(admin, reportId, { resolution: 'ContentRejected', note: 'Insults break the rules.' });
    expect(res.json()).toMatchObject({ resolution: 'ContentRejected', target: expect.objectContaining({ state: 'Rejected' }) });
    const seen = await t.app.inject({ method: 'GET', url: `/api/social/posts/${postId}`, headers: author.headers });
    expect(seen.json()).toMatchObject({ moderationStatus: 'Rejected', moderationReason: 'Insults break the rules.' });
    expect((await t.app.inject({ method: 'GET', url: `/api/social/posts/${postId}`, headers: reporter.headers })).statusCode).toBe(403);
    const [rejection] = (await auditEntries(t, 'moderation.post_rejected')).filter((e) => e.target_id === postId);
    expect(rejection).toMatchObject({ actor_user_id: admin.userId, after: { status: 'Rejected', via: `report ${reportId}` } });
    expect((await auditEntries(t, 'reports.resolved')).some((e) => e.target_id === reportId)).toBe(true);
  });

  it('ContentRejected works on comments and without a note', async () => {
    const post = await createPost(t, reporter, { text: 'My catch' });
    const comment = (await t.app.inject({ method: 'POST', url: `/api/social/posts/${post.id}/comments`, headers: author.headers, payload: { text: 'Ugly fish' } })).json();
    const filed = (await t.app.inject({ method: 'POST', url: `/api/social/comments/${comment.id}/report`, headers: reporter.headers, payload: { reason: 'Harassment' } })).json();
    const res = await resolve(admin, filed.id, { resolution: 'ContentRejected' });
    expect(res.statusCode).toBe(200);
    const own = await t.app.inject({ method: 'GET', url: `/api/social/posts/${post.id}/comments`, headers: author.headers });
    expect(own.json()[0]).toMatchObject({ moderationStatus: 'Rejected', moderationReason: 'Removed after a report (Harassment).' });
  });

  it('refuses ContentRejected for a user report (400) and for deleted content (409), changing nothing', async () => {
    const userReport = (await t.app.inject({ method: 'POST', url: `/api/social/users/${author.userId}/report`, headers: reporter.headers, payload: { reason: 'Spam' } })).json();
    const bad = await resolve(admin, userReport.id, { resolution: 'ContentRejected' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'reports.resolution_needs_content', errors: [{ pointer: '/resolution' }] });
    const { reportId, postId } = await reportPost();
    await t.app.inject({ method: 'DELETE', url: `/api/social/posts/${postId}`, headers: author.headers });
    const gone = await resolve(admin, reportId, { resolution: 'ContentRejected' });
    expect(gone.statusCode).toBe(409);
    expect(gone.json().code).toBe('reports.target_gone');
    const rows = await t.database.pool.query('SELECT status FROM user_reports WHERE id = ANY($1)', [[userReport.id, reportId]]);
    expect(rows.rows.map((r) => r.status)).toEqual(['Open', 'Open']);
    expect((await resolve(admin, reportId, { resolution: 'ActionTaken', note: 'Author deleted it' })).statusCode).toBe(200);
  });

  it('answers 404 for an unknown report and 400 for a bad body', async () => {
    expect((await resolve(admin, MISSING_ID, { resolution: 'NoViolation' })).json()).toMatchObject({ status: 404, code: 'reports.report_not_found' });
    const { reportId } = await reportPost();
    expect((await resolve(admin, reportId, {})).statusCode).toBe(400);
    expect((await resolve(admin, reportId, { resolution: 'Banned' })).statusCode).toBe(400);
    expect((await resolve(admin, reportId, { resolution: 'NoViolation', note: '' })).statusCode).toBe(400);
    expect((await resolve(admin, 'x', { resolution: 'NoViolation' })).statusCode).toBe(400);
  });
});
