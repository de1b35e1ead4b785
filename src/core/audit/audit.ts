import { createHash, createHmac } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadKey } from '../crypto/keys.js';
import path from 'node:path';
import { asc, desc, eq, gt, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.js';
import { registryKey, type Registries } from '../registries.js';
import type { ServiceDeps } from '../service-deps.js';
import { auditLog, type AuditOutcome, type AuditRow } from './audit.tables.js';

/**
 * The audit log writer. Call it inside the transaction of the change it records. Rows are
 * chained: `hash` = HMAC-SHA-256, keyed with a key that is not in the database, of the previous
 * row's hash and this row's content. A row altered, inserted or removed behind the triggers'
 * back breaks the chain, and someone with database access but without the key cannot recompute
 * it. The newest (id, hash) of each chain is anchored outside the table in a checkpoint file, so
 * deleting the newest rows shows too (`fishlog audit verify`).
 *
 * There are AUDIT_CHAINS chains, each with its own transaction lock: a writer takes the lowest
 * chain no other open transaction holds, so parallel audited writes do not wait for each other's
 * commit (with no contention every row goes to chain 0). Within a chain, rows are ordered by id.
 *
 * The key: FISHLOG_AUDIT_KEY, else `audit.key` in the data folder (created on first use).
 * Rows written before the chain was keyed (plain SHA-256) are accepted only as a prefix.
 */

export const GENESIS_HASH = '0'.repeat(64);
/** How many chains writers spread over; rows from before chains existed are chain 0. */
export const AUDIT_CHAINS = 16;
/** The advisory-lock class of the chains: lock (AUDIT_LOCK_CLASS, chain) is the chain's. */
const AUDIT_LOCK_CLASS = 714_625_004;

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

/** The app's audit key (set by src/app.ts, or the CLI, from the configuration). */
const AUDIT_KEY = registryKey<{ key?: Buffer }>('audit.key', () => ({}));

/** The HMAC key: the configured secret, else the data folder's key file (created once, 0600). */
export function loadAuditKey(config: { auditKey?: string | undefined; dataDir: string }): Buffer {
  return loadKey(config.auditKey, config.dataDir, 'audit.key');
}

/** Sets the audit key of an app (its start-up) or of a CLI command: each app keeps its own. */
export function setAuditKey(registries: Registries, key: Buffer): void {
  registries.of(AUDIT_KEY).key = key;
}

/** The audit key of the app whose registries these are. */
export function auditKeyOf(registries: Registries): Buffer {
  const { key } = registries.of(AUDIT_KEY);
  if (!key) throw new Error('no audit key was set for this app (setAuditKey at start-up)');
  return key;
}

/**
 * The hashed content. `outcome` joins it only when not `success`, and `chain` only when not 0, so
 * rows from before those columns still verify.
 */
function content(row: Hashable): string {
  const outcome = row.outcome === 'success' ? [] : [row.outcome];
  const chain = row.chain === 0 ? [] : [`chain:${row.chain}`];
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
    ...chain,
  ]);
}

/**
 * HMAC-SHA-256 under the audit key of something other than a row (an export's seal), in its own
 * domain: it can never equal a row's hash.
 */
export function auditSignature(domain: string, value: unknown, key: Buffer): string {
  return createHmac('sha256', key).update(`fishlog:${domain}\n${canonical(value)}`).digest('hex');
}

/** The row's link: HMAC-SHA-256 under the audit key. */
export function rowHash(row: Hashable, key: Buffer): string {
  return createHmac('sha256', key).update(content(row)).digest('hex');
}

/** The unkeyed hash of rows written before the chain was keyed. */
function legacyRowHash(row: Hashable): string {
  return createHash('sha256').update(content(row)).digest('hex');
}

/** How a row's hash matches its content: under the key, as a pre-key (legacy) plain hash, or not at all. */
export function hashKind(row: Hashable & { hash: string }, key: Buffer): 'keyed' | 'legacy' | 'mismatch' {
  if (rowHash(row, key) === row.hash) return 'keyed';
  return legacyRowHash(row) === row.hash ? 'legacy' : 'mismatch';
}

/**
 * Takes the lowest chain whose lock no other transaction holds (or waits for chain 0 when all are
 * taken), for the rest of the transaction. A lock this transaction already holds counts as free.
 */
const TAKE_CHAIN = sql.raw(`
  SELECT coalesce(
    (SELECT c FROM generate_series(0, ${AUDIT_CHAINS - 1}) c WHERE pg_try_advisory_xact_lock(${AUDIT_LOCK_CLASS}, c) LIMIT 1),
    (SELECT 0 FROM pg_advisory_xact_lock(${AUDIT_LOCK_CLASS}, 0))
  ) AS chain`);

const SETTLE = sql.raw(`SELECT pg_advisory_xact_lock(${AUDIT_LOCK_CLASS}, c) FROM generate_series(0, ${AUDIT_CHAINS - 1}) c`);

/**
 * Waits until no transaction is writing an audit row (a writer holds its chain's lock until it
 * commits) and keeps every chain until the caller's transaction ends: from its next statement on,
 * every id below the log's next one belongs to a committed row or to none (rolled back). Readers
 * that need a consistent end of the log (the export) take it for a moment; writers wait that long.
 */
export async function settleAuditWriters(tx: DbOrTx): Promise<void> {
  await tx.execute(SETTLE);
}

/** The newest row of a chain (index `audit_log_chain_idx`, read backwards: one index entry). */
export function chainHeadQuery(db: DbOrTx, chain: number) {
  return db.select({ hash: auditLog.hash }).from(auditLog).where(eq(auditLog.chain, chain)).orderBy(desc(auditLog.id)).limit(1);
}

export async function recordAudit(deps: ServiceDeps<DbOrTx>, context: AuditContext, entry: AuditEntry): Promise<AuditRow> {
  const { db: tx } = deps;
  const key = auditKeyOf(deps.registries);
  // Serialise the writers of one chain so that each row links to the one before it. The head is
  // read by the next statement, whose snapshot sees the commit of the lock's previous holder.
  const taken = await tx.execute<{ chain: number }>(TAKE_CHAIN);
  const chain = Number(taken.rows[0]!.chain);
  const [last] = await chainHeadQuery(tx, chain);
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
    chain,
    prevHash: last?.hash ?? GENESIS_HASH,
  };
  const [inserted] = await tx
    .insert(auditLog)
    .values({ ...row, hash: rowHash(row, key) })
    .returning();
  return inserted!;
}

export interface AuditHead {
  id: number;
  hash: string;
}

/** The newest row of each chain, keyed by the chain's number. */
export type AuditHeads = Record<string, AuditHead>;

/** What a checkpoint anchors: the newest row overall (printed) and the newest row of each chain. */
export interface AuditCheckpoint extends AuditHead {
  chains: AuditHeads;
}

export interface VerifyReport {
  checked: number;
  /** Rows from before the chain was keyed (plain SHA-256), all at the start. */
  legacy?: number;
  /** The newest row. */
  head?: AuditHead;
  /** The newest row of each chain (the next checkpoint). */
  heads?: AuditHeads;
  brokenAt?: { id: number; reason: string };
}

/**
 * Walks the rows in id order, each chain's links separately, and reports the first row whose link
 * or content does not match, and, given the last checkpoint, whether each chain's checkpointed
 * row is still there with the same hash (else the newest rows of that chain were deleted, or the
 * chain rewritten).
 */
export async function verifyAuditChain(db: Db, key: Buffer, batchSize = 1000, options: { checkpoint?: AuditCheckpoint | undefined } = {}): Promise<VerifyReport> {
  const anchors = options.checkpoint?.chains ?? {};
  const heads: AuditHeads = {};
  let lastId = 0;
  let checked = 0;
  let legacy = 0;
  let keyed = false;
  let head: AuditHead | undefined;
  const report = (extra: Partial<VerifyReport> = {}): VerifyReport => ({ checked, ...(legacy ? { legacy } : {}), ...(head ? { head, heads } : {}), ...extra });
  for (;;) {
    const rows = await db.select().from(auditLog).where(gt(auditLog.id, lastId)).orderBy(asc(auditLog.id)).limit(batchSize);
    if (rows.length === 0) break;
    for (const row of rows) {
      if (row.prevHash !== (heads[row.chain]?.hash ?? GENESIS_HASH)) {
        return report({ brokenAt: { id: row.id, reason: `its prev_hash does not match the previous row of chain ${row.chain} (a row was removed, inserted or reordered)` } });
      }
      if (rowHash(row, key) === row.hash) {
        keyed = true;
      } else if (!keyed && legacyRowHash(row) === row.hash) {
        legacy++;
      } else {
        return report({ brokenAt: { id: row.id, reason: 'its content does not match its HMAC (the row was altered, inserted, or the chain recomputed without the key)' } });
      }
      const anchor = anchors[row.chain];
      if (anchor && row.id === anchor.id && row.hash !== anchor.hash) {
        return report({ brokenAt: { id: row.id, reason: `its hash differs from the checkpoint (${anchor.hash.slice(0, 16)}…): the chain was rewritten` } });
      }
      lastId = row.id;
      head = { id: row.id, hash: row.hash };
      heads[row.chain] = head;
      checked++;
    }
  }
  const lost = Object.entries(anchors)
    .filter(([chain, anchor]) => (heads[chain]?.id ?? 0) < anchor.id)
    .sort(([, a], [, b]) => a.id - b.id)[0];
  if (lost) {
    const [chain, anchor] = lost;
    const kept = heads[chain]?.id;
    return report({ brokenAt: { id: anchor.id, reason: `the checkpointed entry ${anchor.id} of chain ${chain} is missing: the newest entries of that chain (after ${kept ?? 'its start'}) were deleted` } });
  }
  return report();
}

/**
 * The checkpoint file: the newest row and the newest row of each chain seen by the last successful
 * verify. A file from before chains existed anchors chain 0 (every row was in it).
 */
export function readCheckpoint(file: string): AuditCheckpoint | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<AuditCheckpoint>;
    if (typeof parsed.id !== 'number' || typeof parsed.hash !== 'string') return undefined;
    const chains: AuditHeads = {};
    for (const [chain, anchor] of Object.entries(parsed.chains ?? { 0: { id: parsed.id, hash: parsed.hash } })) {
      if (typeof anchor?.id === 'number' && typeof anchor.hash === 'string') chains[chain] = { id: anchor.id, hash: anchor.hash };
    }
    return { id: parsed.id, hash: parsed.hash, chains };
  } catch {
    return undefined;
  }
}

export function writeCheckpoint(file: string, checkpoint: AuditCheckpoint): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify({ ...checkpoint, at: new Date().toISOString() })}\n`, { mode: 0o600 });
}
