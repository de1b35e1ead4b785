import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, type TestUser, MISSING_ID, auditCount, auditEntries } from '../../../test/factories.js';

/** Moderation settings (write-only API key, dashboard) and moderation rules, for admins. */

let t: TestApp;
let owner: TestUser;
let admin: TestUser;
let moderator: TestUser;
let standard: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t, { role: 'Owner' });
  admin = await createUser(t, { role: 'Admin' });
  moderator = await createUser(t, { role: 'Moderator' });
  standard = await createUser(t);
  // Even a Moderator holding both moderation permissions does not manage settings or rules.
  for (const permission of ['Content.Moderate', 'Content.Approve']) {
    await t.app.inject({ method: 'POST', url: `/api/admin/employees/${moderator.userId}/permissions`, headers: owner.headers, payload: { permission, isGranted: true } });
  }
});
afterAll(async () => {
  await t?.close();
});

const getSettings = (user: TestUser) => t.app.inject({ method: 'GET', url: '/api/admin/moderation-settings', headers: user.headers });
const putSettings = (user: TestUser, payload: Record<string, unknown>) => t.app.inject({ method: 'PUT', url: '/api/admin/moderation-settings', headers: user.headers, payload });

describe('GET /api/admin/moderation-settings', () => {
  it('answers the defaults with an empty dashboard, and writes an audit entry', async () => {
    const before = await auditCount(t);
    const res = await getSettings(admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      provider: 'local',
      providers: [
        { name: 'local', description: expect.any(String), remote: false, defaultModel: 'fishlog-wordlist-v1' },
        { name: 'openai', description: expect.any(String), remote: true, defaultModel: 'omni-moderation-latest' },
      ],
      model: null,
      baseUrl: null,
      apiKeySet: false,
      thresholds: {},
      autoRejectThreshold: null,
      monthlyBudgetUsd: null,
      costPerCallUsd: 0,
      timeoutMs: 5000,
      updatedAt: null,
      updatedBy: null,
      dashboard: {
        month: new Date().toISOString().slice(0, 7),
        calls: 0,
        flagged: 0,
        failed: 0,
        flagRate: 0,
        costUsd: 0,
        averageLatencyMs: 0,
        budgetUsd: null,
        budgetRemainingUsd: null,
        budgetExceeded: false,
        pendingReview: 0,
        byProvider: [],
      },
    });
    expect(await auditCount(t)).toBe(before + 1);
  });

  it('is for Admins and the Owner only (403 for Moderators and others, 401 without a token)', async () => {
    expect((await getSettings(owner)).statusCode).toBe(200);
    for (const user of [moderator, standard]) {
      const res = await getSettings(user);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('access.admin_only');
      expect((await putSettings(user, { timeoutMs: 1000 })).statusCode).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/moderation-settings' })).statusCode).toBe(401);
  });
});

describe('PUT /api/admin/moderation-settings', () => {
  it('stores the API key write-only, changes only the fields sent, and audit-logs without the key', async () => {
    const key = 'sk-live-do-not-leak-4242424242';
    const res = await putSettings(admin, { provider: 'openai', apiKey: key, thresholds: { harassment: 0.4, 'self-harm': 0.2 }, monthlyBudgetUsd: 25, costPerCallUsd: 0.001 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      provider: 'openai',
      apiKeySet: true,
      model: null,
      thresholds: { harassment: 0.4, 'self-harm': 0.2 },
      monthlyBudgetUsd: 25,
      costPerCallUsd: 0.001,
      updatedBy: admin.userId,
      updatedAt: expect.any(String),
      dashboard: expect.objectContaining({ budgetUsd: 25, budgetRemainingUsd: 25, budgetExceeded: false }),
    });
    expect(res.body).not.toContain(key);
    const stored = await t.database.pool.query('SELECT api_key FROM moderation_settings');
    expect(stored.rows[0].api_key).toBe(key);
    const [entry] = await auditEntries(t, 'moderation.settings_updated');
    expect(entry).toMatchObject({ actor_user_id: admin.userId, before: { provider: 'local', keySet: false }, after: { provider: 'openai', keySet: true, keyChanged: true } });
    expect(JSON.stringify(entry)).not.toContain(key);

    const partial = await putSettings(admin, { timeoutMs: 2500 });
    expect(partial.json()).toMatchObject({ provider: 'openai', apiKeySet: true, timeoutMs: 2500, monthlyBudgetUsd: 25 });
    expect((await getSettings(admin)).body).not.toContain(key);
  });

  it('clears nullable fields with null, and resets the model when the provider changes', async () => {
    await putSettings(admin, { model: 'omni-moderation-2024-09-26', autoRejectThreshold: 0 });
    expect((await getSettings(admin)).json()).toMatchObject({ model: 'omni-moderation-2024-09-26', autoRejectThreshold: 0 });
    const res = await putSettings(admin, { provider: 'local', apiKey: null, monthlyBudgetUsd: null, autoRejectThreshold: null });
    expect(res.json()).toMatchObject({ provider: 'local', model: null, apiKeySet: false, monthlyBudgetUsd: null, autoRejectThreshold: null });
  });

  it('needs an API key for the openai provider (400 naming apiKey)', async () => {
    const res = await putSettings(admin, { provider: 'openai' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'moderation.provider_setting_missing', errors: [{ pointer: '/apiKey', in: 'body' }] });
    expect((await getSettings(admin)).json().provider).toBe('local');
  });

  it.each([
    [{}, '/'],
    [{ provider: 'perspective' }, '/provider'],
    [{ thresholds: { harassment: 1.5 } }, '/thresholds/harassment'],
    [{ thresholds: { 'Bad Name': 0.5 } }, '/thresholds'],
    [{ autoRejectThreshold: -0.1 }, '/autoRejectThreshold'],
    [{ monthlyBudgetUsd: -5 }, '/monthlyBudgetUsd'],
    [{ timeoutMs: 10 }, '/timeoutMs'],
    [{ baseUrl: 'not a url' }, '/baseUrl'],
    [{ baseUrl: 'https://user:pw@llm.example.com/v1' }, '/baseUrl'],
    [{ baseUrl: 'file:///etc/passwd' }, '/baseUrl'],
    [{ baseUrl: 'http://llm.example.com/v1' }, '/baseUrl'],
    [{ apiKey: '' }, '/apiKey'],
    [{ dashboard: {} }, '/dashboard'],
  ])('refuses %j (400 naming %s)', async (payload, pointer) => {
    const res = await putSettings(admin, payload);
    expect(res.statusCode).toBe(400);
    const pointers = res.json().errors.map((e: { pointer: string }) => e.pointer);
    expect(pointers.some((p: string) => p.startsWith(pointer))).toBe(true);
  });
});

describe('PUT /api/admin/moderation-settings: where the API key may go', () => {
  const storedKey = async () => (await t.database.pool.query('SELECT api_key FROM moderation_settings')).rows[0]?.api_key ?? null;

  it('refuses an http base URL unless the server allows it (400 naming baseUrl)', async () => {
    const res = await putSettings(admin, { provider: 'openai', apiKey: 'sk-plain-http-0000', baseUrl: 'http://llm.example.com/v1' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'moderation.insecure_base_url',
      detail: expect.stringContaining('FISHLOG_MODERATION_ALLOW_HTTP'),
      errors: [{ pointer: '/baseUrl', in: 'body', detail: 'must use https' }],
    });
    expect((await getSettings(admin)).json()).toMatchObject({ provider: 'local', baseUrl: null, apiKeySet: false });
  });

  it('never moves the stored key to another base URL: changing it needs the key again (400 naming apiKey)', async () => {
    const key = 'sk-live-bound-to-openai-1111111111';
    expect((await putSettings(admin, { provider: 'openai', apiKey: key })).statusCode).toBe(200);
    const moved = await putSettings(admin, { baseUrl: 'https://collector.attacker.example/v1' });
    expect(moved.statusCode).toBe(400);
    expect(moved.json()).toMatchObject({
      code: 'moderation.provider_setting_missing',
      detail: expect.stringContaining('Changing baseUrl drops the stored API key'),
      errors: [{ pointer: '/apiKey', in: 'body', detail: expect.stringContaining('changing baseUrl drops the stored one') }],
    });
    expect(await storedKey()).toBe(key);
    expect((await getSettings(admin)).json()).toMatchObject({ provider: 'openai', baseUrl: null, apiKeySet: true });

    // Spelling out the default base URL, or sending the key along, is fine.
    expect((await putSettings(admin, { baseUrl: 'https://api.openai.com/v1' })).json()).toMatchObject({ baseUrl: 'https://api.openai.com/v1', apiKeySet: true });
    const other = 'sk-live-for-the-proxy-2222222222';
    const withKey = await putSettings(admin, { baseUrl: 'https://llm-proxy.example.com/v1', apiKey: other });
    expect(withKey.json()).toMatchObject({ baseUrl: 'https://llm-proxy.example.com/v1', apiKeySet: true });
    expect(await storedKey()).toBe(other);
    expect((await putSettings(admin, { baseUrl: 'https://llm-proxy.example.com/v1', timeoutMs: 3000 })).json()).toMatchObject({ apiKeySet: true, timeoutMs: 3000 });
  });

  it('drops the stored key when the provider changes without one, and the audit log says so (without the key)', async () => {
    const res = await putSettings(admin, { provider: 'local' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ provider: 'local', apiKeySet: false });
    expect(await storedKey()).toBeNull();
    const entry = (await auditEntries(t, 'moderation.settings_updated')).at(-1)!;
    expect(entry).toMatchObject({ before: { provider: 'openai', keySet: true }, after: { provider: 'local', keySet: false, keyCleared: true } });
    expect(JSON.stringify(entry)).not.toContain('sk-live');

    // Back to openai with the same base URL: the old key does not come back.
    const back = await putSettings(admin, { provider: 'openai' });
    expect(back.statusCode).toBe(400);
    expect(back.json()).toMatchObject({ code: 'moderation.provider_setting_missing', errors: [{ pointer: '/apiKey', in: 'body' }] });

    // A key set while on the local provider does not follow a switch to a remote one either.
    expect((await putSettings(admin, { apiKey: 'sk-parked-3333333333' })).json()).toMatchObject({ provider: 'local', apiKeySet: true });
    const switched = await putSettings(admin, { provider: 'openai' });
    expect(switched.statusCode).toBe(400);
    expect(switched.json().detail).toContain('Changing provider drops the stored API key');
    expect(await storedKey()).toBe('sk-parked-3333333333');
    expect((await putSettings(admin, { apiKey: null, baseUrl: null })).json()).toMatchObject({ provider: 'local', baseUrl: null, apiKeySet: false });
  });
});

const createRule = (user: TestUser, payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/admin/moderation-rules', headers: user.headers, payload });
const updateRule = (user: TestUser, id: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PUT', url: `/api/admin/moderation-rules/${id}`, headers: user.headers, payload });

describe('moderation rules', () => {
  it('creates a rule with defaults and audit-logs it', async () => {
    const res = await createRule(admin, { name: 'Competitor links', kind: 'Keyword', pattern: 'fishbrain.example', action: 'Flag' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(String),
      name: 'Competitor links',
      kind: 'Keyword',
      pattern: 'fishbrain.example',
      appliesTo: ['Post', 'Comment'],
      action: 'Flag',
      category: 'rule',
      reason: null,
      isActive: true,
      deactivatedAt: null,
      deactivatedBy: null,
      createdBy: admin.userId,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      usage: { matchCount: 0, lastMatchedAt: null, timeouts: 0 },
      patternProblem: null,
    });
    const [entry] = (await auditEntries(t, 'moderation.rule_created')).filter((e) => e.target_id === res.json().id);
    expect(entry).toMatchObject({ actor_user_id: admin.userId, after: { name: 'Competitor links', kind: 'keyword', action: 'flag' } }); // the audit log keeps the stored values
  });

  it('deactivates instead of deleting, and can bring a rule back', async () => {
    // The older spellings (regex, reject, post) are still accepted; the answer spells them the new way.
    const rule = (await createRule(owner, { name: 'Temp', kind: 'regex', pattern: 'tmp\\d+', action: 'reject', appliesTo: ['post'], reason: 'No temp codes.' })).json();
    expect(rule).toMatchObject({ kind: 'Regex', action: 'Reject', appliesTo: ['Post'] });
    const off = await updateRule(admin, rule.id, { isActive: false });
    expect(off.json()).toMatchObject({ isActive: false, deactivatedAt: expect.any(String), deactivatedBy: admin.userId, appliesTo: ['Post'] });
    expect((await auditEntries(t, 'moderation.rule_deactivated')).some((e) => e.target_id === rule.id)).toBe(true);
    const listed = await t.app.inject({ method: 'GET', url: '/api/admin/moderation-rules?isActive=false', headers: admin.headers });
    expect(listed.json().map((r: { id: string }) => r.id)).toContain(rule.id);
    const on = await updateRule(admin, rule.id, { isActive: true, name: 'Temp codes', appliesTo: ['Comment'] });
    expect(on.json()).toMatchObject({ isActive: true, deactivatedAt: null, deactivatedBy: null, name: 'Temp codes', appliesTo: ['Comment'] });
    expect((await auditEntries(t, 'moderation.rule_reactivated')).some((e) => e.target_id === rule.id)).toBe(true);
    const renamed = await updateRule(admin, rule.id, { reason: null });
    expect(renamed.json().reason).toBeNull();
    expect((await auditEntries(t, 'moderation.rule_updated')).some((e) => e.target_id === rule.id)).toBe(true);
  });

  it('lists with filters and pagination, and shows one rule', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/moderation-rules?kind=keyword&action=flag&pageSize=1', headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveLength(1);
    expect(res.json()[0]).toMatchObject({ kind: 'Keyword', action: 'Flag' });
    expect(Number(res.headers['x-total-count'])).toBeGreaterThanOrEqual(1);
    const one = await t.app.inject({ method: 'GET', url: `/api/admin/moderation-rules/${res.json()[0].id}`, headers: admin.headers });
    expect(one.json().id).toBe(res.json()[0].id);
    expect((await t.app.inject({ method: 'GET', url: `/api/admin/moderation-rules/${MISSING_ID}`, headers: admin.headers })).json().code).toBe('moderation.rule_not_found');
    expect((await updateRule(admin, MISSING_ID, { name: 'x' })).statusCode).toBe(404);
  });

  it.each([
    [{ name: 'x', kind: 'Keyword', pattern: '!!!', action: 'Flag' }, '/pattern'],
    [{ name: 'x', kind: 'Regex', pattern: '(a)\\1', action: 'Flag' }, '/pattern'],
    [{ name: 'x', kind: 'glob', pattern: 'a*', action: 'Flag' }, '/kind'],
    [{ name: 'x', kind: 'Keyword', pattern: 'a', action: 'delete' }, '/action'],
    [{ name: 'x', kind: 'Keyword', pattern: 'a', action: 'Flag', appliesTo: [] }, '/appliesTo'],
    [{ name: 'x', kind: 'Keyword', pattern: 'a', action: 'Flag', appliesTo: ['post', 'post'] }, '/appliesTo'],
    [{ name: 'x', kind: 'Keyword', pattern: 'a', action: 'Flag', category: 'Spam!' }, '/category'],
    [{ name: 'x', kind: 'Keyword', pattern: 'a', action: 'Flag', matchCount: 5 }, '/matchCount'],
    [{ kind: 'Keyword', pattern: 'a', action: 'Flag' }, '/name'],
  ])('refuses %j (400 naming %s)', async (payload, pointer) => {
    const res = await createRule(admin, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
  });

  it('is for Admins and the Owner only', async () => {
    for (const user of [moderator, standard]) {
      expect((await t.app.inject({ method: 'GET', url: '/api/admin/moderation-rules', headers: user.headers })).statusCode).toBe(403);
      expect((await createRule(user, { name: 'x', kind: 'Keyword', pattern: 'a', action: 'Flag' })).statusCode).toBe(403);
      expect((await updateRule(user, MISSING_ID, { name: 'x' })).statusCode).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/moderation-rules' })).statusCode).toBe(401);
  });
});
