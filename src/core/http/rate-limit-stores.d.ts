// The rate-limit library's stores, which core/http/rate-limit.ts calls directly (the package
// ships them as plain CommonJS files without types).
declare module '@fastify/rate-limit/store/LocalStore.js' {
  /** An in-memory fixed-window counter per key, in an LRU of `cache` keys. */
  const LocalStore: new (continueExceeding: boolean, exponentialBackoff: boolean, cache?: number) => object;
  export = LocalStore;
}

declare module '@fastify/rate-limit/store/RedisStore.js' {
  import type { Redis } from 'ioredis';
  /** The same counter in Redis (one Lua script a hit), keys prefixed with `prefix`. */
  const RedisStore: new (continueExceeding: boolean, exponentialBackoff: boolean, redis: Redis, prefix?: string) => object;
  export = RedisStore;
}
