import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { auditEntries, createUser, type TestUser, createPost } from '../../../test/factories.js';
import { startModerationStandIn, type ModerationStandIn } from '../../../test/openai-moderation-stand-in.js';
import { flaggedCategories, RULE_TIMEOUT_LIMIT } from './moderation.service.js';
import { rateLocally } from './providers/local.js';
import { moderationsUrl } from './providers/openai.js';
import { regexProblem } from './regex-safety.js';
import { RegexRunner } from './rule-runner.js';

/** Moderation outcomes for each provider, including failures, the rules (hostile ones too), costs and the budget. */

describe('regular expression safety check', () => {
  it.each([
    ['(a+)+$', 'nested'],
    ['(a*)*b', 'nested'],
    ['(x+y)+', 'nested'],
    ['(?:\\w{1,3})+', 'nested'],
    ['(a|aa)+$', 'alternatives'],
    ['(\\w|\\d)*!', 'alternatives'],
    ['(a|)+', 'empty'],
    ['\\s*\\s*x', 'next to each other'],
    ['\\d+\\w*', 'next to each other'],
    ['.*,?.*', 'next to each other'],
    ['(a)\\1', 'backreferences'],
    ['(?<w>\\w)\\k<w>', 'backreferences'],
    ['foo(', 'not a valid'],
    ['x'.repeat(501), 'longer than'],
    // Several unbounded repeats separated by literals: polynomial backtracking (seconds on 4 KB).
    ['.*a.*a.*a.*b', 'it has 4 unbounded repeats'],
    ['free.*money.*click.*now', 'it has 3 unbounded repeats'],
    ['[a-z]+@[a-z]+\\.com', 'it has 2 unbounded repeats'],
    ['\\p{L}+\\d+', 'it has 2 unbounded repeats'],
    ['^(?=.*spam).*$', 'it has 2 unbounded repeats'],
    ['x{2,}y{1,}', 'it has 2 unbounded repeats'],
    ['(ab)+c*', 'it has 2 unbounded repeats'],
    ['foo.*|bar+', 'it has 2 unbounded repeats'],
  ])('refuses %s', (pattern, why) => {
    expect(regexProblem(pattern)).toContain(why);
  });

  it('says how to write such a pattern instead', () => {
    expect(regexProblem('free.*money.*click.*now')).toBe(
      'is unsafe: it has 3 unbounded repeats (*, + or {n,}) and at most 1 is allowed: several of them (like free.*money.*click) make matching take polynomial time on long texts; keep one and bound the others (e.g. .{0,40} instead of .*), or use a keyword rule per word',
    );
  });

  it.each([
    'buy\\s+followers',
    '\\b(free|cheap)\\s+(money|cash)\\b',
    'https?://\\S+',
    '[a-z]+@[a-z]{1,63}\\.com',
    '(ab|cd)+',
    'x{2,}y',
    '\\p{L}+\\d{1,6}',
    'v[i1]agra',
    '^(?=.{0,200}spam)',
    'free.{0,40}money.{0,40}click.{0,40}now',
    '[*+]\\*\\+',
  ])('accepts %s', (pattern) => {
    expect(regexProblem(pattern)).toBeUndefined();
  });
});

describe('rule runner time limit', () => {
  it('stops a pattern that backtracks too long, keeps earlier matches and goes on with a fresh worker', async () => {
    const runner = new RegexRunner(150);
    try {
      // A worker's start (slow on a loaded machine) is not part of the rules' time limit.
      expect(await runner.run([{ id: 'warm', source: 'x', flags: 'u' }], 'x')).toEqual({ matched: ['warm'], timedOut: undefined });
      const started = Date.now();
      const result = await runner.run(
        [
          { id: 'spam', source: 'spam', flags: 'iu' },
          { id: 'slow', source: '.*a.*b.*c', flags: 'iu' },
          { id: 'never', source: 'zzz', flags: 'iu' },
        ],
        `spam ${'ab'.repeat(3000)}`,
      );
      expect(Date.now() - started).toBeLessThan(2000);
      expect(result).toEqual({ matched: ['spam'], timedOut: 'slow' });
      expect(await runner.run([{ id: 'ok', source: 'pike', flags: 'iu' }], 'a PIKE')).toEqual({ matched: ['ok'], timedOut: undefined });
    } finally {
      await runner.close();
    }
  });
});

describe('local provider', () => {
  it('flags words of its list, also disguised, and leaves fishing talk alone', () => {
    expect(rateLocally({ text: 'Caught a 30 inch pike, killed it on the ice', imageUrls: [], contentType: 'post' }).flagged).toBe(false);
    expect(rateLocally({ text: 'Gut the bass and shoot a photo', imageUrls: [], contentType: 'post' }).flagged).toBe(false);
    const disguised = rateLocally({ text: 'you are a B1TCH and a fuuuucker', imageUrls: [], contentType: 'post' });
    expect(disguised).toMatchObject({ flagged: true, categories: ['profanity'], provider: 'local', costUsd: 0 });
    expect(disguised.scores.profanity).toBe(0.65);
    expect(rateLocally({ text: 'Crypto giveaway!!! buy followers', imageUrls: [], contentType: 'comment' }).categories).toEqual(['spam']);
    expect(rateLocally({ text: 'look', imageUrls: ['https://porn.example.com/x.jpg'], contentType: 'post' }).categories).toEqual(['sexual']);
  });

  it('applies thresholds per category', () => {
    const result = { flagged: true, categories: ['harassment'], scores: { harassment: 0.6, violence: 0.3 } };
    expect(flaggedCategories(result, {})).toEqual(['harassment']);
    expect(flaggedCategories(result, { harassment: 0.7 })).toEqual([]);
    expect(flaggedCategories(result, { violence: 0.25 })).toEqual(['harassment', 'violence']);
  });

  it('builds the moderations URL from a base URL with or without /v1', () => {
    expect(moderationsUrl('https://api.openai.com/v1')).toBe('https://api.openai.com/v1/moderations');
    expect(moderationsUrl('https://llm.example.com/')).toBe('https://llm.example.com/v1/moderations');
  });
});

let t: TestApp;
let admin: TestUser;
let angler: TestUser;

beforeAll(async () => {
  // The OpenAI stand-in listens on loopback http; production settings need https.
  t = await createTestApp({ env: { FISHLOG_MODERATION_ALLOW_HTTP: 'true' } });
  admin = await createUser(t, { role: 'Admin' });
  angler = await createUser(t);
});
afterAll(async () => {
  await t?.close();
});

const settings = (payload: Record<string, unknown>) => t.app.inject({ method: 'PUT', url: '/api/admin/moderation-settings', headers: admin.headers, payload });
const rule = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/admin/moderation-rules', headers: admin.headers, payload });
const queueItem = async (postId: string) => (await t.database.pool.query('SELECT * FROM moderation_queue WHERE post_id = $1', [postId])).rows[0];
const calls = async (contentId: string) => (await t.database.pool.query('SELECT * FROM moderation_calls WHERE content_id = $1 ORDER BY occurred_at', [contentId])).rows;

describe('moderation with the local provider (default)', () => {
  it('publishes clean posts and records the call', async () => {
    const post = await createPost(t, angler, { text: 'Quiet morning, two perch' });
    expect(post.moderationStatus).toBe('Published');
    expect(await calls(post.id)).toEqual([expect.objectContaining({ provider: 'local', model: 'fishlog-wordlist-v1', outcome: 'clean', content_type: 'post', cost_usd: '0.000000' })]);
  });

  it('holds flagged posts with the categories and scores for the queue', async () => {
    const post = await createPost(t, angler, { text: 'I will kill you if you fish my spot' });
    expect(post.moderationStatus).toBe('PendingReview');
    expect(await queueItem(post.id)).toMatchObject({ status: 'Pending', held_because: 'flagged', provider: 'local', categories: ['violence'], scores: expect.objectContaining({ violence: 0.85 }) });
    expect((await calls(post.id))[0]).toMatchObject({ outcome: 'flagged', categories: ['violence'] });
  });

  it('rejects with the rule’s reason, flags with a flag rule, and counts matches', async () => {
    const reject = await rule({ name: 'No poaching', kind: 'keyword', pattern: 'dynamite fishing', action: 'reject', category: 'illegal', reason: 'Posts about illegal fishing methods are not allowed.' });
    const flag = await rule({ name: 'Spot selling', kind: 'regex', pattern: 'sell(ing)?\\s+spots?', action: 'flag', category: 'commerce' });
    expect([reject.statusCode, flag.statusCode]).toEqual([201, 201]);
    const rejected = await createPost(t, angler, { text: 'Tried DYNAM1TE   fishing yesterday' });
    expect(rejected).toMatchObject({ moderationStatus: 'Rejected', moderationReason: 'Posts about illegal fishing methods are not allowed.' });
    expect(await calls(rejected.id)).toEqual([]); // a rejecting rule spares the provider call
    const other = await t.app.inject({ method: 'GET', url: `/api/social/posts/${rejected.id}`, headers: admin.headers });
    expect(other.statusCode).toBe(403);
    const flagged = await createPost(t, angler, { text: 'Selling spots on the river, DM me' });
    expect(flagged.moderationStatus).toBe('PendingReview');
    expect(await queueItem(flagged.id)).toMatchObject({ held_because: 'rule', categories: ['commerce'], matched_rules: [{ id: flag.json().id, name: 'Spot selling', action: 'flag' }] });
    const stats = await t.app.inject({ method: 'GET', url: '/api/admin/moderation-rules?isActive=true', headers: admin.headers });
    const byName = Object.fromEntries(stats.json().map((r: { name: string; usage: unknown }) => [r.name, r.usage]));
    expect(byName['No poaching']).toMatchObject({ matchCount: 1, lastMatchedAt: expect.any(String) });
    expect(byName['Spot selling']).toMatchObject({ matchCount: 1 });
    await t.app.inject({ method: 'PUT', url: `/api/admin/moderation-rules/${reject.json().id}`, headers: admin.headers, payload: { isActive: false } });
    expect((await createPost(t, angler, { text: 'dynamite fishing is a crime' })).moderationStatus).toBe('Published');
  });

  it('applies thresholds and the auto-reject threshold', async () => {
    expect((await createPost(t, angler, { text: 'Holy shit what a fish' })).moderationStatus).toBe('PendingReview');
    expect((await settings({ thresholds: { profanity: 0.7 } })).statusCode).toBe(200);
    expect((await createPost(t, angler, { text: 'Holy shit what a fish' })).moderationStatus).toBe('Published');
    await settings({ autoRejectThreshold: 0.8 });
    const rejected = await createPost(t, angler, { text: 'kill yourself' });
    expect(rejected).toMatchObject({ moderationStatus: 'Rejected', moderationReason: expect.stringContaining('harassment') });
    await settings({ thresholds: {}, autoRejectThreshold: null });
  });
});

describe('rules with a hostile regular expression', () => {
  it.each(['(a+)+$', '(\\w|\\d)*$', '\\s*\\s*!', '(x)\\1', '.*a.*a.*a.*b', 'free.*money.*click.*now'])('refuses %s with a 400 naming the pattern', async (pattern) => {
    const res = await rule({ name: 'evil', kind: 'regex', pattern, action: 'flag' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'moderation.unsafe_pattern', errors: [{ pointer: '/pattern', in: 'body' }] });
  });

  it('explains how to rewrite a pattern with several unbounded repeats', async () => {
    const res = await rule({ name: 'Spam chain', kind: 'regex', pattern: 'free.*money.*click.*now', action: 'flag' });
    expect(res.json()).toMatchObject({
      status: 400,
      code: 'moderation.unsafe_pattern',
      detail: expect.stringContaining('it has 3 unbounded repeats'),
      errors: [{ pointer: '/pattern', in: 'body', detail: expect.stringContaining('e.g. .{0,40} instead of .*') }],
    });
    const bounded = await rule({ name: 'Spam chain', kind: 'regex', pattern: 'free.{0,40}money.{0,40}click.{0,40}now', action: 'flag' });
    expect(bounded.statusCode).toBe(201);
    await t.app.inject({ method: 'PUT', url: `/api/admin/moderation-rules/${bounded.json().id}`, headers: admin.headers, payload: { isActive: false } });
  });

  it('runs what passes with a time limit: the request answers promptly and the content is held', async () => {
    // Bounded repeats pass the check but still add up: this one takes seconds on 4,800 characters.
    const slow = await rule({ name: 'Slow shape', kind: 'regex', pattern: '.{0,100}a.{0,100}a.{0,100}b', action: 'flag' });
    expect(slow.statusCode).toBe(201);
    const started = Date.now();
    const post = await createPost(t, angler, { text: 'a'.repeat(4800) });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(post.moderationStatus).toBe('PendingReview');
    expect(await queueItem(post.id)).toMatchObject({ held_because: 'rule_timeout', matched_rules: [{ id: slow.json().id, name: 'Slow shape', action: 'flag' }] });
    const usage = (await t.app.inject({ method: 'GET', url: `/api/admin/moderation-rules/${slow.json().id}`, headers: admin.headers })).json().usage;
    expect(usage.timeouts).toBe(1);
    await t.app.inject({ method: 'PUT', url: `/api/admin/moderation-rules/${slow.json().id}`, headers: admin.headers, payload: { isActive: false } });
    expect((await createPost(t, angler, { text: 'and life goes on' })).moderationStatus).toBe('Published');
  });

  it('deactivates a rule that keeps running out of time, audit-logged as the system, and counts a new pattern from zero', async () => {
    const created = await rule({ name: 'Keeps timing out', kind: 'regex', pattern: '.{0,100}a.{0,100}a.{0,100}b', action: 'flag' });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    const show = async () => (await t.app.inject({ method: 'GET', url: `/api/admin/moderation-rules/${id}`, headers: admin.headers })).json();
    for (let i = 1; i < RULE_TIMEOUT_LIMIT; i++) {
      expect((await createPost(t, angler, { text: 'a'.repeat(4800) })).moderationStatus).toBe('PendingReview');
    }
    expect(await show()).toMatchObject({ isActive: true, usage: { timeouts: RULE_TIMEOUT_LIMIT - 1 } });
    expect((await auditEntries(t, 'moderation.rule_deactivated')).filter((e) => e.target_id === id)).toEqual([]);

    const last = await createPost(t, angler, { text: 'a'.repeat(4800) });
    expect(await queueItem(last.id)).toMatchObject({ held_because: 'rule_timeout', matched_rules: [{ id, name: 'Keeps timing out', action: 'flag' }] });
    expect(await show()).toMatchObject({ isActive: false, deactivatedAt: expect.any(String), deactivatedBy: null, usage: { timeouts: RULE_TIMEOUT_LIMIT } });
    const entries = (await auditEntries(t, 'moderation.rule_deactivated')).filter((e) => e.target_id === id);
    expect(entries).toEqual([
      expect.objectContaining({
        actor_type: 'system',
        actor_user_id: null,
        target_type: 'moderation_rule',
        reason: expect.stringContaining(`ran out of time ${RULE_TIMEOUT_LIMIT} times`),
        before: expect.objectContaining({ isActive: true, pattern: '.{0,100}a.{0,100}a.{0,100}b' }),
        after: expect.objectContaining({ isActive: false, timeoutCount: RULE_TIMEOUT_LIMIT }),
      }),
    ]);

    // It no longer runs: the same text is published, and the count stays.
    expect((await createPost(t, angler, { text: 'a'.repeat(4800) })).moderationStatus).toBe('Published');
    expect((await show()).usage.timeouts).toBe(RULE_TIMEOUT_LIMIT);

    // Reactivated unchanged it keeps its count; a new pattern starts from zero.
    const back = await t.app.inject({ method: 'PUT', url: `/api/admin/moderation-rules/${id}`, headers: admin.headers, payload: { isActive: true } });
    expect(back.json()).toMatchObject({ isActive: true, usage: { timeouts: RULE_TIMEOUT_LIMIT } });
    const fixed = await t.app.inject({ method: 'PUT', url: `/api/admin/moderation-rules/${id}`, headers: admin.headers, payload: { pattern: 'a{3}b' } });
    expect(fixed.json()).toMatchObject({ isActive: true, pattern: 'a{3}b', usage: { timeouts: 0 } });
    await t.app.inject({ method: 'PUT', url: `/api/admin/moderation-rules/${id}`, headers: admin.headers, payload: { isActive: false } });
  });

  it('checks a pattern changed by PUT too', async () => {
    const ok = await rule({ name: 'fine', kind: 'regex', pattern: 'carp\\s+king', action: 'flag' });
    const res = await t.app.inject({ method: 'PUT', url: `/api/admin/moderation-rules/${ok.json().id}`, headers: admin.headers, payload: { pattern: '(c+)+arp' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].pointer).toBe('/pattern');
    await t.app.inject({ method: 'PUT', url: `/api/admin/moderation-rules/${ok.json().id}`, headers: admin.headers, payload: { isActive: false } });
  });
});

describe('moderation with the OpenAI-compatible provider', () => {
  let standIn: ModerationStandIn;

  beforeAll(async () => {
    standIn = await startModerationStandIn();
    const res = await settings({ provider: 'openai', baseUrl: standIn.baseUrl, apiKey: standIn.apiKey, model: 'omni-moderation-2024-09-26', costPerCallUsd: 0.002, timeoutMs: 500 });
    expect(res.statusCode).toBe(200);
  });
  afterAll(async () => {
    await settings({ provider: 'local', apiKey: null, monthlyBudgetUsd: null, thresholds: {}, autoRejectThreshold: null, timeoutMs: 5000 });
    await standIn?.close();
  });

  it('never returns the API key, only that one is set', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/moderation-settings', headers: admin.headers });
    expect(res.json()).toMatchObject({ provider: 'openai', apiKeySet: true, baseUrl: standIn.baseUrl, model: 'omni-moderation-2024-09-26', costPerCallUsd: 0.002 });
    expect(res.body).not.toContain(standIn.apiKey);
    expect(res.json()).not.toHaveProperty('apiKey');
    const audit = await t.database.pool.query("SELECT before::text || after::text AS body FROM audit_log WHERE action = 'moderation.settings_updated'");
    expect(audit.rows.length).toBeGreaterThan(0);
    for (const row of audit.rows) expect(row.body).not.toContain(standIn.apiKey);
  });

  it('publishes what the provider finds clean, with the key, model and text it sends', async () => {
    const before = standIn.requests.length;
    const post = await createPost(t, angler, { text: 'Sunset musky', photoUrls: ['https://img.example.com/musky.jpg'] });
    expect(post.moderationStatus).toBe('Published');
    const request = standIn.requests[before]!;
    expect(request).toMatchObject({
      path: '/v1/moderations',
      authorization: `Bearer ${standIn.apiKey}`,
      body: {
        model: 'omni-moderation-2024-09-26',
        input: [
          { type: 'text', text: 'Sunset musky' },
          { type: 'image_url', image_url: { url: 'https://img.example.com/musky.jpg' } },
        ],
      },
    });
    expect(await calls(post.id)).toEqual([expect.objectContaining({ provider: 'openai', model: 'omni-moderation-2024-09-26', outcome: 'clean', cost_usd: '0.002000' })]);
  });

  it('holds what it flags, with its categories and scores', async () => {
    const post = await createPost(t, angler, { text: 'flagme please' });
    expect(post.moderationStatus).toBe('PendingReview');
    expect(await queueItem(post.id)).toMatchObject({ held_because: 'flagged', provider: 'openai', categories: ['harassment'], scores: expect.objectContaining({ harassment: 0.91 }) });
  });

  it('applies the thresholds and the auto-reject threshold to its scores', async () => {
    expect((await createPost(t, angler, { text: 'borderline remark' })).moderationStatus).toBe('Published');
    await settings({ thresholds: { harassment: 0.4 }, autoRejectThreshold: 0.95 });
    expect((await createPost(t, angler, { text: 'borderline remark' })).moderationStatus).toBe('PendingReview');
    const rejected = await createPost(t, angler, { text: 'rejectme now' });
    expect(rejected).toMatchObject({ moderationStatus: 'Rejected', moderationReason: expect.stringContaining('violence') });
    await settings({ thresholds: {}, autoRejectThreshold: null });
  });

  it.each([
    ['a server error', { type: 'status', status: 500 } as const, 'provider_error', 'error'],
    ['a rate limit', { type: 'status', status: 429, message: 'Rate limit reached' } as const, 'provider_error', 'error'],
    ['a malformed answer', { type: 'malformed' } as const, 'provider_error', 'error'],
    ['a dropped connection', { type: 'close' } as const, 'provider_error', 'error'],
    ['a timeout', { type: 'delay', ms: 3000 } as const, 'provider_timeout', 'timeout'],
  ])('holds the post for review on %s, never publishing it unchecked and never answering 500', async (_name, mode, heldBecause, outcome) => {
    standIn.setMode(mode);
    try {
      const started = Date.now();
      const res = await t.app.inject({ method: 'POST', url: '/api/social/posts', headers: angler.headers, payload: { text: 'A clean post while the provider is down' } });
      expect(Date.now() - started).toBeLessThan(2500);
      expect(res.statusCode).toBe(201);
      expect(res.json().moderationStatus).toBe('PendingReview');
      expect(await queueItem(res.json().id)).toMatchObject({ held_because: heldBecause, categories: [`provider_${outcome}`] });
      expect((await calls(res.json().id))[0]).toMatchObject({ provider: 'openai', outcome, cost_usd: '0.000000', error: expect.any(String) });
    } finally {
      standIn.setMode({ type: 'ok' });
    }
  });

  it('counts its calls by outcome and their cost in the metrics', async () => {
    const scrape = async () => {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: admin.headers });
      expect(res.statusCode).toBe(200);
      const value = (name: string) => Number(new RegExp(`^${name.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(res.body)?.[1] ?? 0);
      return {
        clean: value('fishlog_moderation_provider_calls_total{provider="openai",outcome="clean"}'),
        errors: value('fishlog_moderation_provider_calls_total{provider="openai",outcome="error"}'),
        cost: value('fishlog_moderation_provider_cost_usd_total{provider="openai"}'),
      };
    };
    const before = await scrape();
    await createPost(t, angler, { text: 'A quiet evening on the lake' });
    standIn.setMode({ type: 'status', status: 500 });
    try {
      await createPost(t, angler, { text: 'Provider down for this one' });
    } finally {
      standIn.setMode({ type: 'ok' });
    }
    const after = await scrape();
    expect(after.clean - before.clean).toBe(1);
    expect(after.errors - before.errors).toBe(1);
    expect(after.cost - before.cost).toBeCloseTo(0.002, 6);
  });

  it('holds the post when the key is wrong, without storing the key from the error message', async () => {
    await settings({ apiKey: 'sk-wrong-key-9876543210' });
    try {
      const post = await createPost(t, angler, { text: 'wrong key' });
      expect(post.moderationStatus).toBe('PendingReview');
      const [call] = await calls(post.id);
      expect(call.error).toContain('HTTP 401');
      expect(call.error).not.toContain('sk-wrong-key-9876543210');
    } finally {
      await settings({ apiKey: standIn.apiKey });
    }
  });

  it('holds the post when the provider cannot be reached', async () => {
    const closed = await startModerationStandIn();
    await closed.close();
    expect((await settings({ baseUrl: closed.baseUrl, apiKey: standIn.apiKey })).statusCode).toBe(200);
    try {
      const post = await createPost(t, angler, { text: 'nobody home' });
      expect(post.moderationStatus).toBe('PendingReview');
      expect((await calls(post.id))[0]).toMatchObject({ outcome: 'error', error: expect.stringContaining('ECONNREFUSED') });
    } finally {
      expect((await settings({ baseUrl: standIn.baseUrl, apiKey: standIn.apiKey })).statusCode).toBe(200);
    }
  });

  it('never sends the stored key to a base URL or provider changed without it', async () => {
    const collector = await startModerationStandIn({ apiKey: 'sk-collector-own-key-5555555555' });
    try {
      const moved = await settings({ baseUrl: collector.baseUrl });
      expect(moved.statusCode).toBe(400);
      expect(moved.json()).toMatchObject({ code: 'moderation.provider_setting_missing', errors: [{ pointer: '/apiKey', in: 'body' }] });
      const sent = standIn.requests.length;
      await createPost(t, angler, { text: 'Still going to the configured endpoint' });
      expect(standIn.requests.length).toBe(sent + 1);
      const viaProvider = await settings({ provider: 'local' });
      expect(viaProvider.json()).toMatchObject({ provider: 'local', apiKeySet: false });
      expect((await settings({ provider: 'openai', baseUrl: collector.baseUrl })).statusCode).toBe(400);
      await createPost(t, angler, { text: 'Where does my key go?' });
      expect(collector.requests).toEqual([]);
    } finally {
      await collector.close();
      expect((await settings({ provider: 'openai', model: 'omni-moderation-2024-09-26', baseUrl: standIn.baseUrl, apiKey: standIn.apiKey })).statusCode).toBe(200);
    }
    const before = standIn.requests.length;
    await createPost(t, angler, { text: 'Back home' });
    expect(standIn.requests.slice(before)).toEqual([expect.objectContaining({ authorization: `Bearer ${standIn.apiKey}` })]);
  });

  it('moderates comments with the provider too', async () => {
    const post = await createPost(t, angler, { text: 'Comment away' });
    const res = await t.app.inject({ method: 'POST', url: `/api/social/posts/${post.id}/comments`, headers: admin.headers, payload: { text: 'flagme' } });
    expect(res.json().moderationStatus).toBe('PendingReview');
    expect((await calls(res.json().id))[0]).toMatchObject({ content_type: 'comment', provider: 'openai', outcome: 'flagged' });
  });

  it("reports this month's calls, cost and flag rate, and falls back to the local provider beyond the budget", async () => {
    const before = (await t.app.inject({ method: 'GET', url: '/api/admin/moderation-settings', headers: admin.headers })).json().dashboard;
    const openai = before.byProvider.find((p: { provider: string }) => p.provider === 'openai');
    expect(openai).toMatchObject({ model: 'omni-moderation-2024-09-26' });
    expect(before.calls).toBe(before.byProvider.reduce((n: number, p: { calls: number }) => n + p.calls, 0));
    expect(before.flagRate).toBeCloseTo(before.flagged / before.calls, 4);
    expect(before.costUsd).toBeCloseTo(openai.costUsd, 6);
    expect(before.failed).toBeGreaterThanOrEqual(7);
    expect(before.pendingReview).toBeGreaterThan(0);
    expect(before.month).toMatch(/^\d{4}-\d{2}$/);

    await settings({ monthlyBudgetUsd: before.costUsd });
    const requests = standIn.requests.length;
    const post = await createPost(t, angler, { text: 'Over budget but clean' });
    expect(post.moderationStatus).toBe('Published');
    expect(standIn.requests.length).toBe(requests);
    expect((await calls(post.id))[0]).toMatchObject({ provider: 'local', cost_usd: '0.000000' });
    const after = (await t.app.inject({ method: 'GET', url: '/api/admin/moderation-settings', headers: admin.headers })).json().dashboard;
    expect(after).toMatchObject({ budgetUsd: before.costUsd, budgetRemainingUsd: 0, budgetExceeded: true, costUsd: before.costUsd, calls: before.calls + 1 });
  });
});
