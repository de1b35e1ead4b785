import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import type { ReplicaSettings } from '../../config.js';

/**
 * Reads on PostgreSQL streaming replicas (DATABASE_REPLICA_URLS), GitLab's database load balancing
 * in small:
 *
 * - **Where a read goes is declared, not guessed**: a request of a route listed in
 *   `src/replica-reads.ts` runs its handler with replica reads allowed (`allowReplicaReads`); every
 *   other statement — other routes, hooks before the handler (authentication), transactions, cache
 *   loads (`onPrimary`), jobs, LISTEN — goes to the primary. Nothing parses SQL.
 * - **One replica per request**: the first read of a request picks it (round robin over the healthy
 *   ones); the request's later reads go to the same one, so one page never mixes two positions.
 * - **Read-your-writes**: after a request of a user that may have written, the primary's WAL
 *   position is kept for that user (`WritePositions`: Redis or a table) — `pg_current_wal_insert_lsn()`,
 *   which is past the request's commit records even on a server with `synchronous_commit=off`, where
 *   `pg_current_wal_lsn()` (written so far) can still be before them;
 *   that user's reads go to a replica only when it has replayed that position
 *   (`pg_last_wal_replay_lsn()`, polled by the health check), else to the primary.
 * - **Lag and failure**: every `checkIntervalMs` the primary's position (flushed: what it can send) is sampled and each
 *   replica's replay position read; a replica's lag is the age of the oldest sampled primary
 *   position it has not replayed (an idle primary is no lag). Lagging more than `maxLagMs`, not
 *   answering, or not a standby: out of the pool until a check finds it well again. A statement
 *   that fails on a replica with a connection error (or a recovery conflict) runs again on the
 *   primary: no request fails because of a replica.
 */

/** What a request lets its statements do (AsyncLocalStorage across its hooks and handler). */
interface ReadContext {
  /** The handler of a route declared in src/replica-reads.ts runs: reads may go to a replica. */
  replicaReads: boolean;
  /** Whose reads (read-your-writes); undefined: anonymous. */
  userId: string | undefined;
  /** The replica the request reads from, once chosen (undefined: the primary). */
  target?: Promise<Replica | undefined>;
}

const readContext = new AsyncLocalStorage<ReadContext>();

/** Runs `fn` (a request's hooks and handler) in a context of its own, replica reads off until `allowReplicaReads`. */
export function runWithReadContext<T>(fn: () => T): T {
  return readContext.run({ replicaReads: false, userId: undefined }, fn);
}

/** From here on, the current request's reads may go to a replica (for `userId`'s read-your-writes). */
export function allowReplicaReads(userId: string | undefined): void {
  const context = readContext.getStore();
  if (!context) return;
  context.replicaReads = true;
  context.userId = userId;
}

/** Runs `fn` with every statement on the primary (cache loads: what a cache keeps must be current). */
export function onPrimary<T>(fn: () => T): T {
  const context = readContext.getStore();
  return context?.replicaReads ? readContext.run({ replicaReads: false, userId: undefined }, fn) : fn();
}

/** A WAL position (`16/B374D848`) as a number. */
export function lsnValue(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/** A WAL position as text (`16/B374D848`). */
export function lsnText(value: bigint): string {
  return `${(value >> 32n).toString(16).toUpperCase()}/${(value & 0xffffffffn).toString(16).toUpperCase()}`;
}

/** The errors after which a replica's statement runs again on the primary. */
const CONNECTION_STATES = new Set(['57P01', '57P02', '57P03', '53300', '53400']);
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** The replica is gone or unusable (not the statement's fault): take it out of the pool. */
export function isConnectionFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && (code.startsWith('08') || CONNECTION_STATES.has(code) || NETWORK_CODES.has(code))) return true;
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|not queryable|Client was closed/i.test(message);
}

/** The statement cannot run on a standby (a write: 25006; a conflict with recovery: 40001): the primary runs it. */
function isStandbyRefusal(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '25006' || code === '40001';
}

/** What `/health/ready` and `/metrics` show of a replica. */
export interface ReplicaStatus {
  name: string;
  /** In the pool: answering, a standby, and lagging no more than the setting. */
  healthy: boolean;
  /** Age of the oldest primary position it has not replayed (null: unknown, it did not answer). */
  lagSeconds: number | null;
  /** Bytes of WAL between the primary's position and its replay position at the last check. */
  lagBytes: number | null;
  replayLsn: string | null;
  /** Why it is out of the pool. */
  error: string | null;
  checkedAt: string | null;
}

export class Replica {
  healthy = false;
  replayLsn: bigint | undefined;
  lagMs: number | undefined;
  lagBytes: number | undefined;
  error: string | null = 'not checked yet';
  checkedAt: Date | undefined;
  private checker: pg.Client | undefined;

  constructor(
    readonly name: string,
    private readonly url: string,
    readonly pool: pg.Pool,
    private readonly checkName: string,
  ) {}

  /** This replica's replay position now (or throws): a connection of its own, kept between checks. */
  async replay(timeoutMs: number): Promise<{ standby: boolean; replay: bigint }> {
    if (!this.checker) {
      const client = new pg.Client({ connectionString: this.url, application_name: this.checkName, connectionTimeoutMillis: timeoutMs, statement_timeout: timeoutMs });
      client.on('error', () => undefined);
      client.on('end', () => {
        if (this.checker === client) this.checker = undefined;
      });
      this.checker = client;
      try {
        await client.connect();
      } catch (error) {
        this.checker = undefined;
        throw error;
      }
    }
    const { rows } = await this.checker.query<{ standby: boolean; replay: string | null }>(
      'SELECT pg_is_in_recovery() AS standby, (CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() ELSE pg_current_wal_insert_lsn() END)::text AS replay',
    );
    return { standby: rows[0]!.standby, replay: lsnValue(rows[0]!.replay ?? '0/0') };
  }

  fail(error: unknown): void {
    this.healthy = false;
    this.error = error instanceof Error ? error.message : String(error);
    const checker = this.checker;
    this.checker = undefined;
    void checker?.end().catch(() => undefined);
  }

  status(): ReplicaStatus {
    return {
      name: this.name,
      healthy: this.healthy,
      lagSeconds: this.lagMs === undefined ? null : this.lagMs / 1000,
      lagBytes: this.lagBytes ?? null,
      replayLsn: this.replayLsn === undefined ? null : lsnText(this.replayLsn),
      error: this.error,
      checkedAt: this.checkedAt?.toISOString() ?? null,
    };
  }

  async close(): Promise<void> {
    const checker = this.checker;
    this.checker = undefined;
    await checker?.end().catch(() => undefined);
    await this.pool.end().catch(() => undefined);
  }
}

/** Where the users' last write positions are kept, seen by every process (Redis, else the primary's table). */
export interface WritePositions {
  /** After a request of `userId` that may have written: the primary's position now (after its commits). */
  record(userId: string): Promise<void>;
  /** The position a replica must have replayed for `userId`'s reads; undefined: none kept. */
  required(userId: string): Promise<bigint | undefined>;
}

/**
 * The table of the positions (`tablePositions`), created with the migrations as the owner and under
 * the schema lock (core/db/migrate.ts), like the job queue: idempotent, and the application role
 * gets its rights from the schema's default privileges (migration 0030).
 */
export async function installWritePositions(client: pg.ClientBase): Promise<void> {
  await client.query(
    'CREATE UNLOGGED TABLE IF NOT EXISTS replica_write_positions (user_id uuid PRIMARY KEY, lsn pg_lsn NOT NULL, written_at timestamptz NOT NULL DEFAULT now())',
  );
}

/**
 * The positions in an UNLOGGED table of the primary (`installWritePositions`): not written to the WAL (a
 * write request costs no second WAL flush) and not replicated; emptied by a crash of the primary,
 * after which a user's next read may come from a replica that has not replayed their last write.
 */
export function tablePositions(primary: () => pg.Pool): WritePositions {
  return {
    async record(userId) {
      await primary().query({
        name: 'replica_write_position_record',
        text:
          'INSERT INTO replica_write_positions (user_id, lsn) VALUES ($1, pg_current_wal_insert_lsn()) ' +
          'ON CONFLICT (user_id) DO UPDATE SET lsn = GREATEST(replica_write_positions.lsn, excluded.lsn), written_at = now()',
        values: [userId],
      });
    },
    async required(userId) {
      const { rows } = await primary().query<{ lsn: string }>({ name: 'replica_write_position_read', text: 'SELECT lsn::text AS lsn FROM replica_write_positions WHERE user_id = $1', values: [userId] });
      return rows[0] ? lsnValue(rows[0].lsn) : undefined;
    },
  };
}

/** The subset of ioredis these positions use. */
export interface PositionsRedis {
  eval(script: string, keys: number, ...args: (string | number)[]): Promise<unknown>;
  get(key: string): Promise<string | null>;
}

/** Keeps the larger of two positions (16 hex digits: they compare as text). */
const KEEP_MAX = "local c = redis.call('GET', KEYS[1]) if (not c) or c < ARGV[1] then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end return 1";

/**
 * The positions in Redis (REDIS_URL): `fishlog:replica-lsn:<user>`, kept for `ttlMs` (past it any
 * replica in the pool has replayed the write: its lag is under the limit).
 */
export function redisPositions(redis: PositionsRedis, primary: () => pg.Pool, ttlMs: number): WritePositions {
  const key = (userId: string) => `fishlog:replica-lsn:${userId}`;
  return {
    async record(userId) {
      const { rows } = await primary().query<{ lsn: string }>({ name: 'replica_write_position_now', text: 'SELECT pg_current_wal_insert_lsn()::text AS lsn' });
      await redis.eval(KEEP_MAX, 1, key(userId), lsnValue(rows[0]!.lsn).toString(16).padStart(16, '0'), ttlMs);
    },
    async required(userId) {
      const value = await redis.get(key(userId));
      return value ? BigInt(`0x${value}`) : undefined;
    },
  };
}

/** Reads counted by where they went (`/metrics`). */
export interface ReadCounts {
  /** Statements of declared routes served by a replica… */
  replica: number;
  /** …and by the primary: no healthy replica, none had replayed the user's write yet, or a replica failed. */
  primary: number;
  /** Of those, statements that failed on a replica and ran again on the primary. */
  retried: number;
}

export interface ReplicaSetOptions {
  /** The primary's pool of the request path (read when used: it changes with `useApplicationRole`). */
  primary: () => pg.Pool;
  /** A replica's pool of the request path. */
  makePool: (url: string, name: string) => pg.Pool;
  /** application_name of the health checks' connections. */
  checkName: string;
  log?: ((message: string) => void) | undefined;
}

/** The replicas of one process: their pools, the health loop, the choice of a replica for a read. */
export class ReplicaSet {
  readonly replicas: Replica[];
  readonly counts: ReadCounts = { replica: 0, primary: 0, retried: 0 };
  /** The primary's positions sampled by the checks (position, when first seen), oldest first. */
  private samples: { lsn: bigint; at: number }[] = [];
  private next = 0;
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;
  private closed = false;
  /** Set by the app (`WritePositions`): where the users' last write positions are read. */
  positions: WritePositions | undefined;

  constructor(
    readonly settings: ReplicaSettings,
    private readonly options: ReplicaSetOptions,
  ) {
    this.replicas = settings.urls.map((url, index) => {
      const parsed = new URL(url);
      const name = `${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}`;
      return new Replica(settings.urls.length > 1 ? `${index + 1} ${name}` : name, url, options.makePool(url, name), options.checkName);
    });
  }

  /** Checks now, then every `checkIntervalMs`. */
  async start(): Promise<void> {
    await this.check();
    const tick = () => {
      if (this.closed) return;
      this.timer = setTimeout(() => void this.check().finally(tick), this.settings.checkIntervalMs);
      this.timer.unref();
    };
    tick();
  }

  /** One round of checks (the primary's position, each replica's replay position and lag). */
  check(): Promise<void> {
    this.checking ??= this.checkOnce().finally(() => (this.checking = undefined));
    return this.checking;
  }

  private async checkOnce(): Promise<void> {
    const timeoutMs = Math.max(500, Math.min(5000, this.settings.checkIntervalMs * 2));
    const now = Date.now();
    let primary: bigint | undefined;
    try {
      const { rows } = await this.options.primary().query<{ lsn: string }>({ name: 'replica_primary_position', text: 'SELECT pg_current_wal_flush_lsn()::text AS lsn' });
      primary = lsnValue(rows[0]!.lsn);
      const newest = this.samples.at(-1);
      if (!newest || primary > newest.lsn) this.samples.push({ lsn: primary, at: now });
      // Kept while a replica within the limit may still be behind them (the newest always).
      const horizon = now - this.settings.maxLagMs - 3 * this.settings.checkIntervalMs;
      while (this.samples.length > 1 && this.samples[1]!.at < horizon) this.samples.shift();
    } catch {
      // The primary does not answer: the replicas' lag is judged from the samples kept.
    }
    await Promise.all(
      this.replicas.map(async (replica) => {
        try {
          const { standby, replay } = await replica.replay(timeoutMs);
          replica.checkedAt = new Date();
          replica.replayLsn = replay;
          const behind = this.samples.find((sample) => sample.lsn > replay);
          replica.lagMs = behind ? Math.max(0, Date.now() - behind.at) : 0;
          replica.lagBytes = primary !== undefined && primary > replay ? Number(primary - replay) : 0;
          const wasHealthy = replica.healthy;
          if (!standby) {
            replica.healthy = false;
            replica.error = 'not a standby (pg_is_in_recovery() is false): not used for reads';
          } else if (replica.lagMs > this.settings.maxLagMs) {
            replica.healthy = false;
            replica.error = `lagging ${(replica.lagMs / 1000).toFixed(1)} s behind the primary (DATABASE_REPLICA_MAX_LAG_MS=${this.settings.maxLagMs})`;
          } else {
            replica.healthy = true;
            replica.error = null;
          }
          if (wasHealthy !== replica.healthy) this.options.log?.(`read replica ${replica.name} ${replica.healthy ? 'is back in the pool' : `left the pool: ${replica.error}`}`);
        } catch (error) {
          const wasHealthy = replica.healthy;
          replica.fail(error);
          replica.checkedAt = new Date();
          replica.lagMs = undefined;
          replica.lagBytes = undefined;
          if (wasHealthy) this.options.log?.(`read replica ${replica.name} left the pool: ${replica.error}`);
        }
      }),
    );
  }

  /** A healthy replica that has replayed `required` (round robin), or undefined: the primary. */
  choose(required: bigint | undefined): Replica | undefined {
    for (let i = 0; i < this.replicas.length; i++) {
      const replica = this.replicas[(this.next + i) % this.replicas.length]!;
      if (!replica.healthy) continue;
      if (required !== undefined && (replica.replayLsn === undefined || replica.replayLsn < required)) continue;
      this.next = (this.next + i + 1) % this.replicas.length;
      return replica;
    }
    return undefined;
  }

  /** Where the current request reads (chosen at its first read, then kept). */
  target(): Promise<Replica | undefined> | undefined {
    const context = readContext.getStore();
    if (!context?.replicaReads) return undefined;
    context.target ??= this.decide(context.userId);
    return context.target;
  }

  private async decide(userId: string | undefined): Promise<Replica | undefined> {
    if (!this.replicas.some((replica) => replica.healthy)) return undefined;
    if (!userId) return this.choose(undefined);
    try {
      const required = await this.positions?.required(userId);
      return this.choose(required);
    } catch (error) {
      this.options.log?.(`cannot read the last write position of a user (${error instanceof Error ? error.message : String(error)}); reading from the primary`);
      return undefined;
    }
  }

  /** The current request gave up its replica (it failed): the rest of the request reads from the primary. */
  giveUp(replica: Replica, error: unknown): void {
    const context = readContext.getStore();
    if (context) context.target = Promise.resolve(undefined);
    if (isConnectionFailure(error)) {
      const wasHealthy = replica.healthy;
      replica.fail(error);
      if (wasHealthy) this.options.log?.(`read replica ${replica.name} left the pool: ${replica.error}`);
    }
  }

  status(): ReplicaStatus[] {
    return this.replicas.map((replica) => replica.status());
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.checking?.catch(() => undefined);
    await Promise.all(this.replicas.map((replica) => replica.close()));
  }
}

/** Whether a failed statement of a replica runs again on the primary. */
export function runsAgainOnPrimary(error: unknown): boolean {
  return isConnectionFailure(error) || isStandbyRefusal(error);
}

type QueryArgs = [config: string | pg.QueryConfig, values?: unknown[]];

/**
 * The request path's `pool` when replicas are configured: a pg.Pool to Drizzle and the named
 * statements, whose queries go where the request's context says (`ReplicaSet.target`), and whose
 * `connect()` — transactions — is always the primary's. `connectForRead()` is `onOneConnection`'s.
 */
export class RoutingPool extends pg.Pool {
  constructor(
    readonly replicaSet: ReplicaSet,
    readonly primary: () => pg.Pool,
  ) {
    // Never connects itself; `pipeline` as the primary's pool, so `transaction` and `onOneConnection` take their pipelined path.
    super({ max: 1, pipeline: true } as pg.PoolConfig);
  }

  override query(...args: unknown[]): never {
    const [config, values] = args as QueryArgs;
    const hasCallback = args.some((arg) => typeof arg === 'function') || typeof (config as { submit?: unknown }).submit === 'function';
    const target = hasCallback ? undefined : this.replicaSet.target();
    if (!target) return (this.primary().query as (...a: unknown[]) => never)(...args);
    return this.routed(target, config, values) as never;
  }

  private async routed(target: Promise<Replica | undefined>, config: string | pg.QueryConfig, values: unknown[] | undefined): Promise<pg.QueryResult> {
    const replica = await target;
    const counts = this.replicaSet.counts;
    if (!replica) {
      counts.primary++;
      return this.primary().query(config as pg.QueryConfig, values);
    }
    try {
      const result = await replica.pool.query(config as pg.QueryConfig, values);
      counts.replica++;
      return result;
    } catch (error) {
      if (!runsAgainOnPrimary(error)) throw error;
      this.replicaSet.giveUp(replica, error);
      counts.primary++;
      counts.retried++;
      return this.primary().query(config as pg.QueryConfig, values);
    }
  }

  /** Transactions (Drizzle's and `transaction`): the primary, always. */
  override connect(...args: unknown[]): never {
    return (this.primary().connect as (...a: unknown[]) => never)(...args);
  }

  /** A connection for a read outside a transaction: the request's replica, else the primary's. */
  async connectForRead(): Promise<{ client: pg.PoolClient; replica: Replica | undefined }> {
    const replica = await this.replicaSet.target();
    if (replica) {
      try {
        return { client: await replica.pool.connect(), replica };
      } catch (error) {
        this.replicaSet.giveUp(replica, error);
        this.replicaSet.counts.retried++;
      }
    }
    return { client: await this.primary().connect(), replica: undefined };
  }

  override async end(): Promise<void> {
    // The pools it routes to are ended by their owner (the Database).
  }
}
