import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { AUDIT_CHAINS, chainHeadQuery } from './audit.js';

/**
 * Every audited write reads the head of its chain: on a large log (40,000 entries over the 16
 * chains) that must stay one backward step of the (chain, id) index, never a scan of the log.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  // The owner's connection: ANALYZE needs the table's owner. Hashes need not chain here: only the plan is looked at.
  const db = t.database.owner.pool;
  await db.query(`
    INSERT INTO audit_log (occurred_at, actor_type, action, reason, chain, prev_hash, hash)
    SELECT now(), 'system', 'test.bulk', 'bulk ' || g, (g % ${AUDIT_CHAINS}) * (g % 3 / 2), md5(g::text) || md5(g::text), md5((g + 1)::text) || md5((g + 1)::text)
    FROM generate_series(1, 40000) g`);
  await db.query('ANALYZE audit_log');
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('the head of an audit chain', () => {
  // Chain 0 holds most rows (as when writers seldom overlap): walking the primary key back from the newest row finds its head at once, which the planner may prefer.
  it.each([
    [0, ['audit_log_chain_idx', 'audit_log_pkey']],
    [1, ['audit_log_chain_idx']],
    [AUDIT_CHAINS - 1, ['audit_log_chain_idx']],
  ])('of chain %i is read through an index, backwards, without a sort or a sequential scan', async (chain, indexes) => {
    const { sql, params } = chainHeadQuery(t.database.db, chain).toSQL();
    const { rows } = await t.database.pool.query(`EXPLAIN (FORMAT JSON) ${sql}`, params);
    const text = JSON.stringify(rows[0]['QUERY PLAN']);
    expect(indexes).toContain(/"Index Name":"(\w+)"/.exec(text)?.[1]);
    expect(text).toContain('"Scan Direction":"Backward"');
    expect(text).not.toContain('Seq Scan');
    expect(text).not.toContain('"Node Type":"Sort"');
  });
});
