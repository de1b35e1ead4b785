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
