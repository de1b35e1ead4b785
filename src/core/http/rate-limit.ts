import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { AppError } from './problem.js';

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

export async function registerRateLimits(app: FastifyInstance, options: RateLimitOptions): Promise<{ limitByUser: (request: FastifyRequest, reply: FastifyReply) => Promise<void> }> {
  await app.register(rateLimit, {
    global: false,
    enableDraftSpec: true, // route-level limits (config.rateLimit) answer the same RateLimit-* headers
    ...(options.redis ? { redis: options.redis, nameSpace: 'fishlog-rl:', skipOnError: true } : {}),
  });
  const byIp = app.createRateLimit({ max: options.perIpPerMinute, timeWindow: 60_000, keyGenerator: (request) => `ip:${request.ip}` });
  const byUser = app.createRateLimit({ max: options.perUserPerMinute, timeWindow: 60_000, keyGenerator: (request) => `user:${options.userOf(request)}` });

  /** The limiter's answer applied to the reply: its headers, and a 429 when exceeded. */
  const apply = (reply: FastifyReply, result: Awaited<ReturnType<typeof byIp>>, scope: string) => {
    if (result.isAllowed) return;
    setHeaders(reply, result);
    if (result.isExceeded) throw refuse(reply, result, scope);
  };
  // A callback hook and plain promise callbacks: the limiter's own promise is the only one per request.
  app.addHook('onRequest', (request, reply, done) => {
    byIp(request).then((result) => {
      try {
        apply(reply, result, 'from this address');
      } catch (error) {
        return done(error as Error);
      }
      done();
    }, done);
  });
  return {
    // Without a user (no principal) nothing is counted: the per-IP limit holds.
    limitByUser: (request, reply) => (options.userOf(request) === undefined ? Promise.resolve() : byUser(request).then((result) => apply(reply, result, 'for this user'))),
  };
}
