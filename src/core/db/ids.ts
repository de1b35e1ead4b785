import { v7 } from 'uuid';
import { pooledRandomBytes } from '../crypto/random-pool.js';

/**
 * Row ids: UUIDv7 (time-ordered: new rows land at the right edge of their index), made by the
 * `uuid` package from pooled random bytes (core/crypto/random-pool.ts). `uuid`'s own `v7()` asks
 * `crypto.getRandomValues` for 16 bytes on every call, a call into the runtime that took 1.9% of
 * the service's busy CPU in a profile of the write bench (two ids a pair). The sequence within a
 * millisecond is `uuid`'s own rule (monotonic: a random start, then +1), kept here because ids
 * made with given random bytes carry no state of their own: ids made in one process sort in the
 * order they were made (rows written in one transaction share their `now()` and fall back to it).
 */
const state = { msecs: -Infinity, seq: 0 };

export function uuidv7(): string {
  const random = pooledRandomBytes(16);
  const now = Date.now();
  if (now > state.msecs) {
    state.seq = ((random[6]! & 0x7f) << 24) | (random[7]! << 16) | (random[8]! << 8) | random[9]!;
    state.msecs = now;
  } else {
    state.seq = (state.seq + 1) | 0;
    if (state.seq === 0) state.msecs++;
  }
  return v7({ random, msecs: state.msecs, seq: state.seq });
}
