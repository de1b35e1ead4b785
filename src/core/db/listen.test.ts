import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { scratchDatabase } from '../../../test/harness.js';
import { keyedChannelCache, type ChannelListener } from './listen.js';

/** keyedChannelCache against a real PostgreSQL: NOTIFY is sent by another connection, as a trigger's would be. */
describe('keyedChannelCache', () => {
  const scratch = scratchDatabase();

  let channels = 0;
  /** A cache on a channel of its own whose loads are counted per key; `value` decides what a load answers. */
  function counted(value: (key: string, n: number) => Promise<{ key: string; n: number } | undefined> = async (key, n) => ({ key, n }), max = 100) {
    const channel = `test_keyed_${++channels}`;
    const loads = new Map<string, number>();
    const cache = keyedChannelCache(
      channel,
      (_db, key) => {
        const n = (loads.get(key) ?? 0) + 1;
        loads.set(key, n);
        return value(key, n);
      },
      { max },
    );
    const notify = (payload: string) => scratch.pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
    return { cache, loads, notify };
  }

  /** Waits until `done` holds (a notification takes milliseconds). */
  async function soon(done: () => Promise<boolean>) {
    for (let i = 0; i < 250; i++) {
      if (await done()) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('not heard');
  }

  /** The pool's listening connections to the scratch database. */
  const listenerConnections = async () =>
    (await scratch.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'fishlog-listener' AND datname = current_database()")).rows[0]!.n;

  const listening: ChannelListener[] = [];
  afterAll(async () => {
    for (const listener of listening) await listener.close();
    // The last listener closed: the pool's listening connection is ended.
    await soon(async () => (await listenerConnections()) === 0);
  });
  async function listen(cache: { listen: (pool: pg.Pool) => ChannelListener }) {
    const listener = cache.listen(scratch.pool);
    listening.push(listener);
    await listener.ready;
    return listener;
  }

  it('reads anew on every get while nothing listens (the CLI, scripts)', async () => {
    const { cache, loads } = counted();
    await cache.get(scratch.db, 'a');
    await cache.get(scratch.db, 'a');
    expect(loads.get('a')).toBe(2);
  });

  it('keeps each key while listening; a NOTIFY of a key drops that key only, an empty one every key', async () => {
    const { cache, loads, notify } = counted();
    await listen(cache);
    expect(await cache.get(scratch.db, 'a')).toEqual({ key: 'a', n: 1 });
    expect(await cache.get(scratch.db, 'b')).toEqual({ key: 'b', n: 1 });
    expect(await cache.get(scratch.db, 'a')).toEqual({ key: 'a', n: 1 });
    await notify('a');
    await soon(async () => (await cache.get(scratch.db, 'a'))?.n === 2);
    expect(await cache.get(scratch.db, 'b')).toEqual({ key: 'b', n: 1 });
    await notify('');
    await soon(async () => (await cache.get(scratch.db, 'b'))?.n === 2);
    expect(await cache.get(scratch.db, 'a')).toEqual({ key: 'a', n: 3 });
    expect(Object.fromEntries(loads)).toEqual({ a: 3, b: 2 });
  });

  it('shares one load between concurrent callers, and does not keep it when a change is heard while it runs', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { cache, loads } = counted(async (key, n) => {
      if (n === 1) await gate;
      return { key, n };
    });
    await listen(cache);
    const first = cache.get(scratch.db, 'a');
    const second = cache.get(scratch.db, 'a');
    cache.forget('other key'); // any change heard meanwhile: what the load read may predate it
    release();
    expect(await first).toEqual({ key: 'a', n: 1 });
    expect(await second).toEqual({ key: 'a', n: 1 });
    expect(loads.get('a')).toBe(1);
    expect(await cache.get(scratch.db, 'a')).toEqual({ key: 'a', n: 2 }); // read again
    expect(await cache.get(scratch.db, 'a')).toEqual({ key: 'a', n: 2 }); // and kept
  });

  it('keeps neither nothing (undefined) nor a failure; a failed shared load is read again by each caller', async () => {
    const { cache, loads } = counted(async (key, n) => {
      if (key === 'missing') return undefined;
      if (n === 1) throw new Error('connection lost');
      return { key, n };
    });
    await listen(cache);
    expect(await cache.get(scratch.db, 'missing')).toBeUndefined();
    expect(await cache.get(scratch.db, 'missing')).toBeUndefined();
    expect(loads.get('missing')).toBe(2);
    expect(await cache.get(scratch.db, 'flaky')).toEqual({ key: 'flaky', n: 2 }); // the caller's own read, not kept
    expect(await cache.get(scratch.db, 'flaky')).toEqual({ key: 'flaky', n: 3 }); // a shared load again, kept
    expect(await cache.get(scratch.db, 'flaky')).toEqual({ key: 'flaky', n: 3 });
  });

  it('holds at most `max` keys, the least recently read dropped first', async () => {
    const { cache, loads } = counted(undefined, 2);
    await listen(cache);
    await cache.get(scratch.db, 'a');
    await cache.get(scratch.db, 'b');
    await cache.get(scratch.db, 'a');
    await cache.get(scratch.db, 'c'); // drops b
    await cache.get(scratch.db, 'a');
    await cache.get(scratch.db, 'b');
    expect(Object.fromEntries(loads)).toEqual({ a: 1, b: 2, c: 1 });
  });

  it('keeps nothing before LISTEN took effect, nor while a lost connection is being replaced', async () => {
    const { cache, loads } = counted();
    const listener = cache.listen(scratch.pool);
    listening.push(listener);
    await cache.get(scratch.db, 'a'); // LISTEN not yet answered: read anew
    await listener.ready;
    await cache.get(scratch.db, 'a');
    await cache.get(scratch.db, 'a');
    expect(loads.get('a')).toBe(2);
    // The listening connection dies (a restart, a proxy's idle timeout): nothing is heard until it is back.
    // The pool's one listening connection (every channel of the process listens through it).
    const killed = await scratch.pool.query("SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE application_name = 'fishlog-listener' AND datname = current_database()");
    expect(killed.rows).toEqual([{ done: true }]);
    await soon(async () => {
      const before = loads.get('a')!;
      await cache.get(scratch.db, 'a');
      await cache.get(scratch.db, 'a');
      return loads.get('a')! >= before + 2; // each get reads anew
    });
    // Back (it reconnects after a second): kept again.
    await soon(async () => {
      await cache.get(scratch.db, 'a');
      const before = loads.get('a')!;
      await cache.get(scratch.db, 'a');
      return loads.get('a') === before;
    });
  });

  it('listens on every channel of a pool through one connection; the last listener to close ends it', async () => {
    const caches = [counted(), counted(), counted()];
    const own = await Promise.all(caches.map(({ cache }) => cache.listen(scratch.pool)).map(async (listener) => (await listener.ready, listener)));
    expect(await listenerConnections()).toBe(1);
    // Each channel's NOTIFY reaches its own cache only.
    for (const { cache } of caches) await cache.get(scratch.db, 'a');
    await caches[1]!.notify('a');
    await soon(async () => {
      for (const { cache } of caches) await cache.get(scratch.db, 'a');
      return caches[1]!.loads.get('a') === 2;
    });
    expect([caches[0]!.loads.get('a'), caches[2]!.loads.get('a')]).toEqual([1, 1]);
    for (const listener of own) await listener.close();
    // The listeners of the earlier tests are still open (closed after all): the connection stays, without these channels.
    expect(await listenerConnections()).toBe(1);
    await caches[0]!.notify('a');
    await caches[0]!.cache.get(scratch.db, 'a');
    await caches[0]!.cache.get(scratch.db, 'a');
    expect(caches[0]!.loads.get('a')).toBe(3); // closed: read anew each time
  });

  it('forgets everything when its listener closes, and reads anew afterwards', async () => {
    const { cache, loads } = counted();
    const listener = await listen(cache);
    await cache.get(scratch.db, 'a');
    await listener.close();
    await cache.get(scratch.db, 'a');
    await cache.get(scratch.db, 'a');
    expect(loads.get('a')).toBe(3);
  });
});
