import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness.js';
import { createDb, type Db } from '../db/client.js';
import { Registries } from '../registries.js';
import { inTx, type ServiceDeps } from '../service-deps.js';
import { GENESIS_HASH, readCheckpoint, recordAudit, setAuditKey, redactSecrets, verifyAuditChain, writeCheckpoint } from './audit.js';
import type { AuditRow } from './audit.tables.js';
import { systemAuditContext } from './context.js';

let target: TestDatabase;
let pool: pg.Pool;
let db: Db;
/** This file's audit key, and the services' dependencies holding it. */
const key = randomBytes(32);
let deps: ServiceDeps;

beforeAll(async () => {
  target = await createTestDatabase();
  pool = new pg.Pool({ connectionString: target.url, max: 8 });
  db = createDb(pool);
  const registries = new Registries();
  setAuditKey(registries, key);
  deps = { db, registries };
});
afterAll(async () => {
  await pool.end();
  await target.drop();
});

describe('audit log', () => {
  it('chains each entry to the previous one and removes secrets', async () => {
    const first = await recordAudit(deps, systemAuditContext('test'), {
      action: 'test.first',
      before: { password: 'hunter2', nested: { refreshToken: 'abc', keep: 1 } },
      after: { apiKey: 'k', role: 'Admin' },
    });
    expect(first.prevHash).toBe(GENESIS_HASH);
    expect(first.before).toEqual({ password: '[redacted]', nested: { refreshToken: '[redacted]', keep: 1 } });
    expect(first.after).toEqual({ apiKey: '[redacted]', role: 'Admin' });
    expect(first).toMatchObject({ actorType: 'system', userAgent: 'fishlog-cli test' });
    const second = await recordAudit(deps, systemAuditContext('test'), { action: 'test.second' });
    expect(second.prevHash).toBe(first.hash);
    expect(await verifyAuditChain(db, key)).toMatchObject({ checked: 2 });
  });

  it('keeps the chain intact under concurrent writers', async () => {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => db.transaction((tx) => recordAudit(inTx(deps, tx), { actor: { type: 'system' } }, { action: 'test.concurrent', targetId: String(i) }))),
    );
    expect(await verifyAuditChain(db, key, 7)).toMatchObject({ checked: 22 });
  });

  it('does not make audited writes in parallel transactions wait for each other', async () => {
    // A holds its chain until B has committed: with one chain (one lock) B would wait for A's commit.
    let recordedInA!: (row: AuditRow) => void;
    let finishA!: () => void;
    const aRecorded = new Promise<AuditRow>((resolve) => (recordedInA = resolve));
    const aMayFinish = new Promise<void>((resolve) => (finishA = resolve));
    const a = db.transaction(async (tx) => {
      recordedInA(await recordAudit(inTx(deps, tx), { actor: { type: 'system' } }, { action: 'test.parallel', targetId: 'a' }));
      await aMayFinish;
    });
    const rowA = await aRecorded;
    const b = db.transaction((tx) => recordAudit(inTx(deps, tx), { actor: { type: 'system' } }, { action: 'test.parallel', targetId: 'b' }));
    const rowB = await Promise.race([b, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('B waited for A')), 5_000))]);
    expect(rowB.chain).not.toBe(rowA.chain);
    expect(rowA.chain).toBe(0);
    finishA();
    await a;
    const report = await verifyAuditChain(db, key);
    expect(report.brokenAt).toBeUndefined();
    expect(report.heads![rowB.chain]).toEqual({ id: rowB.id, hash: rowB.hash });
  });

  it('writes nothing when the change it records rolls back', async () => {
    await expect(
      db.transaction(async (tx) => {
        await recordAudit(inTx(deps, tx), { actor: { type: 'system' } }, { action: 'test.rolled_back' });
        throw new Error('change failed');
      }),
    ).rejects.toThrow('change failed');
    expect((await pool.query("SELECT 1 FROM audit_log WHERE action = 'test.rolled_back'")).rowCount).toBe(0);
  });

  it.each([
    ['UPDATE', "UPDATE audit_log SET reason = 'x'"],
    ['DELETE', 'DELETE FROM audit_log'],
    ['TRUNCATE', 'TRUNCATE audit_log'],
  ])('refuses %s', async (_op, statement) => {
    await expect(pool.query(statement)).rejects.toThrow(/append-only/);
    expect(await verifyAuditChain(db, key)).toMatchObject({ checked: 24 });
  });

  it('detects a row altered or removed behind the triggers’ back', async () => {
    const client = await pool.connect();
    try {
      await client.query('SET session_replication_role = replica');
      // A row with a later row in its chain, whose link removing it breaks. (Which chain each of the
      // concurrent writers above took depends on timing; the newest row of a chain is anchored by the
      // checkpoint instead: audit-attacks.test.ts.)
      const { rows } = await client.query(
        `SELECT a.id, (SELECT count(*) FROM audit_log e WHERE e.id < a.id)::int AS before FROM audit_log a
         WHERE EXISTS (SELECT 1 FROM audit_log b WHERE b.chain = a.chain AND b.id > a.id) ORDER BY a.id LIMIT 1 OFFSET 4`,
      );
      const id = Number(rows[0].id);
      await client.query("UPDATE audit_log SET reason = 'rewritten' WHERE id = $1", [id]);
      const altered = await verifyAuditChain(db, key);
      expect(altered.brokenAt).toEqual({ id, reason: expect.stringContaining('altered') });
      expect(altered.checked).toBe(rows[0].before);
      await client.query('DELETE FROM audit_log WHERE id = $1', [id]);
      const removed = await verifyAuditChain(db, key);
      expect(removed.brokenAt?.reason).toContain('removed');
    } finally {
      await client.query('SET session_replication_role = origin');
      client.release();
    }
  });

  it('redacts secrets recursively in arrays', () => {
    expect(redactSecrets([{ clientSecret: 's', name: 'n' }])).toEqual([{ clientSecret: '[redacted]', name: 'n' }]);
  });

});

describe('the checkpoint file', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'fishlog-checkpoint-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the newest entry of each chain', () => {
    const file = path.join(dir, 'audit.checkpoint');
    const checkpoint = { id: 9, hash: 'b'.repeat(64), chains: { 0: { id: 8, hash: 'a'.repeat(64) }, 1: { id: 9, hash: 'b'.repeat(64) } } };
    writeCheckpoint(file, checkpoint);
    expect(readCheckpoint(file)).toEqual(checkpoint);
  });

  it('reads a file from before chains existed as the head of chain 0, and ignores an unreadable one', () => {
    const file = path.join(dir, 'old.checkpoint');
    writeFileSync(file, JSON.stringify({ id: 7, hash: 'c'.repeat(64), at: '2026-01-01T00:00:00.000Z' }));
    expect(readCheckpoint(file)).toEqual({ id: 7, hash: 'c'.repeat(64), chains: { 0: { id: 7, hash: 'c'.repeat(64) } } });
    writeFileSync(file, 'not json');
    expect(readCheckpoint(file)).toBeUndefined();
  });
});
