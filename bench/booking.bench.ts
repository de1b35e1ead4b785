/**
 * Bookings: what the notification outbox and the job queue add to booking a charter trip.
 *
 * One service process (jobs on, as `npm start` runs it) books free slots of a listing without a
 * deposit, from 4 clients that each send the next booking when the previous answer arrived, in
 * alternating windows: **on** (as shipped: the booking's transaction writes the event and the
 * captain's in-app notification, the commit wakes the dispatch job, which queues and sends the
 * captain's mail to the local mailbox) and **off** (the same requests with two PostgreSQL rules
 * `ON INSERT … DO INSTEAD NOTHING` on `notification_events` and `notifications`: the statements are
 * still sent, but no row, trigger, NOTIFY, dispatch or mail follows). Before each window the
 * previous window's deliveries are drained, so a window pays only for its own bookings.
 * The figure is p50(on) − p50(off) with one client, to the microsecond (client-side timing, not
 * autocannon's whole milliseconds): what a booking waits for more. CPU per booking of the service
 * and of PostgreSQL is reported beside it, and the same with 4 clients (details.byClients['4']): on
 * a 2-core machine those saturate the cores, and the delivery's CPU (the captain's mail composed and
 * stored, its job fetched and completed) then queues in front of bookings — that is a throughput
 * cost, read from the CPU figures, not a latency of the booking itself.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { atMost, BenchServer, benchDatabase, cpuSnapshot, log, round, SECONDS, viewerCreator, type BenchResult } from './lib.js';

const CUSTOMERS = 4;
const SLOTS = 60_000;
const WINDOWS = Number(process.env.BENCH_BOOKING_WINDOWS ?? 6);

async function seed(pool: pg.Pool): Promise<void> {
  const create = viewerCreator(pool);
  await create('bench_captain');
  for (let i = 1; i <= CUSTOMERS; i++) await create(`bench_customer_${i}`);
}

/** The captain's application (verified by SQL: the bench has no admin), listing and free slots. */
async function prepareListing(server: BenchServer, pool: pg.Pool): Promise<{ listingId: string; tripTypeId: string }> {
  const existing = await pool.query<{ id: string; trip_types: Array<{ id: string }> }>(`SELECT id, trip_types FROM charter_listings WHERE title = 'Bench charter' LIMIT 1`);
  if (existing.rows[0]) return { listingId: existing.rows[0].id, tripTypeId: existing.rows[0].trip_types[0]!.id };
  const captain = await server.login('bench_captain');
  const base = `http://127.0.0.1:${server.servicePort}`;
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${base}${path}`, { method: 'POST', headers: { ...captain, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  await post('/api/charter/captains', {
    licenceType: 'OUPV',
    licenceNumber: '1234567',
    licenceExpiresOn: '2099-12-31',
    vesselName: 'Bench Boat',
    vesselRegistration: 'MN 1234 AB',
    insuranceCarrier: 'Example Marine Insurance',
    insurancePolicyNumber: 'EMI-1',
    insuranceExpiresOn: '2099-12-31',
  });
  await pool.query(`UPDATE charter_captains SET status = 'Verified' WHERE user_id = (SELECT id FROM users WHERE username = 'bench_captain')`);
  const listing = await post('/api/charter/listings', {
    title: 'Bench charter',
    description: 'Walleye on Lake Vermilion.',
    boatName: 'Bench Boat',
    homePort: 'Tower',
    state: 'US-MN',
    location: { latitude: 47.85, longitude: -92.3 },
    timeZone: 'America/Chicago',
    tripTypes: [{ name: 'Half day', durationHours: 4, pricing: 'PerTrip', priceCents: 45000, maxPartySize: 4 }],
    freeCancellationDays: 7,
    lateCancellationRefundPercent: 50,
    depositPercent: 0,
    instantBook: false,
  });
  const listingId = listing.id as string;
  await pool.query(
    `INSERT INTO charter_slots (id, listing_id, starts_at) SELECT gen_random_uuid(), $1, date_trunc('day', now()) + interval '2 days' + g * interval '10 minutes' FROM generate_series(1, $2::int) g`,
    [listingId, SLOTS],
  );
  await pool.query('VACUUM ANALYZE charter_slots');
  return { listingId, tripTypeId: (listing.tripTypes as Array<{ id: string }>)[0]!.id };
}

async function freeSlots(pool: pg.Pool, listingId: string): Promise<string[]> {
  const { rows } = await pool.query<{ id: string }>(
    `SELECT s.id FROM charter_slots s WHERE s.listing_id = $1 AND NOT EXISTS (SELECT 1 FROM charter_bookings b WHERE b.slot_id = s.id) ORDER BY s.starts_at`,
    [listingId],
  );
  return rows.map((r) => r.id);
}

async function setOutbox(pool: pg.Pool, on: boolean): Promise<void> {
  for (const table of ['notifications', 'notification_events']) {
    await pool.query(on ? `DROP RULE IF EXISTS bench_outbox_off ON ${table}` : `CREATE OR REPLACE RULE bench_outbox_off AS ON INSERT TO ${table} DO INSTEAD NOTHING`);
  }
}

/** Waits until every committed event is dispatched and its mail jobs are done (at most 60 s). */
async function drain(pool: pg.Pool): Promise<void> {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    const { rows } = await pool.query<{ waiting: number }>(
      `SELECT (SELECT count(*) FROM notification_events WHERE dispatched_at IS NULL)::int
            + (SELECT count(*) FROM pgboss.job WHERE name LIKE 'notifications.%' AND state IN ('created', 'retry', 'active'))::int AS waiting`,
    );
    if (rows[0]!.waiting === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  log('deliveries did not drain within 60 s');
}

interface Window {
  samples: number[];
  cpu: { service: number; postgres: number };
}

/** One client per token booking the next free slot, each after the previous answer, for `seconds`. */
async function bookFor(server: BenchServer, slots: string[], listing: { listingId: string; tripTypeId: string }, tokens: Record<string, string>[], seconds: number): Promise<Window> {
  const url = `http://127.0.0.1:${server.servicePort}/api/charter/listings/${listing.listingId}/book`;
  const samples: number[] = [];
  const before = await cpuSnapshot(server);
  const until = performance.now() + seconds * 1000;
  const client = async (headers: Record<string, string>) => {
    while (performance.now() < until) {
      const slotId = slots.pop();
      if (!slotId) throw new Error(`out of slots: raise SLOTS (${SLOTS}) or lower BENCH_BOOKING_WINDOWS`);
      const started = performance.now();
      const res = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': randomUUID() }, body: JSON.stringify({ slotId, tripTypeId: listing.tripTypeId, partySize: 2 }) });
      const body = await res.text();
      if (res.status !== 201) throw new Error(`book: ${res.status} ${body}`);
      samples.push(performance.now() - started);
    }
  };
  await Promise.all(tokens.map(client));
  const after = await cpuSnapshot(server);
  return { samples, cpu: { service: after.service - before.service, postgres: after.postgres - before.postgres } };
}

function summary(windows: Window[]) {
  const p50s = windows.map((w) => {
    const sorted = [...w.samples].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)]!;
  });
  const all = windows.flatMap((w) => w.samples).sort((a, b) => a - b);
  const bookings = all.length;
  const sortedP50s = [...p50s].sort((a, b) => a - b);
  return {
    bookings,
    /** The median of the windows' medians (ms). */
    p50: round(sortedP50s[Math.floor(sortedP50s.length / 2)]!),
    p99: round(all[Math.floor(all.length * 0.99)]!),
    windowP50s: p50s.map(round),
    cpuMsPerBooking: {
      service: round(windows.reduce((s, w) => s + w.cpu.service, 0) / bookings),
      postgres: round(windows.reduce((s, w) => s + w.cpu.postgres, 0) / bookings),
    },
  };
}

export default async function run(): Promise<BenchResult> {
  const url = await benchDatabase('booking', seed);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const server = await BenchServer.start(url);
  try {
    const listing = await prepareListing(server, pool);
    const tokens: Record<string, string>[] = [];
    for (let i = 1; i <= CUSTOMERS; i++) tokens.push(await server.login(`bench_customer_${i}`));
    const slots = (await freeSlots(pool, listing.listingId)).reverse();
    const seconds = Math.max(2, Math.round(SECONDS / 2));
    // Warm-up of both paths (the first seconds of a process compile them).
    for (const on of [true, false]) {
      await setOutbox(pool, on);
      await bookFor(server, slots, listing, tokens, 2);
      await drain(pool);
    }
    const measured: Record<string, { on: ReturnType<typeof summary>; off: ReturnType<typeof summary>; added: number }> = {};
    for (const clients of [1, CUSTOMERS]) {
      const windows: Record<'on' | 'off', Window[]> = { on: [], off: [] };
      for (let r = 0; r < WINDOWS; r++) {
        // on, off, off, on, …: a drifting machine weighs on both alike.
        const order: Array<'on' | 'off'> = r % 2 === 0 ? ['on', 'off'] : ['off', 'on'];
        for (const state of order) {
          await setOutbox(pool, state === 'on');
          await drain(pool);
          windows[state].push(await bookFor(server, slots, listing, tokens.slice(0, clients), seconds));
        }
      }
      const on = summary(windows.on);
      const off = summary(windows.off);
      measured[`${clients}`] = { on, off, added: round(on.p50 - off.p50) };
    }
    await setOutbox(pool, true);
    return {
      name: 'booking',
      figures: [atMost('bookings: p50 added by the outbox and the queue', measured['1']!.added, 1, 'ms')],
      details: { byClients: measured, windowSeconds: seconds, windows: WINDOWS },
    };
  } finally {
    await setOutbox(pool, true).catch(() => undefined);
    await pool.end();
    await server.stop();
  }
}
