import { createUser, type TestUser } from './users.js';
import type { TestApp } from '../harness.js';

/** Factories of the tournaments module: organizers, tournaments in a given state, registrations, catches. */

export interface TestOrganizer extends TestUser {
  organizerId: string;
}

const HOUR = 3_600_000;

/** A user with an organizer profile in `status` (Verified by default; payments allowed unless told otherwise). */
export async function createOrganizer(
  t: TestApp,
  options: { status?: 'Pending' | 'Verified' | 'Rejected' | 'Suspended'; paymentsAllowed?: boolean; name?: string } = {},
): Promise<TestOrganizer> {
  const user = await createUser(t);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/tournament/organizers/apply',
    headers: user.headers,
    payload: { name: options.name ?? `Club of ${user.username}`, contactEmail: user.email, takesPayments: true },
  });
  if (res.statusCode !== 201) throw new Error(`apply failed: ${res.statusCode} ${res.body}`);
  const organizerId = res.json().id as string;
  await t.database.pool.query('UPDATE tournament_organizers SET status = $2, payments_allowed = $3 WHERE id = $1', [
    organizerId,
    options.status ?? 'Verified',
    options.paymentsAllowed ?? true,
  ]);
  return { ...user, organizerId };
}

/** Active species ids from the seeded catalogue. */
export async function speciesIds(t: TestApp, n = 3): Promise<string[]> {
  const rows = await t.database.pool.query('SELECT id FROM fish_species WHERE is_active ORDER BY common_name LIMIT $1', [n]);
  return rows.rows.map((r) => r.id as string);
}

export function tournamentBody(species: string[], overrides: Record<string, unknown> = {}) {
  const now = Date.now();
  return {
    name: 'Spring Bass Classic',
    description: 'Best 2 bass',
    waterBody: 'Lake Minnetonka',
    stateCode: 'US-MN',
    timeZone: 'America/Chicago',
    startsAt: new Date(now + 72 * HOUR).toISOString(),
    endsAt: new Date(now + 80 * HOUR).toISOString(),
    registrationDeadline: new Date(now + 60 * HOUR).toISOString(),
    capacity: 100,
    entryFeeCents: 2500,
    currency: 'USD',
    visibility: 'Public',
    format: 'CPR',
    divisions: [
      { name: 'Open', speciesIds: species.slice(0, 2), bestN: 2, minLengthInches: 10, penaltyRules: [{ code: 'late', description: 'Late check-in', points: 4 }] },
      { name: 'Youth', speciesIds: species.slice(0, 1), bestN: 1 },
    ],
    ...overrides,
  };
}

export interface TestTournament {
  id: string;
  body: Record<string, unknown> & { divisions: Array<{ id: string; name: string }> };
}

/** A tournament created through the API, then put in `status` (Approved by default) directly. */
export async function createTournament(
  t: TestApp,
  organizer: TestUser,
  options: { status?: string; overrides?: Record<string, unknown> } = {},
): Promise<TestTournament> {
  const species = await speciesIds(t);
  const res = await t.app.inject({ method: 'POST', url: '/api/tournament', headers: organizer.headers, payload: tournamentBody(species, options.overrides) });
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
  const body = res.json();
  const status = options.status ?? 'Approved';
  if (status !== body.status) await t.database.pool.query('UPDATE tournaments SET status = $2 WHERE id = $1', [body.id, status]);
  return { id: body.id, body: { ...body, status } };
}

/** Moves the tournament's window so that it is running now (started an hour ago, ends in `endsInHours`). */
export async function startTournament(t: TestApp, id: string, options: { endsInHours?: number; status?: string } = {}): Promise<void> {
  const now = Date.now();
  await t.database.pool.query('UPDATE tournaments SET registration_deadline = $2, starts_at = $3, ends_at = $4, status = $5 WHERE id = $1', [
    id,
    new Date(now - 2 * HOUR),
    new Date(now - HOUR),
    new Date(now + (options.endsInHours ?? 4) * HOUR),
    options.status ?? 'InProgress',
  ]);
}

/** Moves the tournament's window into the past (ended a minute ago). */
export async function endTournament(t: TestApp, id: string): Promise<void> {
  const now = Date.now();
  await t.database.pool.query('UPDATE tournaments SET registration_deadline = $2, starts_at = $2, ends_at = $3 WHERE id = $1', [id, new Date(now - 5 * HOUR), new Date(now - 60_000)]);
}

export async function register(t: TestApp, user: TestUser, tournamentId: string, divisionId: string, anglerName?: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/tournament/${tournamentId}/register`,
    headers: user.headers,
    // A test card of the local payments provider (charged when the tournament has an entry fee).
    payload: { divisionId, paymentMethod: '4242424242424242', ...(anglerName ? { anglerName } : {}) },
  });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  return res.json() as { id: string; divisionId: string; anglerName: string };
}

let photo = 0;
/** A distinct photo hash (64 hex chars). */
export function photoHash(): string {
  return (++photo).toString(16).padStart(64, '0');
}

/** A catch submitted by `user` (minutes after the start) and judged Verified by `organizer` unless `verify: false`. */
export async function submitCatch(
  t: TestApp,
  user: TestUser,
  organizer: TestUser | null,
  tournamentId: string,
  body: { divisionId: string; speciesId: string; lengthInches?: number; weightLb?: number; minutesAfterStart?: number },
): Promise<{ id: string; status: string }> {
  const { rows } = await t.database.pool.query('SELECT starts_at FROM tournaments WHERE id = $1', [tournamentId]);
  const capturedAt = new Date((rows[0].starts_at as Date).getTime() + (body.minutesAfterStart ?? 10) * 60_000).toISOString();
  const { minutesAfterStart: _, ...rest } = body;
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/tournament/${tournamentId}/catches`,
    headers: user.headers,
    payload: { ...rest, capturedAt, photoUrl: 'https://example.com/p.jpg', photoHash: photoHash() },
  });
  if (res.statusCode !== 201) throw new Error(`submit failed: ${res.statusCode} ${res.body}`);
  const submitted = res.json();
  if (!organizer) return submitted;
  const judged = await t.app.inject({
    method: 'POST',
    url: `/api/tournament/${tournamentId}/catches/${submitted.id}/judge`,
    headers: organizer.headers,
    payload: { decision: 'Verified' },
  });
  if (judged.statusCode !== 200) throw new Error(`judge failed: ${judged.statusCode} ${judged.body}`);
  return judged.json();
}
