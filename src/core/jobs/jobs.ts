import type PgBoss from 'pg-boss';
import type pg from 'pg';
import type { DbOrTx } from '../db/client.js';
import { clientOf } from '../db/prepared.js';

/**
 * The job queue: every timed or deferred task of the service runs through pg-boss on the
 * service's own PostgreSQL (schema `pgboss`, installed with the migrations: ./install.ts).
 *
 * - A job is claimed with `FOR UPDATE SKIP LOCKED`: each runs in one process, however many run.
 * - A scheduled task (`cron`) is sent by one process per tick (pg-boss keeps the schedule and
 *   the last tick in the database), and its queue's policy (`stately`) keeps at most one waiting and one running.
 * - A job whose process died stays `active` until its `expireInSeconds` pass; the maintenance
 *   of any process then puts it back for a retry. Failures retry with exponential backoff.
 *
 * Modules declare their queues as `JobSpec`s (listed in src/jobs.ts, which the installation
 * reads) and register their handlers with `Jobs.work` when their routes plugin loads.
 */

export interface JobSpec {
  /** Queue name: `<module>.<task>`. */
  name: string;
  /** What the job does (shown in docs and the admin list's OpenAPI). */
  description: string;
  /** Sent on this schedule (5-field cron, UTC), by one process per tick. */
  cron?: string;
  /**
   * `stately`: at most one job waiting and one running (scheduled sweeps: a tick sent while one
   * waits is dropped); `standard`: every job sent runs (deliveries).
   */
  policy: 'standard' | 'stately';
  retryLimit: number;
  /** First retry after this many seconds; doubled (with jitter) on each further failure when `retryBackoff`. */
  retryDelaySeconds: number;
  retryBackoff: boolean;
  /** A running job not finished in this time is taken as lost (its process died) and retried. */
  expireInSeconds: number;
}

/**
 * A scheduled sweep: one waiting and one running at most; retried 5 times after 5 s, 10 s, 20 s…
 * (with jitter); a run not done within `expireInSeconds` is taken as lost.
 */
export function scheduledSweep(name: string, cron: string, description: string, expireInSeconds = 60): JobSpec {
  return { name, description, cron, policy: 'stately', retryLimit: 5, retryDelaySeconds: 5, retryBackoff: true, expireInSeconds };
}

export interface JobContext {
  id: string;
  /** 0 on the first run, then 1, 2… */
  retryCount: number;
}

export type JobHandler<T = unknown> = (data: T, job: JobContext) => Promise<unknown>;

export interface SendOptions {
  /** The job's id: a job sent again with the same id is not queued twice (null is returned). */
  id?: string;
  /** Not before this time. */
  startAfter?: Date;
  /** A second job with the same key is not queued while one waits (stately queues). */
  singletonKey?: string;
  /** Overrides the queue's expiry for this job. */
  expireInSeconds?: number;
}

export interface JobsOptions {
  /** Run workers and schedules in this process (false: the process only sends jobs). */
  work: boolean;
  /** How often this process looks for new jobs of each queue it works. */
  pollSeconds: number;
  /** How often the expiry of lost jobs and the archiving are checked (one process does it each time). */
  maintenanceSeconds: number;
  log: { error(obj: object, message: string): void; info(obj: object, message: string): void };
}

export const JOB_SCHEMA = 'pgboss';

/** Jobs fetched at once by a worker. */
const BATCH = 10;

/** The queues of the service: what the installation creates and a process may work. */
export class Jobs {
  /**
   * Made by `start()`: pg-boss (with its cron parser and luxon) loads then, not with the service,
   * so that it is no part of a restart (a working server starts the queue as it gets ready without
   * holding `listen` up; a process that only sends starts it with its first job).
   */
  private boss: PgBoss | undefined;
  private readonly handlers = new Map<string, { spec: JobSpec; handler: JobHandler }>();
  /** This process's worker of each queue it works (pg-boss worker ids). */
  private readonly workers = new Map<string, string>();
  private started: Promise<void> | undefined;
  /**
   * The queue's statements and job runs under way. pg-boss does not await every statement it
   * issues (a batch's completion is sent after its handler returns), and a worker's fetch under
   * way when `stop()` is called still hands its jobs to the handler: `stop()` waits for these
   * before it ends the connections, so no statement meets a closed pool.
   */
  private readonly underway = new Set<Promise<unknown>>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly options: JobsOptions,
  ) {}

  /** Registers the handler of a queue; the process works it from `start()` on (when it works jobs at all). */
  work<T>(spec: JobSpec, handler: JobHandler<T>): void {
    if (this.started) throw new Error(`job queue ${spec.name}: handlers are registered before start`);
    this.handlers.set(spec.name, { spec, handler: handler as JobHandler });
  }

  /** Queues a job (the queue's retry and expiry apply); null when a singleton queue already holds one. */
  async send(spec: JobSpec, data: object = {}, options: SendOptions = {}): Promise<string | null> {
    const boss = await this.booted();
    const id = await boss.send(spec.name, data, {
      ...(options.id ? { id: options.id } : {}),
      ...(options.startAfter ? { startAfter: options.startAfter } : {}),
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
      ...(options.expireInSeconds ? { expireInSeconds: options.expireInSeconds } : {}),
    });
    if (!options.startAfter) this.wake(spec.name);
    return id;
  }

  /**
   * Queues many jobs of one queue in one statement, in the caller's transaction: they exist once
   * it commits, with the rows they refer to (the queue's retry and expiry apply; a job whose `id`
   * is already queued is skipped). Call `wake(spec)` after the commit to start them at once.
   */
  async sendMany(tx: DbOrTx, spec: JobSpec, jobs: Array<{ id?: string; data: object }>): Promise<void> {
    if (jobs.length === 0) return;
    const boss = await this.booted();
    const connection = clientOf(tx);
    await boss.insert(
      jobs.map((job) => ({ name: spec.name, data: job.data, ...(job.id ? { id: job.id } : {}) })),
      { db: { executeSql: (text: string, values?: unknown[]) => connection.query({ text, values: values ?? [] }) } },
    );
  }

  /** Jobs queued for a queue this process works start now rather than at its next poll. */
  wake(spec: JobSpec | string): void {
    const worker = this.workers.get(typeof spec === 'string' ? spec : spec.name);
    if (worker) this.boss?.notifyWorker(worker);
  }

  /** Starts pg-boss; with `work`, the schedules of the registered queues and their workers. */
  start(): Promise<void> {
    return (this.started ??= this.startNow());
  }

  private async booted(): Promise<PgBoss> {
    await this.start();
    return this.boss!;
  }

  private async startNow(): Promise<void> {
    const { default: PgBoss } = await import('pg-boss');
    const { pool, options } = this;
    const boss = new PgBoss({
      db: { executeSql: (text: string, values?: unknown[]) => this.track(pool.query(text, values)) },
      schema: JOB_SCHEMA,
      // The schema and the queues are installed with the migrations (as the owner): this
      // process runs as the application role, which may not create tables.
      migrate: false,
      supervise: options.work,
      schedule: options.work,
      maintenanceIntervalSeconds: options.maintenanceSeconds,
    });
    boss.on('error', (error) => options.log.error({ err: error }, 'job queue error'));
    this.boss = boss;
    await boss.start();
    if (!options.work) return;
    for (const { spec, handler } of this.handlers.values()) {
      if (spec.cron) await boss.schedule(spec.name, spec.cron, {}, { tz: 'UTC' });
      // Up to BATCH jobs per fetch, run one after the other: each fails (and retries) on its own.
      // A full batch fetches the next at once; pg-boss otherwise waits for the next poll.
      const worker = await boss.work<object>(spec.name, { pollingIntervalSeconds: this.options.pollSeconds, batchSize: BATCH, includeMetadata: true }, (jobs) =>
        this.track(
          (async () => {
            if (jobs.length === BATCH) this.wake(spec.name);
            for (const job of jobs) {
              try {
                await handler(job.data, { id: job.id, retryCount: job.retryCount });
              } catch (error) {
                const message = error instanceof Error ? error.message : String(error);
                this.options.log.error({ err: error, job: spec.name, jobId: job.id, retryCount: job.retryCount }, 'job failed');
                await boss.fail(spec.name, job.id, { message });
              }
            }
          })(),
        ),
      );
      this.workers.set(spec.name, worker);
    }
    this.options.log.info({ queues: [...this.handlers.keys()] }, 'job workers started');
  }

  /**
   * Stops the workers (letting running jobs finish for up to `timeoutMs`), waits for the
   * statements and job runs still under way (a fetch answered during the stop runs its jobs and
   * records their completion) for up to `timeoutMs` more, and ends the queue's connections.
   */
  async stop(timeoutMs = 10_000): Promise<void> {
    if (this.started) {
      await this.started.catch(() => undefined);
      await this.boss?.stop({ graceful: true, close: false, timeout: timeoutMs }).catch((error: unknown) => this.options.log.error({ err: error }, 'job queue did not stop cleanly'));
      const deadline = Date.now() + timeoutMs;
      // A finished run is followed by its completion statement within the same turn: look again once the turn is over.
      while (this.underway.size > 0 && Date.now() < deadline) {
        await Promise.race([Promise.allSettled([...this.underway]), new Promise((resolve) => setTimeout(resolve, deadline - Date.now()).unref())]);
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (this.underway.size > 0) this.options.log.error({ underway: this.underway.size }, 'job queue stopped with work under way');
    }
    await this.pool.end().catch(() => undefined);
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.underway.add(work);
    const forget = () => this.underway.delete(work);
    work.then(forget, forget);
    return work;
  }
}
