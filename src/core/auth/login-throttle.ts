import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { AuthErrors } from './auth.errors.js';
import { loginThrottle } from './auth.tables.js';

/**
 * Brute-force protection for POST /api/auth/login, shared by every process (PostgreSQL).
 * Failed logins are counted per username+IP, per username and per IP in a 15-minute window.
 * Past a limit the key is locked for a time that doubles with each further failure, capped at
 * 15 minutes, so a lock always ends. The username+IP key is the strict one: an attacker
 * elsewhere cannot lock a real user out of their own network, except by a distributed attack
 * past the per-username limit, whose lock also expires.
 */

const WINDOW_MS = 15 * 60_000;
const MAX_LOCK_MS = 15 * 60_000;

interface Rule {
  key: string;
  limit: number;
  baseLockMs: number;
}

function rules(username: string, ip: string): Rule[] {
  const user = username.trim().toLowerCase();
  return [
    { key: `user-ip:${user}|${ip}`, limit: 5, baseLockMs: 30_000 },
    { key: `user:${user}`, limit: 20, baseLockMs: 60_000 },
    { key: `ip:${ip}`, limit: 50, baseLockMs: 60_000 },
  ];
}

/** Throws 429 with Retry-After while any of the caller's keys is locked. */
export async function assertLoginAllowed(db: Db, username: string, ip: string): Promise<void> {
  const keys = rules(username, ip).map((r) => r.key);
  const rows = await db.select({ lockedUntil: loginThrottle.lockedUntil }).from(loginThrottle).where(inArray(loginThrottle.key, keys));
  const now = Date.now();
  const waitMs = Math.max(0, ...rows.map((r) => (r.lockedUntil ? r.lockedUntil.getTime() - now : 0)));
  if (waitMs > 0) throw AuthErrors.loginThrottled(Math.ceil(waitMs / 1000));
}

export async function recordLoginFailure(db: Db, username: string, ip: string): Promise<void> {
  for (const rule of rules(username, ip)) {
    await db.execute(sql`
      INSERT INTO login_throttle AS t (key, failures, window_started_at, locked_until)
      VALUES (${rule.key}, 1, now(), NULL)
      ON CONFLICT (key) DO UPDATE SET
        failures = CASE WHEN t.window_started_at < now() - make_interval(secs => ${WINDOW_MS / 1000}) AND (t.locked_until IS NULL OR t.locked_until < now())
                        THEN 1 ELSE t.failures + 1 END,
        window_started_at = CASE WHEN t.window_started_at < now() - make_interval(secs => ${WINDOW_MS / 1000}) AND (t.locked_until IS NULL OR t.locked_until < now())
                                 THEN now() ELSE t.window_started_at END`);
    await db.execute(sql`
      UPDATE login_throttle
      SET locked_until = now() + make_interval(secs => LEAST(${MAX_LOCK_MS / 1000}, ${rule.baseLockMs / 1000} * power(2, failures - ${rule.limit})))
      WHERE key = ${rule.key} AND failures >= ${rule.limit}`);
  }
}

/** A successful login clears the counters of that username (from this IP and overall). */
export async function recordLoginSuccess(db: Db, username: string, ip: string): Promise<void> {
  const [pair, user] = rules(username, ip);
  await db.delete(loginThrottle).where(inArray(loginThrottle.key, [pair!.key, user!.key]));
}

/** Housekeeping: forget counters whose window and lock are over. */
export async function pruneLoginThrottle(db: Db): Promise<number> {
  const result = await db.execute(
    sql`DELETE FROM login_throttle WHERE window_started_at < now() - make_interval(secs => ${WINDOW_MS / 1000}) AND (locked_until IS NULL OR locked_until < now())`,
  );
  return result.rowCount ?? 0;
}
