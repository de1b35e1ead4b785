import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import { until } from '../until.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Jobs } from '../../src/core/jobs/jobs.js';
import { CHARTERS_SWEEP } from '../../src/modules/charters/charters.jobs.js';
import { projectRoot } from '../../src/paths.js';
import { bookNewSlot, charterCast } from '../factories/charters.js';
import { CARDS } from '../factories/payments.js';
import { builtMain, buildServer } from '../build.js';
import { createTestApp, type TestApp } from '../harness.js';

/**
 * The job queue across real server processes (`node src/main.ts`, as `npm start` runs the
 * build) on one PostgreSQL: a process is killed while its sweep is running; two others take the
 * lost job up again, and the overdue booking is declined exactly once.
 */

interface Server {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startServer(databaseUrl: string): Promise<Server> {
  const child = spawn(process.execPath, [builtMain], {
    cwd: projectRoot,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: databaseUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      FISHLOG_SCRYPT_COST: '10',
      FISHLOG_JOBS: 'true',
      FISHLOG_JOBS_POLL_SECONDS: '1',
      FISHLOG_JOBS_MAINTENANCE_SECONDS: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('job workers started') && /Server listening at/.test(output)) {
        clearTimeout(timer);
        resolve({ child, output: () => output, exited });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
}

describe('jobs across server processes', () => {
  let t: TestApp;
  const servers: Server[] = [];

  beforeAll(async () => {
    await buildServer(); // the servers below run the compiled dist/main.js, as `npm start` does
    t = await createTestApp();
  });
  afterAll(async () => {
    for (const server of servers) {
      if (server.child.exitCode === null && server.child.signalCode === null) {
        server.child.kill('SIGTERM');
        await server.exited;
      }
    }
    await t?.close();
  });

  it('declines an overdue booking exactly once, after a killed process lost the running sweep', { timeout: 240_000 }, async () => {
    const { captain, customer, listing } = await charterCast(t);
    const booked = await bookNewSlot(t, captain, listing, customer, CARDS.visa, 60);
    expect(booked.statusCode).toBe(201);
    const booking = booked.json() as { id: string; state: string; paymentId: string; depositCents: number };
    expect(booking).toMatchObject({ state: 'Pending', depositCents: expect.any(Number) });
    const owner = t.database.owner.pool;
    await owner.query("UPDATE charter_bookings SET accept_by = now() - interval '1 minute' WHERE id = $1", [booking.id]);

    // The first process's sweep will wait on the booking's row lock, held here.
    const lock = new pg.Client({ connectionString: t.testDatabase.url });
    await lock.connect();
    await lock.query('BEGIN');
    await lock.query('SELECT 1 FROM charter_bookings WHERE id = $1 FOR UPDATE', [booking.id]);

    const first = await startServer(t.testDatabase.url);
    servers.push(first);
    // What the schedule sends every minute, sent now (with a short expiry: the test need not wait a minute).
    await (t.app as unknown as { jobs: Jobs }).jobs.send(CHARTERS_SWEEP, {}, { expireInSeconds: 3 });
    const running = await until('the first process to start the sweep', async () => {
      const { rows } = await owner.query<{ id: string }>("SELECT id FROM pgboss.job WHERE name = 'charters.sweep' AND state = 'active'");
      return rows[0]?.id;
    });
    first.child.kill('SIGKILL');
    await first.exited;
    await lock.query('ROLLBACK');
    await lock.end();

    servers.push(...(await Promise.all([startServer(t.testDatabase.url), startServer(t.testDatabase.url)])));
    // More ticks meanwhile, as a schedule in every process would send them.
    for (let i = 0; i < 3; i++) await (t.app as unknown as { jobs: Jobs }).jobs.send(CHARTERS_SWEEP);

    const retried = await until('the lost sweep to run again and finish', async () => {
      const { rows } = await owner.query<{ state: string; retry_count: number; output: unknown }>(
        'SELECT state::text, retry_count, output FROM pgboss.job WHERE id = $1 UNION ALL SELECT state::text, retry_count, output FROM pgboss.archive WHERE id = $1',
        [running],
      );
      return rows[0]?.state === 'completed' ? rows[0] : undefined;
    }, 90_000);
    expect(retried.retry_count).toBeGreaterThanOrEqual(1);

    const { rows: bookings } = await owner.query('SELECT state, refunded_cents FROM charter_bookings WHERE id = $1', [booking.id]);
    expect(bookings).toEqual([{ state: 'Declined', refunded_cents: booking.depositCents }]);
    await new Promise((resolve) => setTimeout(resolve, 2500)); // the other ticks have run by now
    const { rows: refunds } = await owner.query('SELECT amount_cents FROM payment_refunds WHERE payment_id = $1', [booking.paymentId]);
    expect(refunds).toEqual([{ amount_cents: booking.depositCents }]);
    const { rows: audits } = await owner.query("SELECT actor_type, reason FROM audit_log WHERE action = 'charters.booking_declined' AND target_id = $1", [booking.id]);
    expect(audits).toEqual([{ actor_type: 'system', reason: 'The captain did not accept within 24 hours' }]);
    const { rows: notes } = await owner.query('SELECT type FROM notifications WHERE recipient_id = $1 AND path = $2 ORDER BY type', [customer.userId, `/api/charter/bookings/${booking.id}`]);
    expect(notes).toEqual([{ type: 'charters.booking_auto_declined' }, { type: 'payments.refund_issued' }]);
  });
});
