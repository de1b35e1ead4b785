import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import pLimit, { type LimitFunction } from 'p-limit';
import { AppError } from '../../../http/problem.js';

/**
 * Password hashing with scrypt at OWASP's parameters (N=2^17, r=8, p=1), stored as
 * `scrypt$<log2N>$<r>$<p>$<salt>$<hash>` so older hashes keep verifying when the cost changes.
 */

const KEY_LENGTH = 32;

/**
 * One scrypt at N=2^17 holds 128 MiB while it runs: hashing is a queue with a bounded number of
 * hashes at once (FISHLOG_HASH_CONCURRENCY, default 1) and of waiters (FISHLOG_HASH_QUEUE,
 * default 16). A sign-in beyond that gets a 503 with Retry-After instead of more memory; setting a
 * password (an operator's or the user's own, far rarer) waits its turn in the same queue.
 */
export const HASHING = { concurrency: 1, queue: 16, retryAfterSeconds: 2 };
let limit: LimitFunction = pLimit(HASHING.concurrency);

export function configureHashing(options: { concurrency: number; queue: number }): void {
  if (options.concurrency !== HASHING.concurrency) limit = pLimit(options.concurrency);
  HASHING.concurrency = options.concurrency;
  HASHING.queue = options.queue;
}

export const hashingBusy = () =>
  new AppError(503, 'auth.busy', `Too many sign-ins are being checked at this moment; try again in ${HASHING.retryAfterSeconds} s.`, {
    headers: { 'retry-after': String(HASHING.retryAfterSeconds) },
  });

function derive(password: string, salt: Buffer, options: ScryptOptions, refuseWhenBusy: boolean): Promise<Buffer> {
  if (refuseWhenBusy && limit.activeCount >= HASHING.concurrency && limit.pendingCount >= HASHING.queue) return Promise.reject(hashingBusy());
  return limit(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)));
      }),
  );
}

function options(log2N: number, r: number, p: number): ScryptOptions {
  const N = 2 ** log2N;
  return { N, r, p, maxmem: 128 * N * r * p + 16 * 1024 * 1024 };
}

export async function hashPassword(password: string, log2N: number): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, options(log2N, 8, 1), false);
  return ['scrypt', log2N, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), options(Number(n), Number(r), Number(p)), true);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** Spends the same time as a real verification, so unknown users are not told apart by timing. */
export async function burnPasswordCheck(log2N: number): Promise<void> {
  await derive('no-such-user', randomBytes(16), options(log2N, 8, 1), true);
}

export const PASSWORD_RULES = 'at least 8 characters, at most 256';

export function passwordProblem(password: string): string | undefined {
  if (password.length < 8) return 'the password must have at least 8 characters';
  if (password.length > 256) return 'the password must have at most 256 characters';
  return undefined;
}

/** A random password for reset-password: 20 characters from an unambiguous alphabet. */
export function randomPassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  const bytes = randomBytes(20);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}
