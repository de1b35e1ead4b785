import type pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import { createDb } from '../../core/db/client.js';
import { listenChannel, type ChannelListener } from '../../core/db/listen.js';
import * as repo from './settings.repository.js';

/**
 * The settings as this process applies them: an in-memory copy of the active, non-sensitive
 * values, refreshed when any process changes a setting (LISTEN on `fishlog_settings`, NOTIFY
 * sent in the changing transaction) and re-read every `refreshMs` as a fallback (a lost
 * notification, a listener reconnecting). A setting with `requiresRestart` keeps the value it
 * had when the process started. A deactivated or missing setting reads as undefined: the
 * caller's built-in default applies.
 */
export class SettingsRuntime {
  private values = new Map<string, unknown>();
  private frozen = new Map<string, unknown>();
  private listener: ChannelListener | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private loaded = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly log: FastifyBaseLogger,
    private readonly refreshMs = 30_000,
  ) {}

  get<T>(name: string): T | undefined {
    return (this.frozen.has(name) ? this.frozen.get(name) : this.values.get(name)) as T | undefined;
  }

  async start(): Promise<void> {
    // A database out of reach at start does not stop the server (its requests answer 503 until it
    // is back): the built-in defaults apply until the periodic re-read succeeds.
    await this.refresh().catch((error: unknown) => this.log.warn({ err: error }, 'settings not read at start; built-in defaults until the database answers'));
    await this.listen();
    this.timer = setInterval(() => void this.refresh().catch((error: unknown) => this.log.warn({ err: error }, 'settings re-read failed')), this.refreshMs);
    this.timer.unref();
  }

  private chain: Promise<void> = Promise.resolve();

  /** Re-reads the settings; calls run one after the other, so the newest read wins. */
  refresh(): Promise<void> {
    this.chain = this.chain.catch(() => undefined).then(() => this.load());
    return this.chain;
  }

  private async load(): Promise<void> {
    const rows = await repo.allActive(createDb(this.pool));
    const next = new Map<string, unknown>();
    for (const row of rows) {
      if (row.isSensitive) continue;
      next.set(row.name, row.value);
      if (row.requiresRestart && !this.loaded) this.frozen.set(row.name, row.value);
    }
    this.values = next;
    this.loaded = true;
  }

  /**
   * On the pool's one listening connection (core/db/listen.ts). Once it listens again after a lost
   * connection, the settings are re-read (a change may have been missed meanwhile).
   */
  private async listen(): Promise<void> {
    if (this.closed) return;
    let lost = false;
    const reread = () => void this.refresh().catch((error: unknown) => this.log.warn({ err: error }, 'settings re-read failed'));
    this.listener = listenChannel(
      this.pool,
      repo.SETTINGS_CHANNEL,
      {
        onNotify: reread,
        onGap: (listening) => {
          if (!listening) lost = true;
          else if (lost) reread();
        },
      },
      this.log,
    );
    await this.listener.ready;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    const listener = this.listener;
    this.listener = undefined;
    await listener?.close();
  }
}
