import { inArray, sql, type SQL } from 'drizzle-orm';
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
 *
 * Atomic under bursts: every attempt is counted as a failure *before* the password is checked,
 * in one INSERT … ON CONFLICT DO UPDATE … RETURNING over the three keys (row locks serialise
 * concurrent attempts). The attempt that reaches a limit also sets the lock, so of 40 parallel
 * attempts at most the limit (5) get their password evaluated; the others are 429 without a
 * hash, even the one with the right password. A success then clears the counters; an attempt
 * that failed for another reason (provider unavailable) gives its count back.
 */

const WINDOW_MS = 15 * 60_000;
const MAX_LOCK_MS = 15 * 60_000;

interface RuleKind {
  prefix: string;
  limit: number;
  baseLockMs: number;
}

const RULE_KINDS: RuleKind[] = [
  { prefix: 'user-ip:', limit: 5, baseLockMs: 30_000 },
  { prefix: 'user:', limit: 20, baseLockMs: 60_000 },
  { prefix: 'ip:', limit: 50, baseLockMs: 60_000 },
];

/** The failure limit of a key, as SQL over its column (the key's prefix says its rule). */
function ruleValue(column: SQL, pick: (kind: RuleKind) => number): SQL {
  const cases = RULE_KINDS.map((kind) => sql`WHEN ${column} LIKE ${`${kind.prefix}%`} THEN ${pick(kind)}::int`);
  return sql`(CASE ${sql.join(cases, sql` `)} END)`;
}

function keys(username: string, ip: string): string[] {
  const user = username.trim().toLowerCase();
  return [`user-ip:${user}|${ip}`, `user:${user}`, `ip:${ip}`];
}

const LOCKED = Symbol('locked');

/**
 * Counts this attempt against every key of the caller, or throws 429 with Retry-After when
 * any of them is locked (then nothing is counted).
 */
export async function reserveLoginAttempt(db: Db, username: string, ip: string): Promise<void> {
  const all = keys(username, ip);
  const t = sql.raw('t');
  const limit = ruleValue(sql`t.key`, (k) => k.limit);
  const base = ruleValue(sql`t.key`, (k) => k.baseLockMs / 1000);
  const expired = sql`${t}.window_started_at < now() - make_interval(secs => ${WINDOW_MS / 1000})`;
  const next = sql`(CASE WHEN ${expired} THEN 1 ELSE ${t}.failures + 1 END)`;
  const insertLimit = ruleValue(sql`v.key`, (k) => k.limit);
  const insertBase = ruleValue(sql`v.key`, (k) => k.baseLockMs / 1000);
  try {
    await db.transaction(async (tx) => {
      const result = await tx.execute(sql`
        INSERT INTO login_throttle AS t (key, failures, window_started_at, locked_until)
        SELECT v.key, 1, now(), CASE WHEN 1 >= ${insertLimit} THEN now() + make_interval(secs => ${insertBase}) ELSE NULL END
        FROM (VALUES ${sql.join(
          all.map((key) => sql`(${key}::text)`),
          sql`, `,
        )}) AS v(key)
        ON CONFLICT (key) DO UPDATE SET
          failures = ${next},
          window_started_at = CASE WHEN ${expired} THEN now() ELSE t.window_started_at END,
          locked_until = CASE WHEN ${next} >= ${limit}
            THEN now() + make_interval(secs => LEAST(${MAX_LOCK_MS / 1000}, ${base} * power(2, ${next} - ${limit})))
            ELSE NULL END
        WHERE t.locked_until IS NULL OR t.locked_until <= now()
        RETURNING t.key`);
      if ((result.rowCount ?? result.rows.length) < all.length) throw LOCKED; // rolls the counts back
    });
  } catch (error) {
    if (error !== LOCKED) throw error;
    const rows = await db.select({ lockedUntil: loginThrottle.lockedUntil }).from(loginThrottle).where(inArray(loginThrottle.key, all));
    const waitMs = Math.max(1000, ...rows.map((r) => (r.lockedUntil ? r.lockedUntil.getTime() - Date.now() : 0)));
    throw AuthErrors.loginThrottled(Math.ceil(waitMs / 1000));
  }
}

/** Gives a reserved attempt back on some keys (lifting a lock it set when below the limit again). */
async function giveBack(db: Db, which: string[]): Promise<void> {
  const limit = ruleValue(sql`key`, (k) => k.limit);
  await db.execute(sql`
    UPDATE login_throttle
    SET failures = GREATEST(failures - 1, 0),
        locked_until = CASE WHEN failures - 1 >= ${limit} THEN locked_until ELSE NULL END
    WHERE key IN (${sql.join(
      which.map((k) => sql`${k}`),
      sql`, `,
    )})`);
}

/** A successful login clears the counters of that username (from this IP and overall). */
export async function recordLoginSuccess(db: Db, username: string, ip: string): Promise<void> {
  const [pair, user, address] = keys(username, ip);
  await db.delete(loginThrottle).where(inArray(loginThrottle.key, [pair!, user!]));
  await giveBack(db, [address!]);
}

/** The attempt failed for a reason other than the credentials (e.g. the provider is down). */
export async function releaseLoginAttempt(db: Db, username: string, ip: string): Promise<void> {
  await giveBack(db, keys(username, ip));
}

/** Housekeeping: forget counters whose window and lock are over. */
export async function pruneLoginThrottle(db: Db): Promise<number> {
  const result = await db.execute(
    sql`DELETE FROM login_throttle WHERE window_started_at < now() - make_interval(secs => ${WINDOW_MS / 1000}) AND (locked_until IS NULL OR locked_until < now())`,
  );
  return result.rowCount ?? 0;
}
