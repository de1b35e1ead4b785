import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import pLimit, { type LimitFunction } from 'p-limit';
import { AppError } from '../../../http/problem.js';

/**
 * Password hashing with scrypt at OWASP's parameters, stored as
 * `scrypt$<log2N>$<r>$<p>$<salt>$<hash>` so older hashes keep verifying when the cost changes;
 * a hash made with other parameters than the configured ones is replaced at the next sign-in
 * (`needsRehash`).
 *
 * OWASP's Password Storage Cheat Sheet lists scrypt settings of equal strength that trade memory
 * for parallelism: N=2^17 r=8 p=1 (128 MiB), 2^16/8/2 (64 MiB), 2^15/8/3 (32 MiB), 2^14/8/5
 * (16 MiB), 2^13/8/10 (8 MiB). FISHLOG_SCRYPT_COST picks log2 N (default 13) and p follows that
 * table (p=1 outside it, e.g. the tests' cheap cost 10): 8 MiB per hash instead of 128 MiB, for the
 * same CPU time, so a burst of sign-ins does not take the process's memory (each libuv thread's
 * malloc arena keeps the largest buffer it held, so the buffer size counts four times over).
 */

const KEY_LENGTH = 32;
const R = 8;
const OWASP_PARALLELISM: Record<number, number> = { 17: 1, 16: 2, 15: 3, 14: 5, 13: 10 };

/** scrypt's p for a log2 N (OWASP's table above). */
export function parallelismFor(log2N: number): number {
  return OWASP_PARALLELISM[log2N] ?? 1;
}

/**
 * Hashing is a queue with a bounded number of hashes at once (FISHLOG_HASH_CONCURRENCY,
 * default 2: 16 MiB at the default cost) and of waiters (FISHLOG_HASH_QUEUE, default 16). A
 * sign-in beyond that gets a 503 with Retry-After instead of more memory; setting a password (an
 * operator's or the user's own, far rarer) waits its turn in the same queue. Each local identity
 * provider has its own (from its configuration); commands and tools outside an app use
 * `defaultHashing`.
 */
export class PasswordHashing {
  static readonly retryAfterSeconds = 2;
  readonly #limit: LimitFunction;

  constructor(readonly options: { concurrency: number; queue: number } = { concurrency: 2, queue: 16 }) {
    this.#limit = pLimit(options.concurrency);
  }

  /** A new hash of `password` at cost `log2N` (waits its turn, never refused). */
  async hash(password: string, log2N: number): Promise<string> {
    const salt = randomBytes(16);
    const p = parallelismFor(log2N);
    const key = await this.#derive(password, salt, scryptOptions(log2N, R, p), false);
    return ['scrypt', log2N, R, p, salt.toString('base64url'), key.toString('base64url')].join('$');
  }

  /** Whether `password` matches the stored hash; 503 `auth.busy` when the queue is full. */
  async verify(password: string, stored: string): Promise<boolean> {
    const [scheme, n, r, p, salt, hash] = stored.split('$');
    if (scheme !== 'scrypt' || !salt || !hash) return false;
    const expected = Buffer.from(hash, 'base64url');
    const key = await this.#derive(password, Buffer.from(salt, 'base64url'), scryptOptions(Number(n), Number(r), Number(p)), true);
    return key.length === expected.length && timingSafeEqual(key, expected);
  }

  /** Spends the same time as a real verification, so unknown users are not told apart by timing. */
  async burn(log2N: number): Promise<void> {
    await this.#derive('no-such-user', randomBytes(16), scryptOptions(log2N, R, parallelismFor(log2N)), true);
  }

  #derive(password: string, salt: Buffer, options: ScryptOptions, refuseWhenBusy: boolean): Promise<Buffer> {
    const limit = this.#limit;
    if (refuseWhenBusy && limit.activeCount >= this.options.concurrency && limit.pendingCount >= this.options.queue) return Promise.reject(hashingBusy());
    return limit(
      () =>
        new Promise<Buffer>((resolve, reject) => {
          scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)));
        }),
    );
  }
}

/** The hashing of commands and tools that run outside an app (the CLI's `idp` commands, test and bench set-up). */
export const defaultHashing = new PasswordHashing();

export const hashingBusy = () =>
  new AppError(503, 'auth.busy', `Too many sign-ins are being checked at this moment; try again in ${PasswordHashing.retryAfterSeconds} s.`, {
    headers: { 'retry-after': String(PasswordHashing.retryAfterSeconds) },
  });

function scryptOptions(log2N: number, r: number, p: number): ScryptOptions {
  const N = 2 ** log2N;
  return { N, r, p, maxmem: 128 * N * r * p + 16 * 1024 * 1024 };
}

/** A new hash with `defaultHashing` (outside an app). */
export function hashPassword(password: string, log2N: number): Promise<string> {
  return defaultHashing.hash(password, log2N);
}

/** Whether a stored hash was made with other parameters than those of `log2N` (then: hash again). */
export function needsRehash(stored: string, log2N: number): boolean {
  const [scheme, n, r, p] = stored.split('$');
  return scheme !== 'scrypt' || Number(n) !== log2N || Number(r) !== R || Number(p) !== parallelismFor(log2N);
}

/** Whether `password` matches the stored hash, with `defaultHashing` (outside an app). */
export function verifyPassword(password: string, stored: string): Promise<boolean> {
  return defaultHashing.verify(password, stored);
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
