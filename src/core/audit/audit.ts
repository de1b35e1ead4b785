import { createHash } from 'node:crypto';
import { asc, desc, gt, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.js';
import { auditLog, type AuditRow } from './audit.tables.js';

/**
 * The audit log writer. Call it inside the transaction of the change it records. Rows are
 * chained: `hash` = SHA-256 of the previous row's hash and this row's content, so a row altered
 * behind the triggers' back breaks the chain (`fishlog audit verify`).
 */

export const GENESIS_HASH = '0'.repeat(64);
const AUDIT_LOCK_KEY = 7_146_250_004;

export interface AuditActor {
  type: 'user' | 'system';
  userId?: string | null;
}

/** Who did it from where: taken from the request (or the CLI for system actions). */
export interface AuditContext {
  actor: AuditActor;
  ipAddress?: string | null;
  userAgent?: string | null;
  requestId?: string | null;
}

export interface AuditEntry {
  action: string;
  targetType?: string | null;
  targetId?: string | null;
  reason?: string | null;
  before?: unknown;
  after?: unknown;
}

const SECRET_KEY = /pass(word)?|secret|token|private.?key|api.?key|hash|credential/i;

/** Removes secrets from before/after snapshots. */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value instanceof Date) return value.toISOString();
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, SECRET_KEY.test(k) ? '[redacted]' : redactSecrets(v)]),
    );
  }
  return value;
}

/** JSON with sorted keys, so the hash does not depend on how jsonb orders them. */
function canonical(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

type Hashable = Omit<AuditRow, 'id' | 'hash'>;

export function rowHash(row: Hashable): string {
  const content = canonical([
    row.prevHash,
    row.occurredAt.toISOString(),
    row.actorType,
    row.actorUserId,
    row.action,
    row.targetType,
    row.targetId,
    row.reason,
    row.before,
    row.after,
    row.ipAddress,
    row.userAgent,
    row.requestId,
  ]);
  return createHash('sha256').update(content).digest('hex');
}

export async function recordAudit(tx: DbOrTx, context: AuditContext, entry: AuditEntry): Promise<AuditRow> {
  // Serialise writers so that each row links to the one before it.
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${AUDIT_LOCK_KEY})`);
  const [last] = await tx.select({ hash: auditLog.hash }).from(auditLog).orderBy(desc(auditLog.id)).limit(1);
  const row: Hashable = {
    occurredAt: new Date(),
    actorType: context.actor.type,
    actorUserId: context.actor.userId ?? null,
    action: entry.action,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId ?? null,
    reason: entry.reason ?? null,
    before: entry.before === undefined ? null : redactSecrets(entry.before),
    after: entry.after === undefined ? null : redactSecrets(entry.after),
    ipAddress: context.ipAddress ?? null,
    userAgent: context.userAgent ?? null,
    requestId: context.requestId ?? null,
    prevHash: last?.hash ?? GENESIS_HASH,
  };
  const [inserted] = await tx
    .insert(auditLog)
    .values({ ...row, hash: rowHash(row) })
    .returning();
  return inserted!;
}

export interface VerifyReport {
  checked: number;
  brokenAt?: { id: number; reason: string };
}

/** Walks the chain in id order and reports the first row whose link or content does not match. */
export async function verifyAuditChain(db: Db, batchSize = 1000): Promise<VerifyReport> {
  let previous = GENESIS_HASH;
  let lastId = 0;
  let checked = 0;
  for (;;) {
    const rows = await db.select().from(auditLog).where(gt(auditLog.id, lastId)).orderBy(asc(auditLog.id)).limit(batchSize);
    if (rows.length === 0) return { checked };
    for (const row of rows) {
      if (row.prevHash !== previous) return { checked, brokenAt: { id: row.id, reason: 'its prev_hash does not match the previous row (a row was removed or reordered)' } };
      if (rowHash(row) !== row.hash) return { checked, brokenAt: { id: row.id, reason: 'its content does not match its hash (the row was altered)' } };
      previous = row.hash;
      lastId = row.id;
      checked++;
    }
  }
}
