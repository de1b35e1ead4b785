import { createHash, createHmac } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadKey } from '../crypto/keys.js';
import path from 'node:path';
import { asc, desc, gt, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.js';
import { auditLog, type AuditOutcome, type AuditRow } from './audit.tables.js';

/**
 * The audit log writer. Call it inside the transaction of the change it records. Rows are
 * chained: `hash` = HMAC-SHA-256, keyed with a key that is not in the database, of the previous
 * row's hash and this row's content. A row altered, inserted or removed behind the triggers'
 * back breaks the chain, and someone with database access but without the key cannot recompute
 * it. The newest (id, hash) is anchored outside the table in a checkpoint file, so deleting the
 * newest rows shows too (`fishlog audit verify`).
 *
 * The key: FISHLOG_AUDIT_KEY, else `audit.key` in the data folder (created on first use).
 * Rows written before the chain was keyed (plain SHA-256) are accepted only as a prefix.
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
  /** `failure` records a refused or failed attempt; the default is `success`. */
  outcome?: AuditOutcome;
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

/** What a row's HMAC covers. */
export type Hashable = Omit<AuditRow, 'id' | 'hash'>;

let configuredKey: Buffer | undefined;

/** The HMAC key: the configured secret, else the data folder's key file (created once, 0600). */
export function loadAuditKey(config: { auditKey?: string | undefined; dataDir: string }): Buffer {
  return loadKey(config.auditKey, config.dataDir, 'audit.key');
}

/** Sets the key of this process (server and CLI start-up). */
export function configureAuditKey(key: Buffer): void {
  configuredKey = key;
}

function auditKey(): Buffer {
  configuredKey ??= loadAuditKey({ auditKey: process.env.FISHLOG_AUDIT_KEY, dataDir: path.resolve(process.env.FISHLOG_DATA_DIR ?? './data') });
  return configuredKey;
}

/** The hashed content. `outcome` joins it only when not `success`, so rows from before the column still verify. */
function content(row: Hashable): string {
  const outcome = row.outcome === 'success' ? [] : [row.outcome];
  return canonical([
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
    ...outcome,
  ]);
}

/** The row's link: HMAC-SHA-256 under the audit key. */
export function rowHash(row: Hashable, key: Buffer = auditKey()): string {
  return createHmac('sha256', key).update(content(row)).digest('hex');
}

/** The unkeyed hash of rows written before the chain was keyed. */
function legacyRowHash(row: Hashable): string {
  return createHash('sha256').update(content(row)).digest('hex');
}

/** How a row's hash matches its content: under the key, as a pre-key (legacy) plain hash, or not at all. */
export function hashKind(row: Hashable & { hash: string }, key: Buffer = auditKey()): 'keyed' | 'legacy' | 'mismatch' {
  if (rowHash(row, key) === row.hash) return 'keyed';
  return legacyRowHash(row) === row.hash ? 'legacy' : 'mismatch';
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
    outcome: entry.outcome ?? 'success',
    prevHash: last?.hash ?? GENESIS_HASH,
  };
  const [inserted] = await tx
    .insert(auditLog)
    .values({ ...row, hash: rowHash(row) })
    .returning();
  return inserted!;
}

export interface AuditHead {
  id: number;
  hash: string;
}

export interface VerifyReport {
  checked: number;
  /** Rows from before the chain was keyed (plain SHA-256), all at the start. */
  legacy?: number;
  head?: AuditHead;
  brokenAt?: { id: number; reason: string };
}

/**
 * Walks the chain in id order and reports the first row whose link or content does not match,
 * and, given the last checkpoint, whether that row is still there with the same hash (else the
 * newest rows were deleted, or the chain rewritten).
 */
export async function verifyAuditChain(db: Db, batchSize = 1000, options: { checkpoint?: AuditHead | undefined; key?: Buffer } = {}): Promise<VerifyReport> {
  const key = options.key ?? auditKey();
  const checkpoint = options.checkpoint;
  let previous = GENESIS_HASH;
  let lastId = 0;
  let checked = 0;
  let legacy = 0;
  let keyed = false;
  let head: AuditHead | undefined;
  const report = (extra: Partial<VerifyReport> = {}): VerifyReport => ({ checked, ...(legacy ? { legacy } : {}), ...(head ? { head } : {}), ...extra });
  for (;;) {
    const rows = await db.select().from(auditLog).where(gt(auditLog.id, lastId)).orderBy(asc(auditLog.id)).limit(batchSize);
    if (rows.length === 0) break;
    for (const row of rows) {
      if (row.prevHash !== previous) return report({ brokenAt: { id: row.id, reason: 'its prev_hash does not match the previous row (a row was removed, inserted or reordered)' } });
      if (rowHash(row, key) === row.hash) {
        keyed = true;
      } else if (!keyed && legacyRowHash(row) === row.hash) {
        legacy++;
      } else {
        return report({ brokenAt: { id: row.id, reason: 'its content does not match its HMAC (the row was altered, inserted, or the chain recomputed without the key)' } });
      }
      if (checkpoint && row.id === checkpoint.id && row.hash !== checkpoint.hash) {
        return report({ brokenAt: { id: row.id, reason: `its hash differs from the checkpoint (${checkpoint.hash.slice(0, 16)}…): the chain was rewritten` } });
      }
      previous = row.hash;
      lastId = row.id;
      head = { id: row.id, hash: row.hash };
      checked++;
    }
  }
  if (checkpoint && lastId < checkpoint.id) {
    return report({ brokenAt: { id: checkpoint.id, reason: `the checkpointed entry ${checkpoint.id} is missing: the newest entries (after ${lastId}) were deleted` } });
  }
  return report();
}

/** The checkpoint file: the newest (id, hash) seen by the last successful verify. */
export function readCheckpoint(file: string): AuditHead | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<AuditHead>;
    return typeof parsed.id === 'number' && typeof parsed.hash === 'string' ? { id: parsed.id, hash: parsed.hash } : undefined;
  } catch {
    return undefined;
  }
}

export function writeCheckpoint(file: string, head: AuditHead): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify({ ...head, at: new Date().toISOString() })}\n`, { mode: 0o600 });
}
