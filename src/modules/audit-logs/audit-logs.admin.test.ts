import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { auditEntries, createStaff, recordOverlappingAudits, type Staff, type TestUser } from '../../../test/factories.js';
import { recordAudit } from '../../core/audit/audit.js';
import { systemAuditContext } from '../../core/audit/context.js';
import { inTx, serviceDeps } from '../../core/service-deps.js';
import { main } from '../../cli/index.js';

let t: TestApp;
let staff: Staff;
let exporters: Staff;
const dir = mkdtempSync(path.join(os.tmpdir(), 'fishlog-audit-export-'));

beforeAll(async () => {
  // The app writes with the key the CLI verifies with (the harness's config would use a key file otherwise).
  t = await createTestApp({ env: { FISHLOG_AUDIT_KEY: process.env.FISHLOG_AUDIT_KEY! } });
  staff = await createStaff(t, 'AuditLogs.View');
  exporters = await createStaff(t, 'AuditLogs.Export');
  // A known set of entries to filter on.
  await t.database.db.transaction(async (tx) => {
    for (let i = 0; i < 7; i++) {
      await recordAudit(inTx(serviceDeps(t), tx), { actor: { type: 'user', userId: staff.admin.userId }, ipAddress: '203.0.113.9' }, {
        action: 'testkit.widget_changed',
        targetType: 'widget',
        targetId: `w${i}`,
        reason: i % 2 === 0 ? `spam wave number ${i}` : `routine cleanup ${i}`,
        after: { n: i, note: 'line\nbreak, "quoted"' },
      });
    }
    await recordAudit(inTx(serviceDeps(t), tx), systemAuditContext('test'), { action: 'testkit.login_refused', reason: 'wrong password,\nthird "try"', outcome: 'failure' });
  });
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, user: TestUser | null) => t.app.inject({ method: 'GET', url, ...(user ? { headers: user.headers } : {}) });

async function cli(args: string[]) {
  let out = '';
  let err = '';
  const code = await main(args, { out: (s) => (out += s), err: (s) => (err += s), env: { FISHLOG_AUDIT_KEY: process.env.FISHLOG_AUDIT_KEY!, FISHLOG_DATA_DIR: dir } });
  return { code, out, err };
}

describe('who may read the audit log (AuditLogs.View)', () => {
  const urls = ['/api/admin/audit-logs', '/api/admin/audit-logs/statistics'];

  it('needs a token (401)', async () => {
    for (const url of urls) expect((await get(url, null)).statusCode, url).toBe(401);
  });

  it('refuses Standard, a Moderator without the grant and an Admin denied it (403 naming the permission)', async () => {
    for (const user of [staff.standard, staff.moderator, staff.deniedAdmin]) {
      for (const url of urls) {
        const res = await get(url, user);
        expect(res.statusCode, url).toBe(403);
        expect(res.json()).toMatchObject({ code: 'access.permission_denied' });
        expect(res.json().detail).toContain('AuditLogs.View');
      }
    }
  });

  it('lets the Owner, an Admin and a granted Moderator in, and records each read', async () => {
    for (const user of [staff.owner, staff.admin, staff.grantedModerator]) {
      const before = (await auditEntries(t, 'audit_logs.listed')).length;
      const res = await get('/api/admin/audit-logs?limit=1', user);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toHaveLength(1);
      const reads = await auditEntries(t, 'audit_logs.listed');
      expect(reads).toHaveLength(before + 1);
      expect(reads.at(-1)).toMatchObject({ actor_user_id: user.userId, target_type: 'audit_log' });
      expect((await get('/api/admin/audit-logs/statistics', user)).statusCode).toBe(200);
    }
  });
});

describe('GET /api/admin/audit-logs', () => {
  it('filters by action, actor, target, outcome and reason text, with the chain fields', async () => {
    const byAction = await get('/api/admin/audit-logs?action=testkit.widget_changed&limit=100', staff.owner);
    expect(byAction.json()).toHaveLength(7);
    expect(byAction.json()[0]).toMatchObject({
      action: 'testkit.widget_changed',
      actorType: 'User',
      actorUserId: staff.admin.userId,
      actorUsername: staff.admin.username,
      targetType: 'widget',
      targetId: 'w6',
      outcome: 'Success',
      ipAddress: '203.0.113.9',
      after: { n: 6 },
    });
    expect(byAction.json()[0].hash).toMatch(/^[0-9a-f]{64}$/);
    expect(byAction.json()[0].prevHash).toMatch(/^[0-9a-f]{64}$/);

    const spam = await get('/api/admin/audit-logs?q=spam%20wave', staff.owner);
    expect(spam.json().map((e: { targetId: string }) => e.targetId)).toEqual(['w6', 'w4', 'w2', 'w0']);
    const notSpam = await get('/api/admin/audit-logs?actionPrefix=testkit.&q=routine%20-spam', staff.owner);
    expect(notSpam.json().map((e: { targetId: string }) => e.targetId)).toEqual(['w5', 'w3', 'w1']);

    const target = await get('/api/admin/audit-logs?targetType=widget&targetId=w3', staff.owner);
    expect(target.json()).toHaveLength(1);
    expect(target.json()[0].reason).toBe('routine cleanup 3');

    const failures = await get('/api/admin/audit-logs?outcome=Failure', staff.owner);
    expect(failures.json()).toEqual([expect.objectContaining({ action: 'testkit.login_refused', outcome: 'Failure', actorType: 'System', actorUserId: null })]);

    const actor = await get(`/api/admin/audit-logs?actorId=${staff.admin.userId}&actionPrefix=testkit.`, staff.owner);
    expect(actor.json()).toHaveLength(7);
    const system = await get('/api/admin/audit-logs?actorType=System&actionPrefix=testkit.', staff.owner);
    expect(system.json()).toHaveLength(1);

    const future = await get(`/api/admin/audit-logs?from=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`, staff.owner);
    expect(future.json()).toEqual([]);
    const past = await get(`/api/admin/audit-logs?to=2000-01-01T00:00:00Z`, staff.owner);
    expect(past.json()).toEqual([]);
  });

  it('pages with a keyset cursor: no entry twice, none left out, stable while new entries arrive', async () => {
    const seen: string[] = [];
    let url: string | undefined = '/api/admin/audit-logs?action=testkit.widget_changed&limit=3';
    let pages = 0;
    while (url) {
      const res = await get(url, staff.admin);
      expect(res.statusCode).toBe(200);
      seen.push(...res.json().map((e: { targetId: string }) => e.targetId));
      const cursor = res.headers['x-next-cursor'] as string | undefined;
      if (cursor) expect(res.headers.link).toContain(`cursor=${cursor}`);
      url = cursor ? `/api/admin/audit-logs?action=testkit.widget_changed&limit=3&cursor=${cursor}` : undefined;
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(['w6', 'w5', 'w4', 'w3', 'w2', 'w1', 'w0']);
  });

  it('refuses a forged cursor and an empty period with a 400 saying what to do', async () => {
    const forged = await get('/api/admin/audit-logs?cursor=bm90LWEtY3Vyc29y', staff.owner);
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toMatchObject({ code: 'audit_logs.invalid_cursor' });
    const empty = await get('/api/admin/audit-logs?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z', staff.owner);
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: 'audit_logs.invalid_range' });
  });
});

describe('GET /api/admin/audit-logs/statistics', () => {
  it('counts actors, actions and entries per day, zero-filled', async () => {
    const to = new Date(Date.now() + 86_400_000);
    const from = new Date(to.getTime() - 3 * 86_400_000);
    const res = await get(`/api/admin/audit-logs/statistics?from=${from.toISOString()}&to=${to.toISOString()}&top=50`, staff.admin);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.mostCommonActions).toContainEqual({ action: 'testkit.widget_changed', count: 7 });
    expect(body.mostActiveActors.find((a: { userId: string }) => a.userId === staff.admin.userId)).toMatchObject({ username: staff.admin.username, role: 'Admin' });
    expect(body.perDay.length).toBeGreaterThanOrEqual(3);
    expect(body.perDay.reduce((sum: number, d: { count: number }) => sum + d.count, 0)).toBe(body.total);
    expect(body.perDay.some((d: { count: number }) => d.count === 0)).toBe(true);
    const tooLong = await get('/api/admin/audit-logs/statistics?from=2020-01-01T00:00:00Z&to=2026-01-01T00:00:00Z', staff.admin);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().code).toBe('audit_logs.range_too_long');
  });
});

describe('GET /api/admin/audit-logs/export (AuditLogs.Export)', () => {
  it('refuses callers without the permission, and a View grant is not enough', async () => {
    expect((await get('/api/admin/audit-logs/export?format=csv', null)).statusCode).toBe(401);
    for (const user of [exporters.standard, exporters.moderator, exporters.deniedAdmin, staff.grantedModerator]) {
      const res = await get('/api/admin/audit-logs/export?format=ndjson', user);
      expect(res.statusCode).toBe(403);
      expect(res.json().detail).toContain('AuditLogs.Export');
    }
    for (const user of [exporters.owner, exporters.admin, exporters.grantedModerator]) {
      expect((await get('/api/admin/audit-logs/export?format=ndjson', user)).statusCode).toBe(200);
    }
  });

  for (const format of ['ndjson', 'csv'] as const) {
    it(`exports every entry as ${format}, records the export, and the file verifies offline; a tampered line does not`, async () => {
      const total = Number((await t.database.pool.query('SELECT count(*) AS n FROM audit_log')).rows[0].n);
      const res = await get(`/api/admin/audit-logs/export?format=${format}`, exporters.admin);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain(format === 'csv' ? 'text/csv' : 'application/x-ndjson');
      const lines = res.body.trimEnd().split('\n');
      if (format === 'ndjson') {
        // every entry, then the seal
        expect(lines).toHaveLength(total + 1);
        expect(JSON.parse(lines[0]!)).toMatchObject({ id: 1, prevHash: '0'.repeat(64) });
        expect(JSON.parse(lines.at(-1)!)).toMatchObject({
          id: null,
          action: 'export.seal',
          after: { firstId: 1, lastId: total, entries: total, chains: { 0: { first: { id: 1, prevHash: '0'.repeat(64) }, last: { id: total } } } },
          hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        });
      } else {
        expect(lines[0]).toBe('id,occurredAt,actorType,actorUserId,action,targetType,targetId,reason,before,after,ipAddress,userAgent,requestId,outcome,chain,prevHash,hash');
        // A header, one reason's quoted line break spans two lines, and the seal.
        expect(lines).toHaveLength(total + 3);
        expect(lines.at(-1)).toMatch(/^,,,,"export\.seal",,,,,"\{.*""entries"":\d+.*\}",,,,,,,"[0-9a-f]{64}"$/);
      }
      expect(Number(res.headers['x-audit-last-id']) - Number(res.headers['x-audit-first-id']) + 1).toBe(total);
      const exported = (await auditEntries(t, 'audit_logs.exported')).at(-1)!;
      expect(exported).toMatchObject({ actor_user_id: exporters.admin.userId, after: expect.objectContaining({ format, firstId: 1, lastId: total }) });

      const file = path.join(dir, `export.${format}`);
      writeFileSync(file, res.body);
      const ok = await cli(['audit', 'verify', '--file', file]);
      expect(ok.err).toBe('');
      expect(ok.code).toBe(0);
      expect(ok.out).toContain(`export intact: ${total} entries checked, #1 to #${total}`);
      expect(ok.out).toContain(`chain 0: #1 to #${total}, joins at prevHash ${'0'.repeat(64)} (the genesis: the chain starts here)`);
      expect(ok.out).toContain(`sealed by the server: every entry of #1 to #${total} as it stood\n`);

      const tampered = path.join(dir, `tampered.${format}`);
      writeFileSync(tampered, readFileSync(file, 'utf8').replace('routine cleanup 3', 'routine cleanup 4'));
      const bad = await cli(['audit', 'verify', '--file', tampered]);
      expect(bad.code).toBe(1);
      expect(bad.err).toMatch(/export BROKEN at line \d+ \(entry \d+\): its content does not match its HMAC/);

      const wrongKey = await main(['audit', 'verify', '--file', file], { out: () => undefined, err: () => undefined, env: { FISHLOG_AUDIT_KEY: 'another-key-0123456789abcdef0123456789', FISHLOG_DATA_DIR: dir } });
      expect(wrongKey).toBe(1);
    });
  }

  it('exports a period as a contiguous piece of the chain, and a removed line shows', async () => {
    const first = (await t.database.pool.query("SELECT occurred_at FROM audit_log WHERE action = 'testkit.widget_changed' ORDER BY id LIMIT 1")).rows[0].occurred_at as Date;
    const res = await get(`/api/admin/audit-logs/export?format=ndjson&from=${first.toISOString()}`, exporters.owner);
    const lines = res.body.trimEnd().split('\n');
    const records = lines.slice(0, -1).map((l) => JSON.parse(l) as { id: number; chain: number; prevHash: string; hash: string });
    expect(records[0]!.id).toBeGreaterThan(1);
    for (let i = 1; i < records.length; i++) expect(records[i]!).toMatchObject({ chain: 0, prevHash: records[i - 1]!.hash });
    const file = path.join(dir, 'period.ndjson');
    writeFileSync(file, `${lines.join('\n')}\n`);
    expect((await cli(['audit', 'verify', '--file', file])).code).toBe(0);
    // an entry removed in the middle: its chain's next link breaks
    writeFileSync(file, `${lines.filter((_, i) => i !== 2).join('\n')}\n`);
    const bad = await cli(['audit', 'verify', '--file', file]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('its prevHash does not match the hash of the previous entry of chain 0');
    // the last entry removed (no link after it to break): the seal shows it
    writeFileSync(file, `${lines.filter((_, i) => i !== lines.length - 2).join('\n')}\n`);
    const lastRemoved = await cli(['audit', 'verify', '--file', file]);
    expect(lastRemoved.code).toBe(1);
    expect(lastRemoved.err).toContain(`the seal counts ${records.length} entries, the file holds ${records.length - 1}`);
    // cut off before the seal
    writeFileSync(file, `${lines.slice(0, -3).join('\n')}\n`);
    const cut = await cli(['audit', 'verify', '--file', file]);
    expect(cut.code).toBe(1);
    expect(cut.err).toContain('does not end with its seal: it was cut off');
    // a seal rewritten to match a shortened file, without the key
    const seal = JSON.parse(lines.at(-1)!) as { after: { entries: number } };
    writeFileSync(file, `${[...lines.slice(0, -2), JSON.stringify({ ...seal, after: { ...seal.after, entries: seal.after.entries - 1 } })].join('\n')}\n`);
    const forged = await cli(['audit', 'verify', '--file', file]);
    expect(forged.code).toBe(1);
    expect(forged.err).toContain('the seal does not match its HMAC');
  });

  it('verifies an export whose entries are on several chains (audited writes in parallel), and one from before chains existed', async () => {
    const [a, b] = await recordOverlappingAudits(serviceDeps(t), [
      { action: 'testkit.parallel', targetId: 'a' },
      { action: 'testkit.parallel', targetId: 'b' },
    ]);
    expect([a!.chain, b!.chain].sort()).toEqual([0, 1]);
    const res = await get('/api/admin/audit-logs/export?format=ndjson', exporters.owner);
    const [sealLine, ...reversed] = res.body.trimEnd().split('\n').reverse();
    const records = reversed.reverse().map((l) => JSON.parse(l) as { id: number; chain: number; prevHash: string; hash: string });
    const onChain1 = records.filter((r) => r.chain === 1);
    expect(onChain1).toHaveLength(1);
    const file = path.join(dir, 'chains.ndjson');
    writeFileSync(file, [...records.map((r) => JSON.stringify(r)), sealLine].join('\n'));
    const ok = await cli(['audit', 'verify', '--file', file]);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain(`export intact: ${records.length} entries checked`);
    expect(ok.out).toContain(`chain 1: #${onChain1[0]!.id} to #${onChain1[0]!.id}, joins at prevHash ${'0'.repeat(64)} (the genesis: the chain starts here)`);

    // An entry moved to the other chain does not link there.
    writeFileSync(file, [...records.map((r) => JSON.stringify(r.chain === 1 ? { ...r, chain: 0 } : r)), sealLine].join('\n'));
    const moved = await cli(['audit', 'verify', '--file', file]);
    expect(moved.code).toBe(1);
    expect(moved.err).toContain(`(entry ${onChain1[0]!.id}): its prevHash does not match the hash of the previous entry of chain 0`);

    // An export written before chains existed has no chain field: all its entries are chain 0.
    const older = records.filter((r) => r.id < Math.min(a!.id, b!.id)).map(({ chain: _chain, ...rest }) => rest);
    writeFileSync(file, older.map((r) => JSON.stringify(r)).join('\n'));
    const old = await cli(['audit', 'verify', '--file', file]);
    expect(old.err).toBe('');
    expect(old.out).toContain(`export intact: ${older.length} entries checked`);
    expect(old.out).toContain('not sealed (exported before seals existed): checked for consecutive ids instead');
  });

  it('verifies an export across ids the log never kept (a write rolled back after taking its id)', async () => {
    await expect(
      t.database.db.transaction(async (tx) => {
        await recordAudit(inTx(serviceDeps(t), tx), systemAuditContext('test'), { action: 'testkit.rolled_back' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await t.database.db.transaction((tx) => recordAudit(inTx(serviceDeps(t), tx), systemAuditContext('test'), { action: 'testkit.after_rollback' }));
    const res = await get('/api/admin/audit-logs/export?format=csv', exporters.owner);
    const file = path.join(dir, 'gap.csv');
    writeFileSync(file, res.body);
    const ok = await cli(['audit', 'verify', '--file', file]);
    expect(ok.err).toBe('');
    expect(ok.out).toMatch(/sealed by the server: every entry of #1 to #\d+ as it stood; 1 ids of the range are not log entries/);
  });

  it('does not leave out an entry that took a lower id on another chain and commits after a higher one: the export waits for it', async () => {
    // A records (chain 0) and stays open; B records on chain 1 and commits first, with a higher id.
    let recordedInA!: (id: number) => void;
    let finishA!: () => void;
    const aRecorded = new Promise<number>((resolve) => (recordedInA = resolve));
    const aMayFinish = new Promise<void>((resolve) => (finishA = resolve));
    const a = t.database.db.transaction(async (tx) => {
      recordedInA((await recordAudit(inTx(serviceDeps(t), tx), systemAuditContext('test'), { action: 'testkit.slow_commit' })).id);
      await aMayFinish;
    });
    const idA = await aRecorded;
    const idB = (await t.database.db.transaction((tx) => recordAudit(inTx(serviceDeps(t), tx), systemAuditContext('test'), { action: 'testkit.fast_commit' }))).id;
    expect(idB).toBeGreaterThan(idA);
    let answered = false;
    const exporting = get('/api/admin/audit-logs/export?format=ndjson', exporters.owner).then((res) => {
      answered = true;
      return res;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answered).toBe(false);
    finishA();
    await a;
    const res = await exporting;
    const ids = res.body.trimEnd().split('\n').slice(0, -1).map((l) => (JSON.parse(l) as { id: number }).id);
    expect(ids).toContain(idA);
    expect(ids).toContain(idB);
    const file = path.join(dir, 'settled.ndjson');
    writeFileSync(file, res.body);
    expect((await cli(['audit', 'verify', '--file', file])).code).toBe(0);
  });
});
