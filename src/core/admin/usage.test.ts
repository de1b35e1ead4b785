import { describe, expect, it } from 'vitest';
import type { DbOrTx } from '../db/client.js';
import { usageRegistry, type UsageCounter } from './usage.js';

const db = {} as DbOrTx;

describe('usageRegistry (usage counters by entity)', () => {
  it('sums a numeric slot over its counters, 0 for keys nothing uses; a counter registered twice counts once', async () => {
    const usage = usageRegistry<{ posts: number; seen: { at: string } }>();
    const calls: (readonly string[])[] = [];
    const posts: UsageCounter = async (_db, keys) => (calls.push(keys), new Map([['a', 2]]));
    usage.register('posts', posts);
    usage.register('posts', posts);
    usage.register('posts', async () => new Map([['a', 1], ['b', 4]]));
    expect(usage.has('posts')).toBe(true);
    expect(usage.has('seen')).toBe(false);
    expect(await usage.total(db, 'posts', ['a', 'b', 'c'])).toEqual(new Map([['a', 3], ['b', 4], ['c', 0]]));
    expect(calls).toEqual([['a', 'b', 'c']]); // one call per counter for the whole page
  });

  it('answers nothing for a slot without counters or for no keys (no query)', async () => {
    const usage = usageRegistry<{ seen: { at: string } }>();
    expect(await usage.each(db, 'seen', ['a'])).toEqual([]);
    usage.register('seen', async () => { throw new Error('not called for no keys'); });
    expect(await usage.each(db, 'seen', [])).toEqual([]);
  });
});
