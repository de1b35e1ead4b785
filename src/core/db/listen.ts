import pg from 'pg';
import type { DbOrTx } from './client.js';

export interface ChannelListener {
  /** Settles once the first attempt to listen is over (listening, or retrying in the background). */
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * LISTEN on `channel` through a connection of its own (made with the pool's settings, so it does
 * not take one of the pool's connections away from requests), reconnecting when it drops.
 * `onNotify` runs for each notification; `onGap` when notifications may have been missed (not yet
 * listening, or the connection was lost): a cache then forgets what it holds.
 */
export function listenChannel(
  pool: pg.Pool,
  channel: string,
  handlers: { onNotify(payload: string): void; onGap(): void },
  log: { warn: (obj: object, msg: string) => void } = { warn: () => undefined },
): ChannelListener {
  let closed = false;
  let client: pg.Client | undefined;
  const connect = async () => {
    if (closed) return;
    const next = new pg.Client(pool.options as pg.ClientConfig);
    next.on('notification', (message) => {
      if (message.channel === channel) handlers.onNotify(message.payload ?? '');
    });
    const lost = (error: unknown) => {
      if (client !== next) return;
      log.warn({ err: error }, `listener of ${channel} lost its connection; reconnecting`);
      client = undefined;
      handlers.onGap();
      void next.end().catch(() => undefined);
      if (!closed) setTimeout(() => void connect(), 1000).unref();
    };
    next.on('error', lost);
    // A server that goes away may end the connection without an error.
    next.on('end', () => lost(new Error('connection ended')));
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      if (closed) return void (await next.end().catch(() => undefined));
      client = next;
      handlers.onGap(); // changes before LISTEN took effect were not heard
    } catch (error) {
      void next.end().catch(() => undefined);
      log.warn({ err: error }, `cannot listen on ${channel} yet; retrying`);
      if (!closed) setTimeout(() => void connect(), 5000).unref();
    }
  };
  const started = connect();
  return {
    ready: started,
    async close() {
      closed = true;
      await started;
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}

/**
 * A value read from the database and kept in memory while this process listens on `channel` (a
 * trigger notifies at commit, whoever changes the rows: API, seeds, CLI, SQL). Without a listener
 * (the CLI, a script) every `get` reads anew. A load shared between callers that fails is read
 * again by each of them, in their own transaction.
 */
export interface ChannelCache<T> {
  get(db: DbOrTx): Promise<T>;
  /** Drops what is kept (after this process's own change; also on NOTIFY and on a gap). */
  forget(): void;
  /** Keeps the value cached while listening for its changes (the server; close() on shutdown). */
  listen(pool: pg.Pool, log?: { warn: (obj: object, msg: string) => void }): ChannelListener;
}

export function channelCache<T>(channel: string, load: (db: DbOrTx) => Promise<T>): ChannelCache<T> {
  let cached: Promise<T> | undefined;
  let generation = 0;
  let listeners = 0;
  const forget = () => {
    generation++;
    cached = undefined;
  };
  const shared = (db: DbOrTx): Promise<T> => {
    if (cached) return cached;
    const loadedIn = generation;
    const loading = load(db);
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
    listen(pool, log) {
      const listener = listenChannel(pool, channel, { onNotify: forget, onGap: forget }, log);
      listeners++;
      return {
        ready: listener.ready,
        async close() {
          listeners--;
          forget();
          await listener.close();
        },
      };
    },
  };
}
