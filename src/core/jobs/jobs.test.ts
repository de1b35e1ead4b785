import { until } from '../../../test/until.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createStaff, type Staff } from '../../../test/factories.js';
import { withSchemaLock } from '../db/migrate.js';
import { installJobQueue } from './install.js';
import { Jobs, type JobSpec } from './jobs.js';

/**
 * The job queue on the real database: a job that fails is retried with backoff and shows its
 * error in GET /api/admin/jobs; of two processes working one queue, each job runs once.
 */

const FLAKY: JobSpec = { name: 'test.flaky', description: 'fails on its first run', policy: 'standard', retryLimit: 3, retryDelaySeconds: 1, retryBackoff: true, expireInSeconds: 30 };
const COUNTED: JobSpec = { name: 'test.counted', description: 'counts its runs', policy: 'standard', retryLimit: 0, retryDelaySeconds: 1, retryBackoff: false, expireInSeconds: 30 };
const LATE: JobSpec = { name: 'test.late', description: 'fetched while the queue stops', policy: 'standard', retryLimit: 0, retryDelaySeconds: 1, retryBackoff: false, expireInSeconds: 30 };
const WORKING = { FISHLOG_JOBS: 'true', FISHLOG_JOBS_POLL_SECONDS: '1', FISHLOG_JOBS_MAINTENANCE_SECONDS: '1' };

const jobsOf = (t: TestApp) => (t.app as unknown as { jobs: Jobs }).jobs;

describe('job queue', () => {
  let sender: TestApp;
  let workers: TestApp[] = [];
  let staff: Staff;
  const runs: Array<{ id: string; retryCount: number; worker: number }> = [];
  const counted: Array<{ n: number; worker: number }> = [];

  beforeAll(async () => {
    // The sender only queues jobs (FISHLOG_JOBS off, the tests' default); the test queues are
    // installed as the migrations install the service's own.
    sender = await createTestApp();
    await withSchemaLock(sender.database.owner.pool, (client) => installJobQueue(client, [FLAKY, COUNTED, LATE]));
    const worker = (index: number) =>
      createTestApp({
        sameDatabaseAs: sender,
        env: WORKING,
        configure: (app) => {
          const jobs = (app as unknown as { jobs: Jobs }).jobs;
          jobs.work<{ n: number }>(FLAKY, async (_data, job) => {
            runs.push({ ...job, worker: index });
            if (job.retryCount === 0) throw new Error('the receiver was down');
          });
          jobs.work<{ n: number }>(COUNTED, async (data) => {
            counted.push({ n: data.n, worker: index });
            // Long enough that one process cannot take every batch before the other polls (a full batch fetches the next at once).
            await new Promise((resolve) => setTimeout(resolve, 150));
          });
        },
      });
    workers = [await worker(1), await worker(2)];
    staff = await createStaff(sender, 'Settings.View');
  });
  afterAll(async () => {
    for (const worker of workers) await worker.close();
    await sender.close();
  });

  it('retries a failed job with backoff and lists its error and attempts for admins', async () => {
    const id = await jobsOf(sender).send(FLAKY, { n: 1 });
    expect(id).toEqual(expect.any(String));
    const failed = await until('the first failure', async () => {
      const res = await sender.app.inject({ method: 'GET', url: `/api/admin/jobs?queue=${FLAKY.name}&state=retry`, headers: staff.admin.headers });
      return (res.json() as Array<Record<string, unknown>>).find((job) => job.id === id);
    });
    expect(failed).toMatchObject({ queue: 'test.flaky', state: 'retry', attempts: 1, retryLimit: 3, lastError: 'the receiver was down', completedAt: null });
    expect(Date.parse(failed.startAfter as string)).toBeGreaterThan(Date.parse(failed.startedAt as string));

    const done = await until('the retry', async () => {
      const res = await sender.app.inject({ method: 'GET', url: `/api/admin/jobs?queue=${FLAKY.name}`, headers: staff.admin.headers });
      const job = (res.json() as Array<Record<string, unknown>>).find((row) => row.id === id);
      return job?.state === 'completed' ? job : undefined;
    });
    expect(done).toMatchObject({ attempts: 2, lastError: null });
    expect(runs.filter((run) => run.id === id).map((run) => run.retryCount)).toEqual([0, 1]);
  });

  it('runs each of many jobs exactly once across two processes', async () => {
    await Promise.all(Array.from({ length: 30 }, (_, n) => jobsOf(sender).send(COUNTED, { n })));
    await until('every job', async () => (counted.length >= 30 ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 1500)); // a second run would show by now
    expect(counted.map((run) => run.n).sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, n) => n));
    expect(new Set(counted.map((run) => run.worker)).size).toBe(2);
  });

  it('lists jobs for Settings.View only, paginated and filtered', async () => {
    for (const user of [staff.owner, staff.admin, staff.grantedModerator]) {
      const res = await sender.app.inject({ method: 'GET', url: `/api/admin/jobs?queue=${COUNTED.name}&pageSize=5`, headers: user.headers });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-total-count']).toBe('30');
      expect(res.headers.link).toContain('rel="next"');
      const body = res.json() as Array<{ queue: string; state: string }>;
      expect(body).toHaveLength(5);
      expect(body.every((job) => job.queue === 'test.counted' && job.state === 'completed')).toBe(true);
    }
    for (const user of [staff.deniedAdmin, staff.moderator, staff.standard]) {
      const res = await sender.app.inject({ method: 'GET', url: '/api/admin/jobs', headers: user.headers });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'access.permission_denied' });
    }
    expect((await sender.app.inject({ method: 'GET', url: '/api/admin/jobs' })).statusCode).toBe(401);
    const bad = await sender.app.inject({ method: 'GET', url: '/api/admin/jobs?state=sleeping', headers: staff.admin.headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ errors: [expect.objectContaining({ pointer: '/state' })] });
  });

  it('keeps the scheduled sweeps in the database, one schedule per queue', async () => {
    const { rows } = await sender.database.owner.pool.query<{ name: string; cron: string }>('SELECT name, cron FROM pgboss.schedule ORDER BY name');
    expect(rows).toEqual([
      { name: 'accounts.erase', cron: '*/15 * * * *' },
      { name: 'accounts.export-expiry', cron: '17 * * * *' },
      { name: 'charters.sweep', cron: '* * * * *' },
      { name: 'health.backup-upload', cron: '* * * * *' },
      { name: 'health.base-backup', cron: '17 * * * *' },
      { name: 'notifications.dispatch', cron: '* * * * *' },
      { name: 'payments.idempotency-purge', cron: '17 * * * *' },
      { name: 'photos.media-sweep', cron: '* * * * *' },
      { name: 'sync.tombstone-purge', cron: '41 3 * * *' },
      { name: 'tournaments.statuses', cron: '* * * * *' },
    ]);
  });

  it('stops cleanly while a fetch is under way: the jobs it brings run and are recorded complete before the connections end', async () => {
    const pool = sender.database.extraPool(2, 'fishlog-jobs-test');
    // The fetch's answer arrives only after stop() was called (pg-boss then sees no job running).
    let answered!: () => void;
    const fetchAnswered = new Promise<void>((resolve) => (answered = resolve));
    const query = pool.query.bind(pool) as (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;
    (pool as unknown as { query: typeof query }).query = async (text, values) => {
      const result = await query(text, values);
      if (text.includes('SKIP LOCKED') && result.rows.length > 0) {
        answered();
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      return result;
    };
    const errors: unknown[] = [];
    const log = { info: () => undefined, error: (obj: object) => errors.push(obj) };
    const jobs = new Jobs(pool, { work: true, pollSeconds: 1, maintenanceSeconds: 60, log });
    const ran: string[] = [];
    jobs.work<{ n: number }>(LATE, async (_data, job) => {
      ran.push(job.id);
    });
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      await jobs.start();
      const id = await jobs.send(LATE, { n: 1 });
      await fetchAnswered;
      await jobs.stop(5_000);
      await new Promise((resolve) => setTimeout(resolve, 200)); // a statement after the end would have failed by now
      expect(ran).toEqual([id]);
      const { rows } = await sender.database.owner.pool.query<{ state: string }>('SELECT state FROM pgboss.job WHERE id = $1', [id]);
      expect(rows).toEqual([{ state: 'completed' }]);
      expect(rejections).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });
});
