import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordOverlappingAudits } from '../../../test/factories.js';
import { createTestDatabase, type TestDatabase } from '../../../test/harness.js';
import { createDb, type Db } from '../db/client.js';
import { Registries } from '../registries.js';
import type { ServiceDeps } from '../service-deps.js';
import { GENESIS_HASH, recordAudit, setAuditKey, verifyAuditChain, type AuditCheckpoint } from './audit.js';
import { systemAuditContext } from './context.js';

/**
 * What `fishlog audit verify` detects, one test per attack by someone with full database access
 * (triggers bypassed) but without the HMAC key or the checkpoint copy.
 */

let testDb: TestDatabase;
let pool: pg.Pool;
let db: Db;
/** This file's audit key, and the services' dependencies holding it. */
const key = randomBytes(32);
let deps: ServiceDeps;
let checkpoint: AuditCheckpoint;

beforeEach(async () => {
  testDb = await createTestDatabase();
  pool = new pg.Pool({ connectionString: testDb.url, max: 2 });
  db = createDb(pool);
  const registries = new Registries();
  setAuditKey(registries, key);
  deps = { db, registries };
  // Entries 1–2 one after the other (chain 0), then 3–4, 5–6 and 7–8 each in two overlapping transactions (chains 0 and 1).
  for (const i of [1, 2]) await recordAudit(deps, systemAuditContext('test'), { action: 'test.entry', targetId: String(i), reason: `r${i}` });
  for (const pair of [[3, 4], [5, 6], [7, 8]]) await recordOverlappingAudits(deps, pair.map((i) => ({ action: 'test.entry', targetId: String(i), reason: `r${i}` })));
  const report = await verifyAuditChain(db, key);
  expect(report.brokenAt).toBeUndefined();
  expect(Object.keys(report.heads!)).toEqual(['0', '1']);
  checkpoint = { ...report.head!, chains: report.heads! };
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
/** The ids of one chain, in order. */
const chainIds = async (chain: number) => (await pool.query<{ id: string }>('SELECT id FROM audit_log WHERE chain = $1 ORDER BY id', [chain])).rows.map((r) => Number(r.id));

describe('audit verify detects', () => {
  it('an edited row', async () => {
    const [, , third] = await ids();
    await tamper(["UPDATE audit_log SET reason = 'nothing to see' WHERE id = $1", [third]]);
    expect((await verifyAuditChain(db, key, 1000, { checkpoint })).brokenAt).toEqual({ id: third, reason: expect.stringContaining('does not match its HMAC') });
  });

  it.each([0, 1])('a row deleted in the middle of chain %i', async (chain) => {
    const [, middle, next] = await chainIds(chain);
    await tamper(['DELETE FROM audit_log WHERE id = $1', [middle]]);
    expect((await verifyAuditChain(db, key, 1000, { checkpoint })).brokenAt).toEqual({ id: next, reason: expect.stringContaining(`prev_hash does not match the previous row of chain ${chain}`) });
  });

  it('a row moved to another chain', async () => {
    const [, , newest] = await chainIds(1);
    await tamper(['UPDATE audit_log SET chain = 0 WHERE id = $1', [newest]]);
    expect((await verifyAuditChain(db, key, 1000, { checkpoint })).brokenAt).toMatchObject({ id: newest });
  });

  it('the newest rows deleted (the checkpoint is missing)', async () => {
    const all = await ids();
    await tamper(['DELETE FROM audit_log WHERE id >= $1', [all[4]]]);
    const report = await verifyAuditChain(db, key, 1000, { checkpoint });
    // both chains lost their checkpointed entries: the older anchor is reported
    const anchors = Object.values(checkpoint.chains).map((head) => head.id);
    expect(anchors.every((id) => id >= all[4]!)).toBe(true);
    expect(report.brokenAt).toEqual({ id: Math.min(...anchors), reason: expect.stringContaining('newest entries') });
    // without the checkpoint this attack is invisible: that is what the anchor is for
    expect((await verifyAuditChain(db, key)).brokenAt).toBeUndefined();
  });

  it('the newest row of one chain deleted while the other chain goes on', async () => {
    const [chain0, chain1] = [await chainIds(0), await chainIds(1)];
    const deleted = chain1.at(-1)!;
    await tamper(['DELETE FROM audit_log WHERE id = $1', [deleted]]);
    // Later entries (on chain 0) keep the newest overall id: only chain 1's anchor shows the loss.
    await recordAudit(deps, systemAuditContext('test'), { action: 'test.entry', reason: 'after' });
    expect(chain0.at(-1)! < (await ids()).at(-1)!).toBe(true);
    const report = await verifyAuditChain(db, key, 1000, { checkpoint });
    expect(report.brokenAt).toEqual({ id: deleted, reason: expect.stringContaining('of chain 1 is missing') });
  });

  it('an inserted row, even one linked correctly to the newest', async () => {
    // A forged entry appended after the head with a valid prev_hash: only the key could sign it.
    const chain = Object.keys(checkpoint.chains).find((c) => checkpoint.chains[c]!.id === checkpoint.id)!;
    await tamper([
      `INSERT INTO audit_log (occurred_at, actor_type, action, reason, chain, prev_hash, hash) VALUES (now(), 'system', 'test.forged', 'cover-up', $1, $2, $3)`,
      [chain, checkpoint.hash, 'f'.repeat(64)],
    ]);
    const report = await verifyAuditChain(db, key, 1000, { checkpoint });
    expect(report.brokenAt).toEqual({ id: checkpoint.id + 1, reason: expect.stringContaining('does not match its HMAC') });
  });

  it('a chain recomputed after tampering (without the key)', async () => {
    // The attacker edits a row and recomputes every hash of each chain with plain SHA-256 (the old, unkeyed scheme).
    const [, second] = await ids();
    await tamper(["UPDATE audit_log SET reason = 'rewritten' WHERE id = $1", [second]]);
    const { rows } = await pool.query('SELECT * FROM audit_log ORDER BY id');
    const previous = new Map<number, string>();
    for (const row of rows) {
      const prev = previous.get(row.chain) ?? GENESIS_HASH;
      const content = JSON.stringify([prev, new Date(row.occurred_at).toISOString(), row.actor_type, row.actor_user_id, row.action, row.target_type, row.target_id, row.reason, row.before, row.after, row.ip_address, row.user_agent, row.request_id]);
      const hash = createHash('sha256').update(content).digest('hex');
      await tamper(['UPDATE audit_log SET prev_hash = $1, hash = $2 WHERE id = $3', [prev, hash, row.id]]);
      previous.set(row.chain, hash);
    }
    const report = await verifyAuditChain(db, key, 1000, { checkpoint });
    expect(report.brokenAt).toBeDefined();
    expect(report.brokenAt!.reason).toMatch(/HMAC|checkpoint/);
  });
});
