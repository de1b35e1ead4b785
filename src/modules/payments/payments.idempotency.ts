import { createHash } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '../../core/db/client.js';
import { AppError } from '../../core/http/problem.js';
import { PaymentErrors } from './payments.errors.js';
import { idempotencyKeys } from './payments.tables.js';

/**
 * Idempotency keys (the `Idempotency-Key` header of create/refund requests, or the key a module
 * passes to the payments service). The first request with a key runs; its outcome — a result or
 * a client error — is stored for at least `IDEMPOTENCY_TTL_MS`. A retry with the same key and an
 * equal body gets that outcome again; with another body a 422; while the first still runs a 409.
 * A server error (5xx) is not stored: the key can be retried.
 */

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** JSON with sorted keys: equal bodies hash equally whatever the order of their properties. */
function canonical(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (typeof value === 'object') {
    return `{${Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

export function requestHash(body: unknown): string {
  return createHash('sha256').update(canonical(body)).digest('hex');
}

interface StoredError {
  error: { status: number; code: string; detail: string };
}

export interface IdempotentOptions {
  /** The operation and the caller, e.g. `payments.refund:<userId>`: keys are per scope. */
  scope: string;
  key: string | undefined;
  /** What identifies the request (its body and target). */
  request: unknown;
  now?: () => Date;
}

/** Runs `run` once per (scope, key); later calls with the key get the first outcome. */
export async function idempotent<T>(db: Db, options: IdempotentOptions, run: () => Promise<T>): Promise<T> {
  const { scope, key } = options;
  if (key === undefined || key === '') throw PaymentErrors.keyRequired();
  if (!KEY_PATTERN.test(key)) {
    throw new AppError(400, 'idempotency.key_invalid', 'The Idempotency-Key must be 1-255 printable ASCII characters without spaces (a UUID is a good choice).');
  }
  const now = (options.now ?? (() => new Date()))();
  const hash = requestHash(options.request);
  // An expired key is forgotten; then the first of concurrent requests inserts and runs.
  await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key), lt(idempotencyKeys.expiresAt, now)));
  const inserted = await db
    .insert(idempotencyKeys)
    .values({ scope, key, requestHash: hash, createdAt: now, expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS) })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (inserted.length === 0) {
    const [existing] = await db.select().from(idempotencyKeys).where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
    if (!existing) throw PaymentErrors.keyInProgress();
    if (existing.requestHash !== hash) throw PaymentErrors.keyReused();
    if (existing.responseStatus === null) throw PaymentErrors.keyInProgress();
    const stored = existing.responseBody as T | StoredError;
    if (existing.responseStatus >= 400) {
      const { error } = stored as StoredError;
      throw new AppError(error.status, error.code, error.detail);
    }
    return stored as T;
  }
  const save = (status: number, body: unknown) =>
    db
      .update(idempotencyKeys)
      .set({ responseStatus: status, responseBody: body })
      .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
  try {
    const result = await run();
    await save(200, result);
    return result;
  } catch (error) {
    if (error instanceof AppError && error.status < 500) {
      await save(error.status, { error: { status: error.status, code: error.code, detail: error.detail } } satisfies StoredError);
    } else {
      await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
    }
    throw error;
  }
}

/** Forgets keys past their expiry (run by the payments job). */
export async function purgeExpiredIdempotencyKeys(db: Db, now: Date = new Date()): Promise<number> {
  const rows = await db.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, now)).returning({ key: idempotencyKeys.key });
  return rows.length;
}

/** The Idempotency-Key header schema of create/refund routes. */
export const idempotencyKeyDescription =
  'A unique key per logical request (e.g. a UUID), kept 24 hours: a retry with the same key and body returns the first result; the same key with another body is a 422.';

