import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { auditEntries, createStaff, createUser, grant, sendPhoto, type Staff, type TestUser } from '../../../test/factories.js';

let t: TestApp;
let staff: Staff;
let modifyingAdmin: TestUser;
let viewDeniedAdmin: TestUser;
const SECRET = 'sk_live_51Hdeadbeefcafe0000XYZ9876';

beforeAll(async () => {
  t = await createTestApp();
  // deniedAdmin is denied Settings.Modify, grantedModerator granted it.
  staff = await createStaff(t, 'Settings.Modify');
  modifyingAdmin = await createUser(t, { role: 'Admin' });
  await grant(t, staff.owner, modifyingAdmin, 'Settings.Modify', true);
  viewDeniedAdmin = await createUser(t, { role: 'Admin' });
  await grant(t, staff.owner, viewDeniedAdmin, 'settings.view', false);
  await grant(t, staff.owner, staff.grantedModerator, 'Settings.View', true);
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PUT';
const call = (method: Method, url: string, user: TestUser | null, payload?: unknown, app: TestApp = t) =>
  app.app.inject({ method, url, ...(user ? { headers: user.headers } : {}), ...(payload === undefined ? {} : { payload: payload as object }) });

/** Waits for a condition that another process (or this one's listener) makes true soon. */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`never happened: ${what}`);
}

describe('who may read settings (Settings.View)', () => {
  it('lets the Owner, an Admin and a granted Moderator list, get and read history', async () => {
    for (const user of [staff.owner, staff.admin, staff.grantedModerator]) {
      const list = await call('GET', '/api/admin/system-settings?pageSize=100', user);
      expect(list.statusCode).toBe(200);
      expect(list.json().map((s: { name: string }) => s.name)).toEqual(
        expect.arrayContaining(['SiteName', 'MaintenanceMode', 'MaxFileUploadSize', 'PaymentProcessorApiKey', 'EmailSmtpHost', 'FeatureFlags']),
      );
      const site = await call('GET', '/api/admin/system-settings/SiteName', user);
      expect(site.json()).toMatchObject({ name: 'SiteName', type: 'String', category: 'General', value: 'Fishlog', isSet: true, isSensitive: false, isActive: true, requiresRestart: false });
      expect((await call('GET', '/api/admin/system-settings/SiteName/history', user)).statusCode).toBe(200);
    }
  });

  it('refuses Standard, a Moderator without the grant and an Admin denied it', async () => {
    expect((await call('GET', '/api/admin/system-settings', null)).statusCode).toBe(401);
    for (const user of [staff.standard, staff.moderator, viewDeniedAdmin]) {
      for (const url of ['/api/admin/system-settings', '/api/admin/system-settings/SiteName', '/api/admin/system-settings/SiteName/history']) {
        const res = await call('GET', url, user);
        expect(res.statusCode, url).toBe(403);
        expect(res.json()).toMatchObject({ code: 'access.permission_denied' });
        expect(res.json().detail).toContain('Settings.View');
      }
    }
  });

  it('answers 404 for an unknown name', async () => {
    const res = await call('GET', '/api/admin/system-settings/NoSuchThing', staff.owner);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'settings.not_found' });
  });
});

describe('PUT /api/admin/system-settings/{name} (Settings.Modify)', () => {
  it('lets the Owner, an Admin granted it and a Moderator granted it change a value, audit-logged with the reason, with history', async () => {
    let expected = 1;
    for (const [user, value] of [[staff.owner, 'Fishlog One'], [modifyingAdmin, 'Fishlog Two'], [staff.grantedModerator, 'Fishlog Three']] as const) {
      const res = await call('PUT', '/api/admin/system-settings/SiteName', user, { value, reason: `rename ${value}` });
      expect(res.statusCode).toBe(200);
      expected++;
      expect(res.json()).toMatchObject({ name: 'SiteName', value, version: expected, updatedBy: user.userId });
      const audit = (await auditEntries(t, 'settings.updated')).at(-1)!;
      expect(audit).toMatchObject({ actor_user_id: user.userId, target_id: 'SiteName', reason: `rename ${value}`, after: { value, version: expected } });
    }
    const history = await call('GET', '/api/admin/system-settings/SiteName/history', staff.owner);
    expect(history.json().slice(0, 3)).toEqual([
      expect.objectContaining({ version: 4, change: 'Updated', value: 'Fishlog Three', reason: 'rename Fishlog Three', changedBy: staff.grantedModerator.userId }),
      expect.objectContaining({ version: 3, value: 'Fishlog Two' }),
      expect.objectContaining({ version: 2, value: 'Fishlog One' }),
    ]);
  });

  it('refuses an Admin without the explicit grant, an Admin denied it, a Moderator without it and Standard', async () => {
    const before = await call('GET', '/api/admin/system-settings/SiteName', staff.owner);
    for (const user of [staff.admin, staff.deniedAdmin, staff.moderator, staff.standard]) {
      const res = await call('PUT', '/api/admin/system-settings/SiteName', user, { value: 'Hijacked', reason: 'x' });
      expect(res.statusCode).toBe(403);
      expect(res.json().detail).toContain('Settings.Modify');
    }
    expect((await call('PUT', '/api/admin/system-settings/SiteName', staff.admin, { value: 'Hijacked', reason: 'x' })).json().detail).toContain('granted explicitly');
    expect((await call('GET', '/api/admin/system-settings/SiteName', staff.owner)).json()).toEqual(before.json());
  });

  it('validates the value against the setting’s type and constraints (400 naming /value)', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['MaxFileUploadSize', '10MB', 'must be an integer'],
      ['MaxFileUploadSize', 10, 'must be at least 1024'],
      ['MaintenanceMode', 'yes', 'must be true or false'],
      ['FeatureFlags', { tournaments: 'on' }, 'does not match the setting'],
      ['SiteName', 'x'.repeat(101), 'at most 100 characters'],
      ['SiteName', null, 'must not be null'],
    ];
    for (const [name, value, detail] of cases) {
      const res = await call('PUT', `/api/admin/system-settings/${name}`, staff.owner, { value, reason: 'test' });
      expect(res.statusCode, name).toBe(400);
      expect(res.json()).toMatchObject({ code: 'settings.invalid_value', errors: [{ pointer: '/value', in: 'body' }] });
      expect(res.json().detail).toContain(detail);
    }
    expect((await call('PUT', '/api/admin/system-settings/SiteName', staff.owner, { value: 'No reason' })).statusCode).toBe(400);
  });

  it('serialises parallel changes: every one gets its own version', async () => {
    const results = await Promise.all(
      [1, 2, 3, 4].map((n) => call('PUT', '/api/admin/system-settings/FeatureFlags', staff.owner, { value: { tournaments: n % 2 === 0, n1: true }, reason: `parallel ${n}` })),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    const versions = results.map((r) => r.json().version as number).sort();
    expect(new Set(versions).size).toBe(4);
  });
});

describe('creating and deactivating settings', () => {
  it('lets only the Owner create (409 on a duplicate name)', async () => {
    const body = { name: 'SupportEmail', type: 'String', category: 'Email', value: 'support@example.com', description: 'Where users write to', reason: 'Support desk opened' };
    for (const user of [staff.admin, modifyingAdmin, staff.grantedModerator, staff.standard]) {
      const res = await call('POST', '/api/admin/system-settings', user, body);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'access.owner_only' });
    }
    const created = await call('POST', '/api/admin/system-settings', staff.owner, body);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'SupportEmail', value: 'support@example.com', version: 1, category: 'Email', isActive: true });
    expect((await auditEntries(t, 'settings.created')).at(-1)).toMatchObject({ target_id: 'SupportEmail', reason: 'Support desk opened' });
    const again = await call('POST', '/api/admin/system-settings', staff.owner, body);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'settings.duplicate' });
    const badType = await call('POST', '/api/admin/system-settings', staff.owner, { ...body, name: 'RetryCount', type: 'Int', value: 'three' });
    expect(badType.statusCode).toBe(400);
  });

  it('deactivation (Settings.Delete) is the Owner’s only, keeps the history, and a deactivated setting cannot change', async () => {
    for (const user of [modifyingAdmin, staff.admin, staff.grantedModerator]) {
      const res = await call('POST', '/api/admin/system-settings/SupportEmail/deactivate', user, { reason: 'gone' });
      expect(res.statusCode).toBe(403);
      expect(res.json().detail).toContain('reserved to the Owner');
    }
    expect((await call('POST', '/api/admin/system-settings/SupportEmail/deactivate', staff.owner, {})).statusCode).toBe(400);
    const off = await call('POST', '/api/admin/system-settings/SupportEmail/deactivate', staff.owner, { reason: 'desk closed' });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ isActive: false, version: 2 });
    expect((await call('POST', '/api/admin/system-settings/SupportEmail/deactivate', staff.owner, { reason: 'again' })).statusCode).toBe(409);
    const change = await call('PUT', '/api/admin/system-settings/SupportEmail', staff.owner, { value: 'help@example.com', reason: 'x' });
    expect(change.statusCode).toBe(409);
    expect(change.json()).toMatchObject({ code: 'settings.inactive' });
    const listed = await call('GET', '/api/admin/system-settings?status=Inactive', staff.owner);
    expect(listed.json().map((s: { name: string }) => s.name)).toEqual(['SupportEmail']);
    const on = await call('POST', '/api/admin/system-settings/SupportEmail/reactivate', staff.owner, { reason: 'desk reopened' });
    expect(on.json()).toMatchObject({ isActive: true, version: 3 });
    const history = await call('GET', '/api/admin/system-settings/SupportEmail/history', staff.owner);
    expect(history.json().map((h: { change: string }) => h.change)).toEqual(['Reactivated', 'Deactivated', 'Created']);
    expect((await auditEntries(t, 'settings.deactivated')).at(-1)).toMatchObject({ target_id: 'SupportEmail', reason: 'desk closed' });
  });
});

describe('sensitive settings', () => {
  it('never show, log or store the value in clear', async () => {
    const set = await call('PUT', '/api/admin/system-settings/PaymentProcessorApiKey', staff.owner, { value: SECRET, reason: 'new processor account' });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ value: '••••9876', isSet: true, isSensitive: true });
    const responses = [
      set,
      await call('GET', '/api/admin/system-settings/PaymentProcessorApiKey', staff.admin),
      await call('GET', '/api/admin/system-settings?pageSize=100', staff.owner),
      await call('GET', '/api/admin/system-settings/PaymentProcessorApiKey/history', staff.owner),
    ];
    for (const res of responses) {
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(SECRET);
      expect(res.body).not.toContain('deadbeef');
    }
    expect(responses[3]!.json()[0]).toMatchObject({ change: 'Updated', value: '••••' });
    const audit = (await auditEntries(t, 'settings.updated')).at(-1)!;
    expect(audit).toMatchObject({ target_id: 'PaymentProcessorApiKey', after: { value: '[sensitive]' } });
    const everything = await t.database.pool.query(
      `SELECT (SELECT json_agg(a)::text FROM audit_log a) AS audit, (SELECT json_agg(s)::text FROM system_settings s) AS settings, (SELECT json_agg(h)::text FROM system_setting_history h) AS history`,
    );
    for (const text of Object.values(everything.rows[0] as Record<string, string>)) expect(text).not.toContain('deadbeef');
    const stored = await t.database.pool.query(`SELECT value, sealed FROM system_settings WHERE name = 'PaymentProcessorApiKey'`);
    expect(stored.rows[0]).toMatchObject({ value: null, sealed: expect.stringMatching(/^gcm1:/) });

    const short = await call('PUT', '/api/admin/system-settings/PaymentProcessorApiKey', staff.owner, { value: 'abc123', reason: 'short' });
    expect(short.json().value).toBe('••••');
    const cleared = await call('PUT', '/api/admin/system-settings/PaymentProcessorApiKey', staff.owner, { value: null, reason: 'account closed' });
    expect(cleared.json()).toMatchObject({ value: null, isSet: false });
  });
});

describe('settings take effect at once, in every process', () => {
  it('MaxFileUploadSize limits photo files (413), read live; JSON bodies keep FISHLOG_BODY_LIMIT', async () => {
    const big = { value: 'y', reason: 'r'.repeat(900), description: 'd'.repeat(1000) };
    await call('PUT', '/api/admin/system-settings/MaxFileUploadSize', staff.owner, { value: 1024, reason: 'tight' });
    const upload = () => sendPhoto(t, staff.standard, '/api/userprofile/me/avatar', Buffer.alloc(4096, 1), { method: 'PUT' });
    await eventually(async () => (await upload()).statusCode === 413, 'the 1024-byte limit');
    const refused = await upload();
    expect(refused.json()).toMatchObject({ status: 413, code: 'photos.file_too_large' });
    expect(refused.json().detail).toContain('1024 bytes');
    expect(refused.json().detail).toContain('MaxFileUploadSize');
    // A JSON body of 2 kB is not a file: only FISHLOG_BODY_LIMIT (1 MB) applies to it.
    expect((await call('PUT', '/api/admin/system-settings/SiteName', staff.owner, big)).statusCode).toBe(200);
    await call('PUT', '/api/admin/system-settings/MaxFileUploadSize', staff.owner, { value: 10_485_760, reason: 'back' });
    // (Accepted as a file again: the type is checked next, and 4 kB of ones are no image.)
    await eventually(async () => (await upload()).statusCode === 415, 'the limit raised again');
  });

  it('MaintenanceMode: 503 with Retry-After for users and anonymous callers, employees, /health and /api/auth pass; other processes follow', async () => {
    const other = await createTestApp({ sameDatabaseAs: t });
    try {
      const on = await call('PUT', '/api/admin/system-settings/MaintenanceMode', staff.owner, { value: true, reason: 'database upgrade' });
      expect(on.statusCode).toBe(200);
      for (const app of [t, other]) {
        await eventually(async () => (await call('GET', '/api/fish-species?pageSize=1', staff.standard, undefined, app)).statusCode === 503, 'maintenance on');
        // A public route, anonymous: 503 too.
        const anonymous = await call('GET', '/openapi.json', null, undefined, app);
        expect(anonymous.statusCode).toBe(503);
        expect(anonymous.json()).toMatchObject({ code: 'system.maintenance' });
        const refused = await call('GET', '/api/fish-species?pageSize=1', staff.standard, undefined, app);
        expect(refused.statusCode).toBe(503);
        expect(refused.headers['retry-after']).toBe('300');
        expect(refused.headers['content-type']).toContain('application/problem+json');
        expect(refused.json()).toMatchObject({ status: 503, code: 'system.maintenance' });
        expect((await call('GET', '/api/social/friends', staff.standard, undefined, app)).statusCode).toBe(503);
        for (const employee of [staff.owner, staff.admin, staff.moderator]) {
          expect((await call('GET', '/api/fish-species?pageSize=1', employee, undefined, app)).statusCode).toBe(200);
        }
        expect((await call('GET', '/health', null, undefined, app)).statusCode).toBe(200);
        const login = await app.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: staff.standard.username, password: staff.standard.password } });
        expect(login.statusCode).toBe(200);
      }
      expect((await auditEntries(t, 'settings.updated')).at(-1)).toMatchObject({ target_id: 'MaintenanceMode', reason: 'database upgrade', after: { value: true } });
      const off = await call('PUT', '/api/admin/system-settings/MaintenanceMode', staff.admin, { value: false, reason: 'done' });
      expect(off.statusCode).toBe(403); // an Admin without Settings.Modify may not, even during maintenance
      expect((await call('PUT', '/api/admin/system-settings/MaintenanceMode', modifyingAdmin, { value: false, reason: 'done' })).statusCode).toBe(200);
      for (const app of [t, other]) {
        await eventually(async () => (await call('GET', '/api/fish-species?pageSize=1', staff.standard, undefined, app)).statusCode === 200, 'maintenance off');
      }
    } finally {
      await other.close();
    }
  });
});
