import pg from 'pg';

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
