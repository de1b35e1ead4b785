import { createHash } from 'node:crypto';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness.js';
import { createDb, type Db } from '../db/client.js';
import { GENESIS_HASH, recordAudit, verifyAuditChain, type AuditHead } from './audit.js';
import { systemAuditContext } from './context.js';

/**
 * What `fishlog audit verify` detects, one test per attack by someone with full database access
 * (triggers bypassed) but without the HMAC key or the checkpoint copy.
 */

let testDb: TestDatabase;
let pool: pg.Pool;
let db: Db;
let checkpoint: AuditHead;

beforeEach(async () => {
  testDb = await createTestDatabase();
  pool = new pg.Pool({ connectionString: testDb.url, max: 2 });
  db = createDb(pool);
  for (let i = 1; i <= 6; i++) await recordAudit(db, systemAuditContext('test'), { action: 'test.entry', targetId: String(i), reason: `r${i}` });
  const report = await verifyAuditChain(db);
  expect(report.brokenAt).toBeUndefined();
  checkpoint = report.head!;
});
afterEach(async () => {
  await pool.end();
  await testDb.drop();
});

/** Runs SQL with the triggers off, as a superuser attacker would. */
async function tamper(...statements: [string, unknown[]?][]): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SET session_replication_role = replica');
    for (const [text, values] of statements) await client.query(text, values);
  } finally {
    await client.query('SET session_replication_role = origin');
    client.release();
  }
}

const ids = async () => (await pool.query<{ id: string }>('SELECT id FROM audit_log ORDER BY id')).rows.map((r) => Number(r.id));

describe('audit verify detects', () => {
  it('an edited row', async () => {
    const [, , third] = await ids();
    await tamper(["UPDATE audit_log SET reason = 'nothing to see' WHERE id = $1", [third]]);
    expect((await verifyAuditChain(db, 1000, { checkpoint })).brokenAt).toEqual({ id: third, reason: expect.stringContaining('does not match its HMAC') });
  });

  it('a row deleted in the middle', async () => {
    const [, , third, fourth] = await ids();
    await tamper(['DELETE FROM audit_log WHERE id = $1', [third]]);
    expect((await verifyAuditChain(db, 1000, { checkpoint })).brokenAt).toEqual({ id: fourth, reason: expect.stringContaining('prev_hash') });
  });

  it('the newest rows deleted (the checkpoint is missing)', async () => {
    const all = await ids();
    await tamper(['DELETE FROM audit_log WHERE id >= $1', [all[4]]]);
    const report = await verifyAuditChain(db, 1000, { checkpoint });
    expect(report.brokenAt).toEqual({ id: checkpoint.id, reason: expect.stringContaining('newest entries') });
    // without the checkpoint this attack is invisible: that is what the anchor is for
    expect((await verifyAuditChain(db)).brokenAt).toBeUndefined();
  });

  it('an inserted row, even one linked correctly to the newest', async () => {
    // A forged entry appended after the head with a valid prev_hash: only the key could sign it.
    await tamper([
      `INSERT INTO audit_log (occurred_at, actor_type, action, reason, prev_hash, hash) VALUES (now(), 'system', 'test.forged', 'cover-up', $1, $2)`,
      [checkpoint.hash, 'f'.repeat(64)],
    ]);
    const report = await verifyAuditChain(db, 1000, { checkpoint });
    expect(report.brokenAt).toEqual({ id: checkpoint.id + 1, reason: expect.stringContaining('does not match its HMAC') });
  });

  it('a chain recomputed after tampering (without the key)', async () => {
    // The attacker edits a row and recomputes every hash after it with plain SHA-256 (the old, unkeyed scheme).
    const [, second] = await ids();
    await tamper(["UPDATE audit_log SET reason = 'rewritten' WHERE id = $1", [second]]);
    const { rows } = await pool.query('SELECT * FROM audit_log ORDER BY id');
    let previous = GENESIS_HASH;
    for (const row of rows) {
      const content = JSON.stringify([previous, new Date(row.occurred_at).toISOString(), row.actor_type, row.actor_user_id, row.action, row.target_type, row.target_id, row.reason, row.before, row.after, row.ip_address, row.user_agent, row.request_id]);
      const hash = createHash('sha256').update(content).digest('hex');
      await tamper(['UPDATE audit_log SET prev_hash = $1, hash = $2 WHERE id = $3', [previous, hash, row.id]]);
      previous = hash;
    }
    const report = await verifyAuditChain(db, 1000, { checkpoint });
    expect(report.brokenAt).toBeDefined();
    expect(report.brokenAt!.reason).toMatch(/HMAC|checkpoint/);
  });
});
