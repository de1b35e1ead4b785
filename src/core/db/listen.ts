import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { LRUCache } from 'lru-cache';
import type { DbOrTx } from './client.js';
import { onPrimary } from './replicas.js';

export interface ChannelListener {
  /** Settles once the first attempt to listen is over (listening, or retrying in the background). */
  ready: Promise<void>;
  close(): Promise<void>;
}

interface ChannelHandlers {
  onNotify(payload: string): void;
  onGap(listening: boolean): void;
}

type Log = { warn: (obj: object, msg: string) => void };

/**
 * The one listening connection of a pool: every channel its process listens on (the caches, the
 * notification dispatch, the principals, the settings) goes through it, so that a server holds one
 * listening connection rather than one per channel (each a PostgreSQL backend of its own). Made
 * with the pool's settings, it takes no connection away from requests. Changes are applied one
 * after another (`sync`): connect when a channel is wanted, LISTEN the new channels, UNLISTEN the
 * unwanted ones, end when none is left; a lost connection is replaced after a second.
 */
class PoolListener {
  private client: pg.Client | undefined;
  private readonly listening = new Set<string>();
  /** Per channel, its handlers and whether each was told that LISTEN took effect. */
  private readonly channels = new Map<string, Map<ChannelHandlers, boolean>>();
  private chain: Promise<void> = Promise.resolve();
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private log: Log,
  ) {}

  add(channel: string, handlers: ChannelHandlers, log: Log): Promise<void> {
    this.log = log;
    const handlersOf = this.channels.get(channel) ?? new Map<ChannelHandlers, boolean>();
    this.channels.set(channel, handlersOf.set(handlers, false));
    return this.schedule();
  }

  remove(channel: string, handlers: ChannelHandlers): Promise<void> {
    const handlersOf = this.channels.get(channel);
    handlersOf?.delete(handlers);
    if (handlersOf?.size === 0) this.channels.delete(channel);
    return this.schedule();
  }

  private schedule(): Promise<void> {
    this.chain = this.chain.then(() => this.sync());
    return this.chain;
  }

  private async sync(): Promise<void> {
    if (this.channels.size === 0) {
      const current = this.client;
      this.client = undefined;
      this.listening.clear();
      await current?.end().catch(() => undefined);
      return;
    }
    try {
      const client = this.client ?? (await this.connect());
      // One round trip for every change (a simple query of several statements).
      const unwanted = [...this.listening].filter((channel) => !this.channels.has(channel));
      const wanted = [...this.channels.keys()].filter((channel) => !this.listening.has(channel));
      const statements = [...unwanted.map((channel) => `UNLISTEN ${pg.escapeIdentifier(channel)}`), ...wanted.map((channel) => `LISTEN ${pg.escapeIdentifier(channel)}`)];
      if (statements.length > 0) await client.query(statements.join('; '));
      for (const channel of unwanted) this.listening.delete(channel);
      for (const channel of wanted) this.listening.add(channel);
      for (const handlersOf of this.channels.values()) {
        // Changes before LISTEN took effect were not heard.
        for (const [handlers, told] of handlersOf) {
          if (told) continue;
          handlersOf.set(handlers, true);
          handlers.onGap(true);
        }
      }
    } catch (error) {
      this.log.warn({ err: error }, `cannot listen on ${[...this.channels.keys()].join(', ')} yet; retrying`);
      this.lost(this.client, 5000);
    }
  }

  private async connect(): Promise<pg.Client> {
    const options = this.pool.options as pg.ClientConfig;
    const client = new pg.Client({ ...options, application_name: `${options.application_name ?? 'fishlog'}-listener` });
    client.on('notification', (message) => {
      for (const handlers of this.channels.get(message.channel)?.keys() ?? []) handlers.onNotify(message.payload ?? '');
    });
    const lost = (error: unknown) => {
      if (this.client !== client) return;
      this.log.warn({ err: error }, `listener of ${[...this.listening].join(', ')} lost its connection; reconnecting`);
      this.lost(client, 1000);
    };
    client.on('error', lost);
    // A server that goes away may end the connection without an error.
    client.on('end', () => lost(new Error('connection ended')));
    this.client = client;
    try {
      await client.connect();
    } catch (error) {
      this.client = undefined;
      void client.end().catch(() => undefined);
      throw error;
    }
    return client;
  }

  /** Nothing is heard until a new connection listens: every handler is told, and a new one is tried after `delayMs`. */
  private lost(client: pg.Client | undefined, delayMs: number): void {
    if (client && this.client === client) this.client = undefined;
    this.listening.clear();
    void client?.end().catch(() => undefined);
    for (const handlersOf of this.channels.values()) {
      for (const [handlers, told] of handlersOf) {
        if (!told) continue;
        handlersOf.set(handlers, false);
        handlers.onGap(false);
      }
    }
    clearTimeout(this.retry);
    this.retry = setTimeout(() => void this.schedule(), delayMs).unref();
  }
}

const poolListeners = new WeakMap<pg.Pool, PoolListener>();

/**
 * LISTEN on `channel` through the pool's listening connection (`PoolListener`: one for every
 * channel of the process), which is replaced when it drops. `onNotify` runs for each
 * notification; `onGap` when notifications may have been missed: with `false` when the connection
 * was lost (nothing is heard until it is back), with `true` once LISTEN took effect (changes
 * before it were not heard). A cache then forgets what it holds.
 */
export function listenChannel(pool: pg.Pool, channel: string, handlers: ChannelHandlers, log: Log = { warn: () => undefined }): ChannelListener {
  let listener = poolListeners.get(pool);
  if (!listener) poolListeners.set(pool, (listener = new PoolListener(pool, log)));
  const own: ChannelHandlers = { onNotify: (payload) => handlers.onNotify(payload), onGap: (listening) => handlers.onGap(listening) };
  const started = listener.add(channel, own, log);
  return {
    ready: started,
    async close() {
      await started;
      await listener.remove(channel, own);
    },
  };
}

/**
 * A cache's listener (`listenChannel`): counted by `count` while it listens — a cache keeps values
 * only while some listener of it hears changes (not before LISTEN took effect, not while a lost
 * connection is being replaced) — and the cache forgets everything at each gap and when it closes.
 */
function cacheListener(
  pool: pg.Pool,
  channel: string,
  handlers: { onNotify(payload: string): void; onGap(): void },
  log: { warn: (obj: object, msg: string) => void } | undefined,
  count: (delta: 1 | -1) => void,
): ChannelListener {
  let listening = false;
  const heard = (now: boolean) => {
    if (now !== listening) {
      listening = now;
      count(now ? 1 : -1);
    }
  };
  const listener = listenChannel(
    pool,
    channel,
    {
      onNotify: handlers.onNotify,
      onGap: (now) => {
        heard(now);
        handlers.onGap();
      },
    },
    log,
  );
  return {
    ready: listener.ready,
    async close() {
      heard(false);
      handlers.onGap();
      await listener.close();
    },
  };
}

/**
 * A value read from the database and kept in memory while this process listens on `channel` (a
 * trigger notifies at commit, whoever changes the rows: API, seeds, CLI, SQL). Without a listener
 * that listens (the CLI, a script; a server whose listening connection is being replaced) every
 * `get` reads anew. A load shared between callers that fails is read
 * again by each of them, in their own transaction.
 */
/** `C`: what a load reads with (the database, or a service's dependencies). */
export interface ChannelCache<T, C = DbOrTx> {
  get(context: C): Promise<T>;
  /** Drops what is kept (after this process's own change; also on NOTIFY and on a gap). */
  forget(): void;
  /** Keeps the value cached while listening for its changes (the server; close() on shutdown). */
  listen(pool: pg.Pool, log?: { warn: (obj: object, msg: string) => void }): ChannelListener;
}

export function channelCache<T, C = DbOrTx>(channel: string, load: (context: C) => Promise<T>): ChannelCache<T, C> {
  let cached: Promise<T> | undefined;
  let generation = 0;
  let listeners = 0;
  const forget = () => {
    generation++;
    cached = undefined;
  };
  const shared = (db: C): Promise<T> => {
    if (cached) return cached;
    const loadedIn = generation;
    // What is kept must be current: loaded on the primary, never on a replica (core/db/replicas.ts).
    const loading = onPrimary(() => load(db));
    cached = loading;
    // A change heard while loading may not be in what was read: keep it for this call only.
    void loading.then(
      () => {
        if (generation !== loadedIn && cached === loading) cached = undefined;
      },
      () => {
        if (cached === loading) cached = undefined;
      },
    );
    return loading;
  };
  return {
    get: (db) => (listeners === 0 ? load(db) : shared(db).catch(() => load(db))),
    forget,
    listen: (pool, log) => cacheListener(pool, channel, { onNotify: forget, onGap: forget }, log, (delta) => (listeners += delta)),
  };
}

/**
 * Values read from the database per key (e.g. per user) and kept in memory while this process
 * listens on `channel`, as `channelCache` keeps one value: a trigger notifies the key whose rows
 * changed, or '' when a change may touch any key; every entry is forgotten on a gap. Bounded: at
 * most `max` keys, the least recently read dropped first. Without a listener that listens every
 * `get` reads anew. `load` answering undefined (nothing there) is not kept.
 */
/** `C`: what a load reads with (the database, or a service's dependencies). */
export interface KeyedChannelCache<T, C = DbOrTx> {
  get(context: C, key: string): Promise<T | undefined>;
  /** Drops the key's value, or every value without a key (after this process's own change; also on NOTIFY and on a gap). */
  forget(key?: string): void;
  /** Keeps values cached while listening for their changes (the server; close() on shutdown). */
  listen(pool: pg.Pool, log?: { warn: (obj: object, msg: string) => void }): ChannelListener;
}

export function keyedChannelCache<T extends object, C = DbOrTx>(channel: string, load: (context: C, key: string) => Promise<T | undefined>, options: { max: number }): KeyedChannelCache<T, C> {
  const cached = new LRUCache<string, Promise<T | undefined>>({ max: options.max });
  // Any change heard (of any key) while a value loads may be missing from what it read: such a
  // load answers its callers and is not kept (a per-key count would grow with the keys).
  let generation = 0;
  let listeners = 0;
  const forget = (key?: string) => {
    generation++;
    if (key) cached.delete(key);
    else cached.clear();
  };
  const shared = (db: C, key: string): Promise<T | undefined> => {
    const kept = cached.get(key);
    if (kept) return kept;
    const loadedIn = generation;
    const loading = onPrimary(() => load(db, key));
    cached.set(key, loading);
    void loading.then(
      (value) => {
        if ((value === undefined || generation !== loadedIn) && cached.peek(key) === loading) cached.delete(key);
      },
      () => {
        if (cached.peek(key) === loading) cached.delete(key);
      },
    );
    return loading;
  };
  return {
    get: (db, key) => (listeners === 0 ? load(db, key) : shared(db, key).catch(() => load(db, key))),
    forget,
    listen: (pool, log) => cacheListener(pool, channel, { onNotify: (payload) => forget(payload), onGap: () => forget() }, log, (delta) => (listeners += delta)),
  };
}

/** Listeners of apps not ready yet, by the app's pool: the first one's onReady hook starts them all. */
const notStarted = new WeakMap<pg.Pool, Array<() => void>>();

/**
 * A routes plugin's cache listens (`listen`: a cache's `listen`) from the moment the server is
 * ready until it closes; requests served meanwhile read through the cache. The first onReady hook
 * starts every listener of the app at once, so that the pool's listening connection connects once
 * and LISTENs on all their channels in one round trip (Fastify runs the hooks in turn); each hook
 * then waits for its own.
 */
export function listenWhileServing(app: FastifyInstance, pool: pg.Pool, listen: (pool: pg.Pool, log: { warn: (obj: object, msg: string) => void }) => ChannelListener): void {
  let listener: ChannelListener | undefined;
  const start = () => (listener ??= listen(pool, app.log));
  const pending = notStarted.get(pool) ?? [];
  notStarted.set(pool, pending);
  pending.push(start);
  app.addHook('onReady', async () => {
    for (const other of pending.splice(0)) other();
    await start().ready;
  });
  app.addHook('onClose', async () => listener?.close());
}
