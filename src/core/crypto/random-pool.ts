import { randomFillSync } from 'node:crypto';

/**
 * Random bytes from a pool refilled 4 KiB at a time (one system call for many ids, as Node does
 * for `randomUUID`): a call into the runtime per id was 7% of the CPU of a small request for trace
 * ids (`randomBytes`) and 1.9% of a write's for row ids (`crypto.getRandomValues`). The bytes are
 * a view of the pool: use them at once (the pool is refilled in place when it runs out).
 */
const POOL_SIZE = 4096;
const pool = Buffer.alloc(POOL_SIZE);
let offset = POOL_SIZE;

export function pooledRandomBytes(bytes: number): Buffer {
  if (bytes > POOL_SIZE) throw new RangeError(`at most ${POOL_SIZE} pooled random bytes at a time`);
  if (offset + bytes > POOL_SIZE) {
    randomFillSync(pool);
    offset = 0;
  }
  const view = pool.subarray(offset, offset + bytes);
  offset += bytes;
  return view;
}
