import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { auditEntries, createUser, type TestUser, createPost } from '../../../test/factories.js';
import { startModerationStandIn, type ModerationStandIn } from '../../../test/openai-moderation-stand-in.js';
import { flaggedCategories } from './moderation.service.js';
import { rateLocally } from './providers/local.js';
import { moderationsUrl } from './providers/openai.js';
import { matchingRegexRules, patternProblem } from './rule-regex.js';

/** Moderation outcomes for each provider, including failures, the rules (hostile ones too), costs and the budget. */

describe('rules on RE2', () => {
  const rules = (...patterns: string[]) => patterns.map((pattern, i) => ({ id: `r${i}`, pattern }));
  const ids = (patterns: string[], text: string) => matchingRegexRules(rules(...patterns), text).map((r) => r.id);

  it.each([
    ['(a)\\1', 'uses a backreference (\\1), which RE2 does not support'],
    ['(?<w>\\w)\\k<w>', 'uses a backreference (\\k), which RE2 does not support'],
    ['^(?=.*spam)', 'uses a lookahead or lookbehind ((?=…), which RE2 does not support'],
    ['(?<!catch and )release', 'uses a lookahead or lookbehind ((?<…), which RE2 does not support'],
    ['foo(', 'is not valid RE2 syntax (https://github.com/google/re2/wiki/Syntax): missing ): foo('],
  ])('refuses %s, saying what RE2 does not support and what to write instead', (pattern, why) => {
    expect(patternProblem(pattern)).toContain(why);
  });

  it.each(['(a+)+$', '(.*a){20}', '(\\w|\\d)*!', 'free.*money.*click.*now', '\\p{L}+\\d+', '(?<w>\\w)x', 'sell(ing)?\\s+spots?'])('accepts %s', (pattern) => {
    expect(patternProblem(pattern)).toBeUndefined();
  });

  it('refuses a pattern too large for its 16 MiB heap, and goes on working on a fresh one', () => {
    expect(patternProblem('\\p{L}{1,1000}')).toBe('needs more memory than RE2 has for a rule: bound or shorten its repeats (e.g. \\p{L}{1,20} rather than \\p{L}{1,1000})');
    expect(patternProblem('pike')).toBeUndefined();
    expect(ids(['pike'], 'a PIKE')).toEqual(['r0']);
  });

  it('matches ignoring case, in Unicode', () => {
    expect(ids(['SPAM', 'été', 'жук', '^.$'], 'spam')).toEqual(['r0']);
    expect(ids(['été', 'жук'], 'ÉTÉ and ЖУК')).toEqual(['r0', 'r1']);
    expect(ids(['^.$'], '😀')).toEqual(['r0']);
    expect(ids(['^\\p{L}+$', '\\d'], 'Ødegård')).toEqual(['r0']);
  });

  it('matches a hostile 10 KB text correctly: the patterns that made JavaScript backtrack are linear here', () => {
    const hostile = `${'a'.repeat(10_240)}!`;
    expect(ids(['(a+)+$', '(.*a){20}', '(\\w|\\d)*!', '(a|aa)+$'], hostile)).toEqual(['r1', 'r2']);
    expect(ids(['(.*a){20}'], 'b'.repeat(10_240))).toEqual([]);
    expect(ids(['(.*a){20}'], 'ba'.repeat(19))).toEqual([]);
    expect(ids(['(.*a){20}'], 'ba'.repeat(20))).toEqual(['r0']);
  });

  it('gives the same answer all at once as one by one, also when the rules cannot be joined, and skips what RE2 cannot compile', () => {
    expect(ids(['pike', 'zander', 'perch', '(x)\\1'], 'a PERCH and a pike')).toEqual(['r0', 'r2']);
    // Two groups of one name cannot stand in one alternation: then the rules run one by one.
    expect(ids(['(?<fish>pike)', '(?<fish>perch)', 'carp'], 'perch')).toEqual(['r1']);
    expect(ids(['(?<fish>pike)', '(?<fish>perch)'], 'trout')).toEqual([]);
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

describe('rules with a regular expression on RE2', () => {
  it.each([
    ['(x)\\1', 'backreference'],
    ['(?=spam)', 'lookahead or lookbehind'],
    ['(?<!catch and )release', 'lookahead or lookbehind'],
  ])('refuses %s with a 400 naming the pattern and what RE2 does not support', async (pattern, construct) => {
    const res = await rule({ name: 'not RE2', kind: 'regex', pattern, action: 'flag' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({
      status: 400,
      code: 'request.validation_failed',
      detail: expect.stringContaining(`body /pattern uses a ${construct}`),
      errors: [{ pointer: '/pattern', in: 'body', detail: expect.stringMatching(new RegExp(`^uses a ${construct} .*which RE2 does not support.*: (write|match)`)) }],
    });
  });

  it('accepts the patterns that made JavaScript backtrack, and they hold or reject hostile content promptly and correctly', async () => {
    const nested = await rule({ name: 'Nested', kind: 'regex', pattern: '(a+)+$', action: 'reject', reason: 'No endless a.' });
    const chain = await rule({ name: 'Chain', kind: 'regex', pattern: '(.*a){20}', action: 'flag', category: 'spam' });
    const spread = await rule({ name: 'Spread', kind: 'regex', pattern: 'free.*money.*click.*now', action: 'flag', category: 'spam' });
    expect([nested.statusCode, chain.statusCode, spread.statusCode]).toEqual([201, 201, 201]);
    try {
      // Ends with "!": `(a+)+$` does not match (JavaScript took seconds to find out), `(.*a){20}` does.
      const held = await createPost(t, angler, { text: `${'a'.repeat(4800)}!` });
      expect(held.moderationStatus).toBe('PendingReview');
      expect(await queueItem(held.id)).toMatchObject({ held_because: 'rule', categories: ['spam'], matched_rules: [{ id: chain.json().id, name: 'Chain', action: 'flag' }] });
      const rejected = await createPost(t, angler, { text: 'a'.repeat(4800) });
      expect(rejected).toMatchObject({ moderationStatus: 'Rejected', moderationReason: 'No endless a.' });
      const spam = await createPost(t, angler, { text: 'FREE bait, the money is yours, click the link now' });
      expect(await queueItem(spam.id)).toMatchObject({ held_because: 'rule', matched_rules: [{ id: spread.json().id, name: 'Spread', action: 'flag' }] });
      expect((await createPost(t, angler, { text: 'Two walleye at dusk' })).moderationStatus).toBe('Published');
    } finally {
      for (const created of [nested, chain, spread]) await t.app.inject({ method: 'PUT', url: `/api/admin/moderation-rules/${created.json().id}`, headers: admin.headers, payload: { isActive: false } });
    }
  });

  it('checks a pattern changed by PUT too', async () => {
    const ok = await rule({ name: 'fine', kind: 'regex', pattern: 'carp\\s+king', action: 'flag' });
    const res = await t.app.inject({ method: 'PUT', url: `/api/admin/moderation-rules/${ok.json().id}`, headers: admin.headers, payload: { pattern: '(c)\\1arp' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'request.validation_failed', errors: [{ pointer: '/pattern', detail: expect.stringContaining('backreference') }] });
    await t.app.inject({ method: 'PUT', url: `/api/admin/moderation-rules/${ok.json().id}`, headers: admin.headers, payload: { isActive: false } });
  });

  it('reports stored rules RE2 cannot compile in the list, ignores them, and deactivates them at start-up, audit-logged as the system', async () => {
    // Written before rules took RE2 syntax (JavaScript's engine accepted them).
    const inserted = await t.database.pool.query<{ id: string }>(
      `INSERT INTO moderation_rules (id, name, kind, pattern, applies_to_posts, applies_to_comments, action, category)
       VALUES (gen_random_uuid(), 'Doubled word', 'regex', '\\b(\\w+)\\s+\\1\\b', true, true, 'flag', 'spam') RETURNING id`,
    );
    const id = inserted.rows[0]!.id;
    const show = async () => (await t.app.inject({ method: 'GET', url: `/api/admin/moderation-rules/${id}`, headers: admin.headers })).json();
    expect(await show()).toMatchObject({ isActive: true, patternProblem: expect.stringContaining('uses a backreference (\\1)') });
    expect((await createPost(t, angler, { text: 'the the pike' })).moderationStatus).toBe('Published');

    const restarted = await createTestApp({ sameDatabaseAs: t, env: { FISHLOG_MODERATION_ALLOW_HTTP: 'true' } });
    await restarted.close();
    expect(await show()).toMatchObject({ isActive: false, deactivatedAt: expect.any(String), deactivatedBy: null, patternProblem: expect.stringContaining('backreference') });
    const list = (await t.app.inject({ method: 'GET', url: '/api/admin/moderation-rules?isActive=false', headers: admin.headers })).json();
    expect(list.find((r: { id: string }) => r.id === id)).toMatchObject({ patternProblem: expect.stringContaining('backreference') });
    expect((await auditEntries(t, 'moderation.rule_deactivated')).filter((e) => e.target_id === id)).toEqual([
      expect.objectContaining({
        actor_type: 'system',
        actor_user_id: null,
        reason: expect.stringContaining('RE2 cannot compile its pattern: it uses a backreference'),
        before: expect.objectContaining({ isActive: true }),
        after: expect.objectContaining({ isActive: false, deactivationReason: expect.stringContaining('RE2 cannot compile') }),
      }),
    ]);
    // Reactivating it unchanged is refused: the pattern must be rewritten first.
    const back = await t.app.inject({ method: 'PUT', url: `/api/admin/moderation-rules/${id}`, headers: admin.headers, payload: { isActive: true } });
    expect(back.json()).toMatchObject({ status: 400, errors: [{ pointer: '/pattern' }] });
    const reactivated = await t.app.inject({ method: 'POST', url: `/api/admin/moderation-rules/${id}/reactivate`, headers: admin.headers, payload: { reason: 'Needed again' } });
    expect(reactivated.json()).toMatchObject({ status: 409, code: 'moderation.rule_pattern_unsupported', detail: expect.stringContaining('uses a backreference') });
    const rewritten = await t.app.inject({ method: 'PUT', url: `/api/admin/moderation-rules/${id}`, headers: admin.headers, payload: { pattern: '\\bthe\\s+the\\b', isActive: true } });
    expect(rewritten.json()).toMatchObject({ isActive: true, patternProblem: null });
    expect((await createPost(t, angler, { text: 'the the pike' })).moderationStatus).toBe('PendingReview');
    await t.app.inject({ method: 'PUT', url: `/api/admin/moderation-rules/${id}`, headers: admin.headers, payload: { isActive: false } });
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
