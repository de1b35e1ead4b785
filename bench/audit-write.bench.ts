/**
 * Audited writes in parallel: 16 writers, each running transactions that record one audit entry
 * (`recordAudit`, as every administrative change does) and commit, as fast as they go. Measured
 * with the audit chains (each writer takes the lowest chain no open transaction holds) against a
 * reference in the same run: the same transactions taking one global lock first, which is how
 * every audited write was serialised before the chains (one chain, one lock held until commit).
 * The two alternate in 1 s windows (a, b, b, a, …; see `alternate` in lib.ts for why), and the
 * whole chain is verified afterwards.
 *
 *   npm run bench -- audit-write
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { recordAudit, setAuditKey, verifyAuditChain } from '../src/core/audit/audit.js';
import { systemAuditContext } from '../src/core/audit/context.js';
import { createDb } from '../src/core/db/client.js';
import { Registries } from '../src/core/registries.js';
import { inTx, type ServiceDeps } from '../src/core/service-deps.js';
import { atLeast, benchDatabase, log, SECONDS, type BenchResult } from './lib.js';

const WRITERS = 16;
const WINDOW_MS = 1000;
const ONE_LOCK = 7_146_250_004;

type Mode = 'chains' | 'oneLock';

async function auditedWrite(deps: ServiceDeps, mode: Mode, n: number): Promise<void> {
  await deps.db.transaction(async (tx) => {
    if (mode === 'oneLock') await tx.execute(sql`SELECT pg_advisory_xact_lock(${ONE_LOCK})`);
    await recordAudit(inTx(deps, tx), systemAuditContext('bench'), { action: 'bench.changed', targetType: 'bench', targetId: String(n), reason: 'bench write', after: { n } });
  });
}

/** Every writer loops for one window; returns the transactions committed in it. */
async function window(deps: ServiceDeps, mode: Mode): Promise<number> {
  const until = Date.now() + WINDOW_MS;
  let done = 0;
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (Date.now() < until) await auditedWrite(deps, mode, done++);
    }),
  );
  return done;
}

export default async function auditWrite(): Promise<BenchResult> {
  // A database of this process's own: the log is verified whole at the end, and the rows of an
  // earlier run (same BENCH_RUN_ID, kept) were signed with that run's own key.
  const url = await benchDatabase(`audit_write_${process.pid}`, async () => undefined);
  const pool = new pg.Pool({ connectionString: url, max: WRITERS });
  const db = createDb(pool);
  // This run's own key (the log is verified whole at the end).
  const key = randomBytes(32);
  const registries = new Registries();
  setAuditKey(registries, key);
  const deps: ServiceDeps = { db, registries };
  try {
    const counts: Record<Mode, number> = { chains: 0, oneLock: 0 };
    for (const mode of ['chains', 'oneLock'] as const) await window(deps, mode); // warm-up
    const order: Mode[] = [];
    for (let i = 0; i < SECONDS; i++) order.push(...((i % 2 === 0 ? ['chains', 'oneLock'] : ['oneLock', 'chains']) as Mode[]));
    for (const mode of order) counts[mode] += await window(deps, mode);
    const perSecond = { chains: counts.chains / SECONDS, oneLock: counts.oneLock / SECONDS };
    const chains = (await pool.query<{ chain: number; n: string }>('SELECT chain, count(*) AS n FROM audit_log GROUP BY chain ORDER BY chain')).rows;
    const verified = await verifyAuditChain(db, key);
    if (verified.brokenAt) throw new Error(`the chain broke at ${verified.brokenAt.id}: ${verified.brokenAt.reason}`);
    log(`audited writes/s: chains ${perSecond.chains.toFixed(0)}, one lock ${perSecond.oneLock.toFixed(0)}; ${verified.checked} entries verified`);
    return {
      name: 'audit-write',
      figures: [atLeast('audited writes/s, 16 writers: chains ÷ one global lock', perSecond.chains / perSecond.oneLock, 1.5)],
      details: {
        writers: WRITERS,
        perSecond,
        // Both modes' entries: the one-lock transactions always find chain 0 free.
        entriesPerChain: Object.fromEntries(chains.map((c) => [c.chain, Number(c.n)])),
        verified: verified.checked,
      },
    };
  } finally {
    await pool.end();
  }
}
