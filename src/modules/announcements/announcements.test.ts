import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { announcementBody, auditEntries, createAnnouncement, createStaff, createUser, grant, MISSING_ID, type Staff, type TestUser } from '../../../test/factories.js';

let clock = Date.now();
let t: TestApp;
let staff: Staff;
/** Admin denied all three Announcements permissions. */
let deniedAllAdmin: TestUser;
/** Admin denied only Announcements.Edit. */
let noEditAdmin: TestUser;
let editModerator: TestUser;
let deleteModerator: TestUser;
let dnr: TestUser;
let researcher: TestUser;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

beforeAll(async () => {
  t = await createTestApp({ now: () => clock });
  // deniedAdmin is denied Announcements.Create, grantedModerator granted it.
  staff = await createStaff(t, 'Announcements.Create');
  [deniedAllAdmin, noEditAdmin, editModerator, deleteModerator, dnr, researcher] = await Promise.all([
    createUser(t, { role: 'Admin' }),
    createUser(t, { role: 'Admin' }),
    createUser(t, { role: 'Moderator' }),
    createUser(t, { role: 'Moderator' }),
    createUser(t, { role: 'DNR' }),
    createUser(t, { role: 'Researcher' }),
  ]);
  for (const permission of ['Announcements.Create', 'announcements.edit', 'Announcements.Delete']) await grant(t, staff.owner, deniedAllAdmin, permission, false);
  await grant(t, staff.owner, noEditAdmin, 'Announcements.Edit', false);
  await grant(t, staff.owner, editModerator, 'announcements.edit', true);
  await grant(t, staff.owner, deleteModerator, 'Announcements.Delete', true);
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PUT';
const call = (method: Method, url: string, user: TestUser | null, payload?: unknown) =>
  t.app.inject({ method, url, ...(user ? { headers: user.headers } : {}), ...(payload === undefined ? {} : { payload: payload as object }) });
const mine = async (user: TestUser): Promise<Array<{ id: string; title: string; priority: string }>> => {
  const res = await call('GET', '/api/announcements', user);
  expect(res.statusCode).toBe(200);
  return res.json();
};
const ids = async (user: TestUser) => (await mine(user)).map((a) => a.id);
const iso = (ms: number) => new Date(ms).toISOString();

describe('who may manage announcements', () => {
  it('lets the Owner, an Admin and a Moderator granted Announcements.Create create one, audit-logged with the reason', async () => {
    for (const user of [staff.owner, staff.admin, staff.grantedModerator]) {
      const res = await call('POST', '/api/admin/announcements', user, announcementBody({ title: `By ${user.username}`, audience: ['Moderator', 'Admin'], reason: 'Staff note' }));
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({
        title: `By ${user.username}`,
        type: 'Info',
        priority: 'Normal',
        audience: ['Moderator', 'Admin'],
        dismissal: 'Dismissible',
        status: 'Active',
        version: 1,
        dismissedCount: 0,
        isActive: true,
        endsAt: null,
        startsAt: iso(clock),
        createdBy: user.userId,
      });
      const audit = (await auditEntries(t, 'announcements.created')).at(-1)!;
      expect(audit).toMatchObject({ actor_user_id: user.userId, target_type: 'announcement', target_id: res.json().id, reason: 'Staff note' });
    }
  });

  it('refuses to create for an Admin denied it, a Moderator without the grant, Standard and anonymous callers', async () => {
    expect((await call('POST', '/api/admin/announcements', null, announcementBody())).statusCode).toBe(401);
    for (const user of [staff.deniedAdmin, staff.moderator, staff.standard, dnr]) {
      const res = await call('POST', '/api/admin/announcements', user, announcementBody());
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'access.permission_denied', detail: expect.stringContaining('Announcements.Create') });
    }
  });

  it('lets any holder of one of the three permissions read, and nobody else', async () => {
    const a = await createAnnouncement(t, staff.owner, { title: 'Readable' });
    for (const user of [staff.owner, staff.admin, staff.deniedAdmin, staff.grantedModerator, editModerator, deleteModerator]) {
      const list = await call('GET', '/api/admin/announcements?pageSize=100', user);
      expect(list.statusCode).toBe(200);
      expect(list.json().map((x: { id: string }) => x.id)).toContain(a.id);
      expect((await call('GET', `/api/admin/announcements/${a.id}`, user)).json()).toMatchObject({ id: a.id, title: 'Readable', dismissedCount: 0 });
      expect((await call('GET', `/api/admin/announcements/${a.id}/versions`, user)).statusCode).toBe(200);
    }
    for (const user of [deniedAllAdmin, staff.moderator, staff.standard]) {
      for (const url of ['/api/admin/announcements', `/api/admin/announcements/${a.id}`, `/api/admin/announcements/${a.id}/versions`]) {
        const res = await call('GET', url, user);
        expect(res.statusCode, url).toBe(403);
        expect(res.json()).toMatchObject({ code: 'access.permission_denied', detail: expect.stringContaining('Announcements.Edit') });
      }
    }
    expect((await call('GET', `/api/admin/announcements/${MISSING_ID}`, staff.owner)).json()).toMatchObject({ status: 404, code: 'announcements.not_found' });
  });

  it('lets the Owner, an Admin and a Moderator granted Announcements.Edit edit; refuses the others', async () => {
    const a = await createAnnouncement(t, staff.owner);
    for (const user of [staff.owner, staff.admin, editModerator]) {
      const res = await call('PUT', `/api/admin/announcements/${a.id}`, user, { ...announcementBody({ title: `Edited by ${user.username}` }), startsAt: iso(clock), reason: 'Wording' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ title: `Edited by ${user.username}`, updatedBy: user.userId });
    }
    for (const user of [noEditAdmin, staff.grantedModerator, staff.moderator, staff.standard]) {
      const res = await call('PUT', `/api/admin/announcements/${a.id}`, user, { ...announcementBody({ title: 'Hijacked' }), startsAt: iso(clock) });
      expect(res.statusCode).toBe(403);
      expect(res.json().detail).toContain('Announcements.Edit');
    }
    expect((await call('GET', `/api/admin/announcements/${a.id}`, staff.owner)).json()).toMatchObject({ title: `Edited by ${editModerator.username}`, version: 4 });
    const missing = await call('PUT', `/api/admin/announcements/${MISSING_ID}`, staff.owner, { ...announcementBody(), startsAt: iso(clock) });
    expect(missing.json()).toMatchObject({ status: 404, code: 'announcements.not_found' });
  });

  it('lets the Owner, an Admin and a Moderator granted Announcements.Delete deactivate and reactivate; refuses the others', async () => {
    const a = await createAnnouncement(t, staff.owner);
    for (const user of [staff.owner, staff.admin, deleteModerator]) {
      const off = await call('POST', `/api/admin/announcements/${a.id}/deactivate`, user, { reason: 'Outdated' });
      expect(off.statusCode).toBe(200);
      expect(off.json()).toMatchObject({ id: a.id, isActive: false, status: 'Inactive', deactivationReason: 'Outdated' });
      expect((await call('POST', `/api/admin/announcements/${a.id}/reactivate`, user, { reason: 'Still needed' })).json()).toMatchObject({ isActive: true, status: 'Active' });
    }
    for (const user of [staff.grantedModerator, editModerator, staff.moderator, staff.standard]) {
      const res = await call('POST', `/api/admin/announcements/${a.id}/deactivate`, user, { reason: 'x' });
      expect(res.statusCode).toBe(403);
      expect(res.json().detail).toContain('Announcements.Delete');
    }
  });
});

describe('validation', () => {
  it('answers 400 naming /endsAt when endsAt is not after startsAt', async () => {
    for (const endsAt of [iso(clock), iso(clock - HOUR)]) {
      const res = await call('POST', '/api/admin/announcements', staff.owner, announcementBody({ startsAt: iso(clock), endsAt }));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'announcements.invalid_period', errors: [{ pointer: '/endsAt', in: 'body' }] });
      expect(res.json().detail).toContain('endsAt must be later than startsAt');
    }
    const a = await createAnnouncement(t, staff.owner);
    const put = await call('PUT', `/api/admin/announcements/${a.id}`, staff.owner, { ...announcementBody(), startsAt: iso(clock + DAY), endsAt: iso(clock) });
    expect(put.json()).toMatchObject({ status: 400, code: 'announcements.invalid_period' });
  });

  it('refuses bad fields with a 400 naming them', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [announcementBody({ title: 'x'.repeat(201) }), '/title'],
      [announcementBody({ body: 'x'.repeat(5001) }), '/body'],
      [announcementBody({ type: 'Danger' as never }), '/type'],
      [announcementBody({ priority: 'Urgent' as never }), '/priority'],
      [announcementBody({ audience: ['Fisherman'] }), '/audience'],
      [announcementBody({ audience: [] }), '/audience'],
      [announcementBody({ dismissal: 'Sticky' as never }), '/dismissal'],
      [{ ...announcementBody(), reason: undefined }, 'reason'],
      [{ ...announcementBody(), html: '<b>x</b>' }, 'html'],
    ];
    for (const [payload, field] of cases) {
      const res = await call('POST', '/api/admin/announcements', staff.owner, payload);
      expect(res.statusCode, field).toBe(400);
      expect(JSON.stringify(res.json()), field).toContain(field);
    }
  });
});

describe('what users see', () => {
  it('shows a scheduled announcement only from startsAt until endsAt (injected clock)', async () => {
    const saved = clock;
    try {
      const a = await createAnnouncement(t, staff.owner, { audience: ['DNR'], startsAt: iso(saved + DAY), endsAt: iso(saved + 2 * DAY) });
      expect(a.status).toBe('Scheduled');
      expect(await ids(dnr)).not.toContain(a.id);
      expect((await call('POST', `/api/announcements/${a.id}/dismiss`, dnr)).statusCode).toBe(404);
      const scheduled = await call('GET', '/api/admin/announcements?status=Scheduled&pageSize=100', staff.owner);
      expect(scheduled.json().map((x: { id: string }) => x.id)).toContain(a.id);
      clock = saved + DAY;
      expect(await ids(dnr)).toContain(a.id);
      expect((await call('GET', `/api/admin/announcements/${a.id}`, staff.owner)).json().status).toBe('Active');
      clock = saved + 2 * DAY;
      expect(await ids(dnr)).not.toContain(a.id);
      expect((await call('GET', `/api/admin/announcements/${a.id}`, staff.owner)).json().status).toBe('Ended');
      expect((await call('POST', `/api/announcements/${a.id}/dismiss`, dnr)).json()).toMatchObject({ status: 404, code: 'announcements.not_found' });
      const ended = await call('GET', '/api/admin/announcements?status=ended&pageSize=100', staff.owner);
      expect(ended.json().map((x: { id: string }) => x.id)).toEqual([a.id]);
    } finally {
      clock = saved;
    }
  });

  it('shows an announcement only to the roles it targets', async () => {
    const staffOnly = await createAnnouncement(t, staff.owner, { title: 'For moderators', audience: ['Moderator'] });
    const everyone = await createAnnouncement(t, staff.owner, { title: 'For all' });
    expect(await ids(staff.moderator)).toEqual(expect.arrayContaining([staffOnly.id, everyone.id]));
    for (const user of [staff.standard, staff.admin, dnr]) {
      const seen = await ids(user);
      expect(seen).toContain(everyone.id);
      expect(seen).not.toContain(staffOnly.id);
      expect((await call('POST', `/api/announcements/${staffOnly.id}/dismiss`, user)).json()).toMatchObject({ status: 404, code: 'announcements.not_found' });
    }
    const [shown] = (await mine(staff.moderator)).filter((a) => a.id === staffOnly.id);
    expect(shown).toEqual({ id: staffOnly.id, title: 'For moderators', body: 'Tight lines!', type: 'Info', priority: 'Normal', startsAt: iso(clock), endsAt: null, dismissal: 'Dismissible' });
    expect((await call('GET', '/api/announcements', null)).statusCode).toBe(401);
  });

  it('lists the highest priority first, then the newest', async () => {
    const low = await createAnnouncement(t, staff.owner, { title: 'low', priority: 'Low', audience: ['Researcher'] });
    const critical = await createAnnouncement(t, staff.owner, { title: 'critical', priority: 'Critical', audience: ['Researcher'] });
    const normalOld = await createAnnouncement(t, staff.owner, { title: 'normal old', priority: 'Normal', audience: ['Researcher'] });
    const high = await createAnnouncement(t, staff.owner, { title: 'high', priority: 'High', audience: ['Researcher'] });
    const normalNew = await createAnnouncement(t, staff.owner, { title: 'normal new', priority: 'Normal', audience: ['Researcher'] });
    const seen = (await mine(researcher)).filter((a) => [low, critical, normalOld, high, normalNew].some((x) => x.id === a.id));
    expect(seen.map((a) => a.title)).toEqual(['critical', 'high', 'normal new', 'normal old', 'low']);
  });

  it('shows at most 50', async () => {
    await Promise.all(Array.from({ length: 51 }, (_, i) => createAnnouncement(t, staff.owner, { title: `bulk ${i}`, audience: ['Owner'] })));
    expect(await mine(staff.owner)).toHaveLength(50);
  });

  it('hides a deactivated announcement, and shows it again once reactivated', async () => {
    const a = await createAnnouncement(t, staff.owner, { audience: ['Standard'] });
    expect(await ids(staff.standard)).toContain(a.id);
    const off = await call('POST', `/api/admin/announcements/${a.id}/deactivate`, staff.admin, { reason: 'Posted by mistake' });
    expect(off.json()).toMatchObject({ isActive: false, status: 'Inactive' });
    expect((await auditEntries(t, 'announcements.deactivated')).at(-1)).toMatchObject({ actor_user_id: staff.admin.userId, target_id: a.id, reason: 'Posted by mistake' });
    expect(await ids(staff.standard)).not.toContain(a.id);
    expect((await call('POST', `/api/announcements/${a.id}/dismiss`, staff.standard)).statusCode).toBe(404);
    const inactive = await call('GET', '/api/admin/announcements?status=inactive&pageSize=100', staff.owner);
    expect(inactive.json().map((x: { id: string }) => x.id)).toContain(a.id);
    expect((await call('POST', `/api/admin/announcements/${a.id}/deactivate`, staff.admin, { reason: 'again' })).json()).toMatchObject({ status: 409, code: 'announcements.already_inactive' });
    expect((await call('POST', `/api/admin/announcements/${a.id}/deactivate`, staff.admin, {})).statusCode).toBe(400);
    await call('POST', `/api/admin/announcements/${a.id}/reactivate`, staff.admin, { reason: 'Correct after all' });
    expect(await ids(staff.standard)).toContain(a.id);
  });
});

describe('POST /api/announcements/{id}/dismiss', () => {
  it('hides it for the caller only, is idempotent, and counts in dismissedCount', async () => {
    const a = await createAnnouncement(t, staff.owner, { audience: ['Standard', 'DNR'] });
    const other = await createUser(t);
    const first = await call('POST', `/api/announcements/${a.id}/dismiss`, staff.standard);
    expect(first.statusCode).toBe(204);
    expect(first.body).toBe('');
    expect(await ids(staff.standard)).not.toContain(a.id);
    expect(await ids(other)).toContain(a.id);
    expect((await call('POST', `/api/announcements/${a.id}/dismiss`, staff.standard)).statusCode).toBe(204);
    expect((await call('GET', `/api/admin/announcements/${a.id}`, staff.owner)).json()).toMatchObject({ dismissedCount: 1 });
  });

  it('stays one dismissal under parallel requests', async () => {
    const a = await createAnnouncement(t, staff.owner, { audience: ['DNR'] });
    const results = await Promise.all(Array.from({ length: 8 }, () => call('POST', `/api/announcements/${a.id}/dismiss`, dnr)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(204));
    expect((await call('GET', `/api/admin/announcements/${a.id}`, staff.owner)).json()).toMatchObject({ dismissedCount: 1 });
  });

  it('refuses a Persistent one with 409, and unknown ones with 404', async () => {
    const a = await createAnnouncement(t, staff.owner, { dismissal: 'Persistent', priority: 'Critical' });
    const res = await call('POST', `/api/announcements/${a.id}/dismiss`, staff.standard);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'announcements.not_dismissible', detail: expect.stringContaining('Persistent') });
    expect(await ids(staff.standard)).toContain(a.id);
    expect((await call('POST', `/api/announcements/${MISSING_ID}/dismiss`, staff.standard)).json()).toMatchObject({ status: 404, code: 'announcements.not_found' });
    expect((await call('POST', `/api/announcements/${a.id}/dismiss`, null)).statusCode).toBe(401);
  });
});

describe('version history', () => {
  it('keeps every previous version with who replaced it and why', async () => {
    const a = await createAnnouncement(t, staff.owner, { title: 'v1', priority: 'Low' });
    const startsAt = iso(clock);
    await call('PUT', `/api/admin/announcements/${a.id}`, staff.admin, { ...announcementBody({ title: 'v2', priority: 'High', endsAt: iso(clock + DAY) }), startsAt, reason: 'More urgent' });
    const v3 = await call('PUT', `/api/admin/announcements/${a.id}`, editModerator, { ...announcementBody({ title: 'v3', audience: ['Admin'] }), startsAt, reason: 'Admins only' });
    expect(v3.json()).toMatchObject({ title: 'v3', version: 3, audience: ['Admin'], endsAt: null, priority: 'Normal' });
    const versions = await call('GET', `/api/admin/announcements/${a.id}/versions`, staff.owner);
    expect(versions.headers['x-total-count']).toBe('2');
    expect(versions.json()).toEqual([
      expect.objectContaining({ version: 2, title: 'v2', priority: 'High', endsAt: iso(clock + DAY), audience: 'All', replacedBy: editModerator.userId, reason: 'Admins only' }),
      expect.objectContaining({ version: 1, title: 'v1', priority: 'Low', endsAt: null, startsAt, replacedBy: staff.admin.userId, reason: 'More urgent' }),
    ]);
    const audit = (await auditEntries(t, 'announcements.updated')).at(-1)!;
    expect(audit).toMatchObject({ actor_user_id: editModerator.userId, target_id: a.id, reason: 'Admins only', before: { title: 'v2', version: 2 }, after: { title: 'v3', version: 3 } });
    expect((await call('GET', `/api/admin/announcements/${MISSING_ID}/versions`, staff.owner)).statusCode).toBe(404);
  });
});

describe('admin list filters', () => {
  it('filters by type and priority', async () => {
    const a = await createAnnouncement(t, staff.owner, { type: 'Error', priority: 'Critical', title: 'Outage' });
    const byType = await call('GET', '/api/admin/announcements?type=Error&pageSize=100', staff.owner);
    expect(byType.json().map((x: { id: string }) => x.id)).toContain(a.id);
    expect(byType.json().every((x: { type: string }) => x.type === 'Error')).toBe(true);
    const byBoth = await call('GET', '/api/admin/announcements?type=Error&priority=Low', staff.owner);
    expect(byBoth.json()).toEqual([]);
    expect((await call('GET', '/api/admin/announcements?status=gone', staff.owner)).statusCode).toBe(400);
  });
});
