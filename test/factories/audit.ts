import { recordAudit, type AuditEntry } from '../../src/core/audit/audit.js';
import type { AuditRow } from '../../src/core/audit/audit.tables.js';
import { systemAuditContext } from '../../src/core/audit/context.js';
import { inTx, type ServiceDeps } from '../../src/core/service-deps.js';
import type { TestApp } from '../harness.js';

/** The audit log as tests read it. */

export async function auditCount(t: TestApp): Promise<number> {
  return (await t.database.pool.query('SELECT count(*)::int AS n FROM audit_log')).rows[0].n as number;
}

export async function lastAudit(t: TestApp): Promise<Record<string, unknown>> {
  return (await t.database.pool.query('SELECT * FROM audit_log ORDER BY id DESC LIMIT 1')).rows[0];
}

export async function auditEntries(t: TestApp, action: string): Promise<Array<Record<string, unknown>>> {
  return (await t.database.pool.query('SELECT * FROM audit_log WHERE action = $1 ORDER BY id', [action])).rows;
}

/**
 * Records one entry per item, each in its own transaction, all open at once until every one has
 * written: each takes a chain of its own (the first chain 0, the next 1, …). Returns the rows.
 */
export async function recordOverlappingAudits(deps: ServiceDeps, entries: AuditEntry[]): Promise<AuditRow[]> {
  let written = 0;
  let allWritten!: () => void;
  const gate = new Promise<void>((resolve) => (allWritten = resolve));
  return Promise.all(
    entries.map((entry) =>
      deps.db.transaction(async (tx) => {
        const row = await recordAudit(inTx(deps, tx), systemAuditContext('test'), entry);
        if (++written === entries.length) allWritten();
        await gate;
        return row;
      }),
    ),
  );
}
