import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { AppError } from './problem.js';
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';

/**
 * Request rate limits, counted for every request, whatever its answer (401, 404 and 429
 * included: token guessing and id scanning are limited too):
 * - per client IP, before authentication (`limitByIp`);
 * - per user, once the bearer token is known (`limitByUser`).
 * Counters live in memory, or in Redis (REDIS_URL) when several processes serve. Every answer
 * carries RateLimit-Limit / RateLimit-Remaining / RateLimit-Reset (the stricter of the two
 * limits); a refusal is a 429 problem with Retry-After.
 */

export interface RateLimitOptions {
  perIpPerMinute: number;
  perUserPerMinute: number;
  redis: Redis | undefined;
  /** Counted once a request's principal is known; undefined when it is not. */
  userOf: (request: FastifyRequest) => string | undefined;
}

type Outcome = { max: number; remaining: number; ttlInSeconds: number; isExceeded: boolean };

function refuse(reply: FastifyReply, outcome: Outcome, scope: string): AppError {
  reply.header('retry-after', String(Math.max(1, outcome.ttlInSeconds)));
  return new AppError(429, 'request.rate_limited', `Too many requests ${scope}: at most ${outcome.max} a minute. Wait ${Math.max(1, outcome.ttlInSeconds)} s and try again.`);
}

function setHeaders(reply: FastifyReply, outcome: Outcome): void {
  const current = Number(reply.getHeader('ratelimit-remaining'));
  if (Number.isFinite(current) && current <= outcome.remaining) return; // keep the stricter limit
  reply.header('ratelimit-limit', String(outcome.max));
  reply.header('ratelimit-remaining', String(outcome.remaining));
  reply.header('ratelimit-reset', String(outcome.ttlInSeconds));
}

/** What the library's stores (@fastify/rate-limit/store/*) do: count a hit on a key in its window. */
interface CountingStore {
  incr(key: string, done: (error: Error | null, counted?: { current: number; ttl: number }) => void, timeWindow: number, max: number): void;
}

const WINDOW_MS = 60_000;

/**
 * The two app-wide limits count in the rate-limit library's own store (its in-memory LRU, or its
 * Redis script), called directly: the store answers through a callback, at once for the
 * in-memory one, so a request that is under its limits goes through no promise of the limiter
 * (the library's `createRateLimit` awaits three per check). Route limits (`config.rateLimit`)
 * stay with the library's route hooks.
 */
function createStore(redis: Redis | undefined): CountingStore {
  // (continueExceeding, exponentialBackoff) as the library's defaults: a fixed window.
  return (redis ? new RedisStore(false, false, redis, 'fishlog-rl:') : new LocalStore(false, false, LOCAL_KEYS)) as CountingStore;
}

/** How many keys (addresses and users) the in-memory store keeps, least recently seen dropped first (the library's default). */
const LOCAL_KEYS = 5000;

export async function registerRateLimits(app: FastifyInstance, options: RateLimitOptions): Promise<{ limitByUser: (request: FastifyRequest, reply: FastifyReply) => Promise<void> | undefined }> {
  await app.register(rateLimit, {
    global: false,
    enableDraftSpec: true, // route-level limits (config.rateLimit) answer the same RateLimit-* headers
    ...(options.redis ? { redis: options.redis, nameSpace: 'fishlog-rl:', skipOnError: true } : {}),
  });
  const store = createStore(options.redis);

  /**
   * Counts the request under `key` and applies the answer to the reply (headers; a 429 error when
   * over `max`); `next` gets that error or nothing. A store that fails lets the request through
   * (as the library's `skipOnError`: Redis down does not take the API down).
   */
  const count = (key: string, max: number, scope: string, reply: FastifyReply, next: (error?: Error) => void) => {
    store.incr(
      key,
      (error, counted) => {
        const current = error || !counted ? 0 : counted.current;
        const outcome = { max, remaining: Math.max(0, max - current), ttlInSeconds: Math.ceil((counted?.ttl ?? 0) / 1000), isExceeded: current > max };
        setHeaders(reply, outcome);
        next(outcome.isExceeded ? refuse(reply, outcome, scope) : undefined);
      },
      WINDOW_MS,
      max,
    );
  };

  app.addHook('onRequest', (request, reply, done) => count(`ip:${request.ip}`, options.perIpPerMinute, 'from this address', reply, done));

  return {
    // Without a user (no principal) nothing is counted: the per-IP limit holds. Undefined when
    // the check is done already (the in-memory store answers at once), else its promise.
    limitByUser: (request, reply) => {
      const user = options.userOf(request);
      if (user === undefined) return undefined;
      let settled: { error: Error | undefined } | undefined;
      let waiting: { resolve: () => void; reject: (error: Error) => void } | undefined;
      count(`user:${user}`, options.perUserPerMinute, 'for this user', reply, (error) => {
        if (!waiting) settled = { error };
        else if (error) waiting.reject(error);
        else waiting.resolve();
      });
      if (settled) {
        if (settled.error) throw settled.error;
        return undefined;
      }
      return new Promise<void>((resolve, reject) => (waiting = { resolve, reject }));
    },
  };
}
