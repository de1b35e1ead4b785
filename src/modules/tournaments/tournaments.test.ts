import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, MISSING_ID, type TestUser, createOrganizer, createTournament, endTournament, register, speciesIds, startTournament, tournamentBody, type TestOrganizer } from '../../../test/factories.js';

let t: TestApp;
let organizer: TestOrganizer;
let angler: TestUser;
let other: TestUser;
let species: string[];

beforeAll(async () => {
  t = await createTestApp();
  organizer = await createOrganizer(t);
  angler = await createUser(t);
  other = await createUser(t);
  species = await speciesIds(t);
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PUT';
const call = (method: Method, url: string, user: TestUser | null, payload?: unknown) =>
  t.app.inject({ method, url, ...(user ? { headers: user.headers } : {}), ...(payload === undefined ? {} : { payload: payload as object }) });

describe('organizer applications', () => {
  it('a user applies, sees the profile, cannot apply twice, and may apply again once rejected', async () => {
    const user = await createUser(t);
    expect((await call('GET', '/api/tournament/organizers/me', user)).json()).toMatchObject({ code: 'tournaments.organizer_profile_missing', status: 404 });
    const res = await call('POST', '/api/tournament/organizers/apply', user, { name: 'Bass Club', contactEmail: 'club@example.com', takesPayments: true });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(String),
      userId: user.userId,
      name: 'Bass Club',
      contactEmail: 'club@example.com',
      contactPhone: null,
      website: null,
      takesPayments: true,
      paymentsAllowed: false,
      status: 'Pending',
      statusReason: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await call('GET', '/api/tournament/organizers/me', user)).json()).toMatchObject({ status: 'Pending', name: 'Bass Club' });
    const again = await call('POST', '/api/tournament/organizers/apply', user, { name: 'Bass Club 2', contactEmail: 'club@example.com' });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('tournaments.organizer_already_applied');
    await t.database.pool.query(`UPDATE tournament_organizers SET status = 'Rejected', status_reason = 'no' WHERE user_id = $1`, [user.userId]);
    const retry = await call('POST', '/api/tournament/organizers/apply', user, { name: 'Bass Club 2', contactEmail: 'club@example.com' });
    expect(retry.statusCode).toBe(201);
    expect(retry.json()).toMatchObject({ name: 'Bass Club 2', status: 'Pending', statusReason: null });
    expect((await call('POST', '/api/tournament/organizers/apply', null, { name: 'x', contactEmail: 'x@example.com' })).statusCode).toBe(401);
    expect((await call('POST', '/api/tournament/organizers/apply', user, { name: 'x', contactEmail: 'not-an-email' })).statusCode).toBe(400);
  });
});

describe('POST /api/tournament', () => {
  it('creates a tournament awaiting approval, with divisions and an identifier code', async () => {
    const res = await call('POST', '/api/tournament', organizer, tournamentBody(species));
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      organizer: { id: organizer.organizerId, name: expect.any(String) },
      name: 'Spring Bass Classic',
      stateCode: 'US-MN',
      entryFeeCents: 2500,
      currency: 'USD',
      format: 'CPR',
      status: 'PendingApproval',
      refundWindowHours: 48,
      registrationsOpen: false,
      registrationsCount: 0,
      resultsPublishedAt: null,
    });
    expect(body.identifierCode).toMatch(/^FL-[A-Z2-9]{6}$/);
    expect(body.divisions).toEqual([
      {
        id: expect.any(String),
        name: 'Open',
        speciesIds: species.slice(0, 2),
        measure: 'Length',
        unit: 'in',
        bestN: 2,
        minLengthInches: 10,
        penaltyRules: [{ code: 'late', description: 'Late check-in', points: 4 }],
      },
      { id: expect.any(String), name: 'Youth', speciesIds: species.slice(0, 1), measure: 'Length', unit: 'in', bestN: 1, minLengthInches: null, penaltyRules: [] },
    ]);
    const draft = await call('POST', '/api/tournament', organizer, { ...tournamentBody(species), draft: true });
    expect(draft.json().status).toBe('Draft');
  });

  it('refuses users who are not verified organizers, saying how to get verified', async () => {
    const res = await call('POST', '/api/tournament', other, tournamentBody(species));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'tournaments.organizer_not_verified', detail: expect.stringContaining('POST /api/tournament/organizers/apply') });
    for (const status of ['Pending', 'Suspended', 'Rejected'] as const) {
      const o = await createOrganizer(t, { status });
      const refused = await call('POST', '/api/tournament', o, tournamentBody(species));
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe('tournaments.organizer_not_verified');
    }
    expect((await call('POST', '/api/tournament', null, tournamentBody(species))).statusCode).toBe(401);
  });

  it('paid tournaments need an organizer verified for payments; free ones do not', async () => {
    const o = await createOrganizer(t, { paymentsAllowed: false });
    const paid = await call('POST', '/api/tournament', o, tournamentBody(species));
    expect(paid.statusCode).toBe(403);
    expect(paid.json()).toMatchObject({ code: 'tournaments.payments_not_allowed', errors: [{ pointer: '/entryFeeCents', in: 'body' }] });
    expect((await call('POST', '/api/tournament', o, tournamentBody(species, { entryFeeCents: 0 }))).statusCode).toBe(201);
  });

  it('validates the schedule, time zone, species and divisions', async () => {
    const past = await call('POST', '/api/tournament', organizer, tournamentBody(species, { startsAt: new Date(Date.now() - 60_000).toISOString() }));
    expect(past.json()).toMatchObject({ status: 400, code: 'tournaments.bad_schedule', errors: [{ pointer: '/startsAt' }] });
    const b = tournamentBody(species);
    const backwards = await call('POST', '/api/tournament', organizer, { ...b, endsAt: b.startsAt });
    expect(backwards.json()).toMatchObject({ code: 'tournaments.bad_schedule', errors: [{ pointer: '/endsAt' }] });
    const late = await call('POST', '/api/tournament', organizer, { ...b, registrationDeadline: b.endsAt });
    expect(late.json()).toMatchObject({ code: 'tournaments.bad_schedule', errors: [{ pointer: '/registrationDeadline' }] });
    expect((await call('POST', '/api/tournament', organizer, { ...b, timeZone: 'Mars/Olympus' })).json().code).toBe('tournaments.bad_time_zone');
    const unknownSpecies = await call('POST', '/api/tournament', organizer, { ...b, divisions: [{ name: 'A', speciesIds: [MISSING_ID], bestN: 1 }] });
    expect(unknownSpecies.statusCode).toBe(400);
    expect(unknownSpecies.json().errors[0].pointer).toBe('/divisions/0/speciesIds/0');
    const twice = await call('POST', '/api/tournament', organizer, { ...b, divisions: [b.divisions[0], { ...b.divisions[0], name: 'open' }] });
    expect(twice.json().code).toBe('tournaments.duplicate_division');
    const cprWeight = await call('POST', '/api/tournament', organizer, { ...b, divisions: [{ ...b.divisions[0], measure: 'weight' }] });
    expect(cprWeight.json()).toMatchObject({ code: 'tournaments.bad_division', errors: [{ pointer: '/divisions/0/measure' }] });
    expect((await call('POST', '/api/tournament', organizer, { ...b, entryFeeCents: 25.5 })).statusCode).toBe(400);
  });
});

describe('visibility: GET /api/tournament and /api/tournament/{id}', () => {
  it('approved public ones to everyone, own ones to the organizer, registered ones to the registrant; 403 otherwise, 404 when missing', async () => {
    const o = await createOrganizer(t);
    const approved = await createTournament(t, o, { overrides: { name: 'Visible Approved Zander' } });
    const unlisted = await createTournament(t, o, { overrides: { name: 'Visible Unlisted Zander', visibility: 'Unlisted' } });
    const pending = await createTournament(t, o, { status: 'PendingApproval', overrides: { name: 'Visible Pending Zander' } });
    const suspended = await createTournament(t, o, { overrides: { name: 'Visible Suspended Zander' } });
    const reg = await register(t, angler, suspended.id, suspended.body.divisions[0]!.id);
    expect(reg.anglerName).toBe(angler.username);
    await t.database.pool.query(`UPDATE tournaments SET status = 'Suspended' WHERE id = $1`, [suspended.id]);

    const names = async (user: TestUser) => (await call('GET', '/api/tournament?q=Visible&pageSize=100', user)).json().map((x: { name: string }) => x.name).sort();
    expect(await names(other)).toEqual(['Visible Approved Zander']);
    expect(await names(o)).toEqual(['Visible Approved Zander', 'Visible Pending Zander', 'Visible Suspended Zander', 'Visible Unlisted Zander']);
    expect(await names(angler)).toEqual(['Visible Approved Zander', 'Visible Suspended Zander']);
    const mine = (await call('GET', '/api/tournament?q=Visible&mine=true', angler)).json();
    expect(mine.map((x: { name: string }) => x.name)).toEqual(['Visible Suspended Zander']);

    const get = (id: string, user: TestUser) => call('GET', `/api/tournament/${id}`, user);
    expect((await get(approved.id, other)).json()).toMatchObject({ id: approved.id, status: 'Approved', registrationsOpen: true, registrationsCount: 0 });
    expect((await get(unlisted.id, other)).statusCode).toBe(200);
    const hidden = await get(pending.id, other);
    expect(hidden.statusCode).toBe(403);
    expect(hidden.json()).toMatchObject({ code: 'tournaments.not_visible' });
    expect((await get(pending.id, o)).json().status).toBe('PendingApproval');
    expect((await get(suspended.id, angler)).json()).toMatchObject({ status: 'Suspended', registrationsCount: 1 });
    expect((await get(suspended.id, other)).statusCode).toBe(403);
    const missing = await get(MISSING_ID, other);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('tournaments.not_found');
    expect((await call('GET', `/api/tournament/${approved.id}`, null)).statusCode).toBe(401);
  });

  it('filters by status, state, date range and species, paginated', async () => {
    const o = await createOrganizer(t);
    const a = await createTournament(t, o, { overrides: { name: 'Filter Wisconsin', stateCode: 'US-WI', divisions: [{ name: 'A', speciesIds: [species[2]], bestN: 1 }] } });
    await createTournament(t, o, { overrides: { name: 'Filter Minnesota' } });
    const q = (query: string) => call('GET', `/api/tournament?q=Filter&${query}`, other).then((r) => r.json().map((x: { name: string }) => x.name));
    expect(await q('state=US-WI')).toEqual(['Filter Wisconsin']);
    expect(await q(`speciesId=${species[2]}`)).toEqual(['Filter Wisconsin']);
    expect((await q('status=Approved')).sort()).toEqual(['Filter Minnesota', 'Filter Wisconsin']);
    expect(await q('status=Completed')).toEqual([]);
    expect(await q(`to=${new Date(Date.now() + 3600_000).toISOString()}`)).toEqual([]);
    expect((await q(`from=${new Date().toISOString()}`)).length).toBe(2);
    const page = await call('GET', '/api/tournament?q=Filter&pageSize=1', other);
    expect(page.headers['x-total-count']).toBe('2');
    expect(page.json()).toHaveLength(1);
    expect(a.id).toBeTruthy();
  });
});

describe('PUT /api/tournament/{id}', () => {
  it('the organizer edits before the start; others get 403; missing 404', async () => {
    const { id, body } = await createTournament(t, organizer);
    const update = { ...tournamentBody(species), name: 'Renamed', capacity: 10, divisions: [{ ...tournamentBody(species).divisions[0], id: body.divisions[0]!.id, bestN: 3 }] };
    const res = await call('PUT', `/api/tournament/${id}`, organizer, update);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Renamed', capacity: 10, divisions: [{ id: body.divisions[0]!.id, name: 'Open', bestN: 3 }] });
    const refused = await call('PUT', `/api/tournament/${id}`, other, update);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('tournaments.organizer_only');
    expect((await call('PUT', `/api/tournament/${MISSING_ID}`, organizer, update)).statusCode).toBe(404);
  });

  it('a division with registrations cannot be removed', async () => {
    const { id, body } = await createTournament(t, organizer);
    await register(t, angler, id, body.divisions[1]!.id);
    const res = await call('PUT', `/api/tournament/${id}`, organizer, { ...tournamentBody(species), divisions: [{ ...tournamentBody(species).divisions[0], id: body.divisions[0]!.id }] });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('tournaments.division_in_use');
  });

  it('after the start, rules that change outcomes are frozen: 409 naming them; name and description still change', async () => {
    const { id } = await createTournament(t, organizer);
    await startTournament(t, id);
    const current = (await call('GET', `/api/tournament/${id}`, organizer)).json();
    const same = {
      name: current.name,
      description: current.description,
      waterBody: current.waterBody,
      stateCode: current.stateCode,
      timeZone: current.timeZone,
      startsAt: current.startsAt,
      endsAt: current.endsAt,
      registrationDeadline: current.registrationDeadline,
      capacity: current.capacity,
      entryFeeCents: current.entryFeeCents,
      currency: current.currency,
      visibility: current.visibility,
      format: current.format,
      refundWindowHours: current.refundWindowHours,
      divisions: current.divisions.map((d: Record<string, unknown>) => ({ id: d.id, name: d.name, speciesIds: d.speciesIds, measure: d.measure, bestN: d.bestN, minLengthInches: d.minLengthInches, penaltyRules: d.penaltyRules })),
    };
    const frozen = await call('PUT', `/api/tournament/${id}`, organizer, { ...same, capacity: 5, divisions: [{ ...same.divisions[0], bestN: 5 }, same.divisions[1]] });
    expect(frozen.statusCode).toBe(409);
    expect(frozen.json()).toMatchObject({ code: 'tournaments.rules_frozen', detail: expect.stringContaining('capacity, divisions') });
    const ok = await call('PUT', `/api/tournament/${id}`, organizer, { ...same, name: 'Renamed mid-event', description: 'Windy' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ name: 'Renamed mid-event', description: 'Windy', capacity: current.capacity });
  });

  it('drafts are submitted for approval by their organizer only', async () => {
    const res = await call('POST', '/api/tournament', organizer, { ...tournamentBody(species), draft: true });
    const id = res.json().id;
    expect((await call('POST', `/api/tournament/${id}/submit`, other)).statusCode).toBe(403);
    const submitted = await call('POST', `/api/tournament/${id}/submit`, organizer);
    expect(submitted.json().status).toBe('PendingApproval');
    expect((await call('POST', `/api/tournament/${id}/submit`, organizer)).json().code).toBe('tournaments.cannot_submit');
  });
});

const CARD = '4242424242424242';
const DECLINED_CARD = '4000000000000002';

async function paymentOf(registrationId: string) {
  const { rows } = await t.database.pool.query(
    'SELECT kind, status, amount_cents, refunded_cents, payer_id, related_type FROM payments WHERE related_id = $1',
    [registrationId],
  );
  return rows;
}

describe('registrations', () => {
  it('registers once per person per division, charging the entry fee through the payments service', async () => {
    const { id, body } = await createTournament(t, organizer);
    const user = await createUser(t);
    const res = await call('POST', `/api/tournament/${id}/register`, user, { paymentMethod: CARD, divisionId: body.divisions[0]!.id, anglerName: 'Jo Angler' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(String),
      tournamentId: id,
      divisionId: body.divisions[0]!.id,
      userId: user.userId,
      anglerName: 'Jo Angler',
      status: 'Active',
      fee: { amountCents: 2500, currency: 'USD', status: 'Paid', paymentId: expect.any(String) },
      cancelledAt: null,
      createdAt: expect.any(String),
    });
    const fee = await t.database.pool.query('SELECT amount_cents, status, external_payment_id FROM tournament_fee_payments WHERE registration_id = $1', [res.json().id]);
    expect(fee.rows).toEqual([{ amount_cents: 2500, status: 'Paid', external_payment_id: res.json().fee.paymentId }]);
    expect(await paymentOf(res.json().id)).toEqual([
      { kind: 'TournamentFee', status: 'Succeeded', amount_cents: 2500, refunded_cents: 0, payer_id: user.userId, related_type: 'tournament_registration' },
    ]);
    const twice = await call('POST', `/api/tournament/${id}/register`, user, { paymentMethod: CARD, divisionId: body.divisions[0]!.id });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('tournaments.already_registered');
    expect((await call('POST', `/api/tournament/${id}/register`, user, { paymentMethod: CARD, divisionId: body.divisions[1]!.id })).statusCode).toBe(201);
    expect((await call('POST', `/api/tournament/${id}/register`, user, { paymentMethod: CARD, divisionId: MISSING_ID })).json().code).toBe('tournaments.unknown_division');
  });

  it('needs a payment method for a paid tournament; a declined card leaves no registration and no charge', async () => {
    const { id, body } = await createTournament(t, organizer);
    const user = await createUser(t);
    const division = body.divisions[0]!.id;
    const missing = await call('POST', `/api/tournament/${id}/register`, user, { divisionId: division });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'tournaments.payment_method_required', errors: [{ pointer: '/paymentMethod', in: 'body' }] });
    const declined = await call('POST', `/api/tournament/${id}/register`, user, { divisionId: division, paymentMethod: DECLINED_CARD });
    expect(declined.statusCode).toBe(402);
    expect(declined.json()).toMatchObject({ code: 'tournaments.payment_declined', detail: expect.stringContaining('card_declined') });
    const { rows } = await t.database.pool.query(
      `SELECT r.status, f.status AS fee FROM tournament_registrations r JOIN tournament_fee_payments f ON f.registration_id = r.id WHERE r.tournament_id = $1 AND r.user_id = $2`,
      [id, user.userId],
    );
    expect(rows).toEqual([{ status: 'Cancelled', fee: 'Declined' }]);
    expect((await call('GET', `/api/tournament/${id}/registrations`, user)).json()).toEqual([expect.objectContaining({ status: 'Cancelled', fee: expect.objectContaining({ status: 'Declined' }) })]);
    // Another card: registered (the declined attempt does not count as a registration).
    const again = await call('POST', `/api/tournament/${id}/register`, user, { divisionId: division, paymentMethod: CARD });
    expect(again.statusCode).toBe(201);
    expect(again.json().fee).toMatchObject({ status: 'Paid' });
    // A free tournament needs no card.
    const free = await createTournament(t, organizer, { overrides: { entryFeeCents: 0 } });
    const freeReg = await call('POST', `/api/tournament/${free.id}/register`, user, { divisionId: free.body.divisions[0]!.id });
    expect(freeReg.statusCode).toBe(201);
    expect(freeReg.json().fee).toBeNull();
    expect(await paymentOf(freeReg.json().id)).toEqual([]);
  });

  it('refuses the organizer, unpublished tournaments, closed registrations and missing tournaments', async () => {
    const { id, body } = await createTournament(t, organizer);
    const division = body.divisions[0]!.id;
    expect((await call('POST', `/api/tournament/${id}/register`, organizer, { paymentMethod: CARD, divisionId: division })).json()).toMatchObject({ status: 409, code: 'tournaments.organizer_cannot_register' });
    const pending = await createTournament(t, organizer, { status: 'PendingApproval' });
    const hidden = await call('POST', `/api/tournament/${pending.id}/register`, other, { paymentMethod: CARD, divisionId: pending.body.divisions[0]!.id });
    expect(hidden.json()).toMatchObject({ status: 403, code: 'tournaments.not_visible' });
    await t.database.pool.query('UPDATE tournaments SET registration_deadline = now() - interval \'1 minute\' WHERE id = $1', [id]);
    const late = await call('POST', `/api/tournament/${id}/register`, other, { paymentMethod: CARD, divisionId: division });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ code: 'tournaments.registration_closed', detail: expect.stringContaining('deadline') });
    const started = await createTournament(t, organizer);
    await startTournament(t, started.id);
    const running = await call('POST', `/api/tournament/${started.id}/register`, other, { paymentMethod: CARD, divisionId: started.body.divisions[0]!.id });
    expect(running.json()).toMatchObject({ status: 409, code: 'tournaments.not_open' });
    expect((await call('POST', `/api/tournament/${MISSING_ID}/register`, other, { paymentMethod: CARD, divisionId: division })).statusCode).toBe(404);
    expect((await call('POST', `/api/tournament/${id}/register`, null, { paymentMethod: CARD, divisionId: division })).statusCode).toBe(401);
  });

  it('holds capacity and one registration per person under 50 concurrent registrations', async () => {
    const { id, body } = await createTournament(t, organizer, { overrides: { capacity: 20 } });
    const division = body.divisions[0]!.id;
    const users = await Promise.all(Array.from({ length: 40 }, () => createUser(t)));
    // 40 distinct anglers plus 10 repeated attempts of the first 10 anglers: 50 in parallel.
    const attempts = [...users, ...users.slice(0, 10)].map((u) => call('POST', `/api/tournament/${id}/register`, u, { paymentMethod: CARD, divisionId: division }));
    const results = await Promise.all(attempts);
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(statuses.filter((s) => s === 409)).toHaveLength(30);
    expect(new Set(results.filter((r) => r.statusCode === 409).map((r) => r.json().code))).toEqual(new Set(['tournaments.full', 'tournaments.already_registered']));
    const { rows } = await t.database.pool.query(`SELECT count(*)::int AS n, count(DISTINCT user_id)::int AS people FROM tournament_registrations WHERE tournament_id = $1 AND status = 'Active'`, [id]);
    expect(rows[0]).toEqual({ n: 20, people: 20 });
    expect((await t.database.pool.query('SELECT count(*)::int AS n FROM tournament_fee_payments WHERE tournament_id = $1', [id])).rows[0].n).toBe(20);
    const charged = await t.database.pool.query(
      `SELECT count(*)::int AS n FROM payments p JOIN tournament_registrations r ON r.id = p.related_id WHERE r.tournament_id = $1 AND p.status = 'Succeeded'`,
      [id],
    );
    expect(charged.rows[0].n).toBe(20);
    const view = (await call('GET', `/api/tournament/${id}`, other)).json();
    expect(view).toMatchObject({ registrationsCount: 20, registrationsOpen: false });
  });

  it('lists: the organizer sees all, a registrant only their own, another user none; one registration for organizer or registrant only', async () => {
    const { id, body } = await createTournament(t, organizer);
    const a = await createUser(t);
    const b = await createUser(t);
    const ra = await register(t, a, id, body.divisions[0]!.id, 'Angler A');
    await register(t, b, id, body.divisions[0]!.id, 'Angler B');
    const all = await call('GET', `/api/tournament/${id}/registrations`, organizer);
    expect(all.json().map((r: { anglerName: string }) => r.anglerName)).toEqual(['Angler A', 'Angler B']);
    expect(all.headers['x-total-count']).toBe('2');
    const own = (await call('GET', `/api/tournament/${id}/registrations`, a)).json();
    expect(own).toEqual([expect.objectContaining({ id: ra.id, anglerName: 'Angler A', userId: a.userId })]);
    expect((await call('GET', `/api/tournament/${id}/registrations`, other)).json()).toEqual([]);
    expect((await call('GET', `/api/tournament/${id}/registrations/${ra.id}`, organizer)).json()).toMatchObject({ id: ra.id, anglerName: 'Angler A' });
    expect((await call('GET', `/api/tournament/${id}/registrations/${ra.id}`, a)).json()).toMatchObject({ id: ra.id, fee: { status: 'Paid' } });
    const foreign = await call('GET', `/api/tournament/${id}/registrations/${ra.id}`, b);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().code).toBe('tournaments.registration_not_yours');
    expect((await call('GET', `/api/tournament/${id}/registrations/${MISSING_ID}`, organizer)).statusCode).toBe(404);
    expect((await call('GET', `/api/tournament/${MISSING_ID}/registrations/${ra.id}`, a)).statusCode).toBe(404);
    const pending = await createTournament(t, organizer, { status: 'PendingApproval' });
    expect((await call('GET', `/api/tournament/${pending.id}/registrations`, other)).statusCode).toBe(403);
  });

  it('cancellation: refunded up to the refund window before the start, forfeited after, refused once started', async () => {
    const { id, body } = await createTournament(t, organizer);
    const early = await register(t, angler, id, body.divisions[0]!.id);
    const lateUser = await createUser(t);
    const late = await register(t, lateUser, id, body.divisions[0]!.id);
    expect((await call('POST', `/api/tournament/${id}/registrations/${early.id}/cancel`, other)).statusCode).toBe(403);
    expect((await call('POST', `/api/tournament/${id}/registrations/${early.id}/cancel`, organizer)).json().code).toBe('tournaments.registration_not_yours');
    const refunded = await call('POST', `/api/tournament/${id}/registrations/${early.id}/cancel`, angler);
    expect(refunded.statusCode).toBe(200);
    expect(refunded.json()).toMatchObject({ status: 'Cancelled', cancelledAt: expect.any(String), fee: { status: 'Refunded', amountCents: 2500 } });
    expect(await paymentOf(early.id)).toEqual([expect.objectContaining({ status: 'Refunded', amount_cents: 2500, refunded_cents: 2500 })]);
    expect((await call('POST', `/api/tournament/${id}/registrations/${early.id}/cancel`, angler)).json().code).toBe('tournaments.registration_cancelled');
    // 24 h before the start: inside the 48 h no-refund window.
    await t.database.pool.query(`UPDATE tournaments SET registration_deadline = now(), starts_at = now() + interval '24 hours' WHERE id = $1`, [id]);
    const forfeited = await call('POST', `/api/tournament/${id}/registrations/${late.id}/cancel`, lateUser);
    expect(forfeited.json()).toMatchObject({ status: 'Cancelled', fee: { status: 'Forfeited' } });
    expect(await paymentOf(late.id)).toEqual([expect.objectContaining({ status: 'Succeeded', refunded_cents: 0 })]);
    const started = await createTournament(t, organizer);
    const reg = await register(t, lateUser, started.id, started.body.divisions[0]!.id);
    await startTournament(t, started.id);
    expect((await call('POST', `/api/tournament/${started.id}/registrations/${reg.id}/cancel`, lateUser)).json().code).toBe('tournaments.cannot_cancel');
    // a cancelled registrant may register again
    await t.database.pool.query(`UPDATE tournaments SET registration_deadline = now() + interval '1 hour', starts_at = now() + interval '100 hours', ends_at = now() + interval '110 hours' WHERE id = $1`, [id]);
    expect((await call('POST', `/api/tournament/${id}/register`, angler, { paymentMethod: CARD, divisionId: body.divisions[0]!.id })).statusCode).toBe(201);
  });
});

describe('sponsors', () => {
  it('visible like the tournament; added by a verified organizer within tier and amount limits', async () => {
    const { id } = await createTournament(t, organizer);
    const add = (user: TestUser, payload: Record<string, unknown>) => call('POST', `/api/tournament/${id}/sponsors`, user, payload);
    const res = await add(organizer, { name: 'North Shore Tackle', tier: 'Title', amountCents: 500000, website: 'https://example.com' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ id: expect.any(String), name: 'North Shore Tackle', tier: 'Title', amountCents: 500000, website: 'https://example.com', logoUrl: null, createdAt: expect.any(String) });
    expect((await add(organizer, { name: 'Second Title', tier: 'Title' })).json()).toMatchObject({ status: 409, code: 'tournaments.sponsor_limit' });
    expect((await add(organizer, { name: 'north shore tackle', tier: 'Gold' })).json().code).toBe('tournaments.duplicate_sponsor');
    expect((await add(organizer, { name: 'Whale', tier: 'Gold', amountCents: 9_600_000 })).json().code).toBe('tournaments.sponsor_limit');
    expect((await add(organizer, { name: 'Bait Shop', tier: 'Supporter', amountCents: 5000 })).statusCode).toBe(201);
    expect((await add(other, { name: 'Intruder', tier: 'Gold' })).json().code).toBe('tournaments.organizer_only');
    const list = await call('GET', `/api/tournament/${id}/sponsors`, other);
    expect(list.json().map((s: { name: string; tier: string }) => [s.tier, s.name])).toEqual([
      ['Title', 'North Shore Tackle'],
      ['Supporter', 'Bait Shop'],
    ]);
    expect((await call('GET', `/api/tournament/${MISSING_ID}/sponsors`, other)).statusCode).toBe(404);
    const pending = await createTournament(t, organizer, { status: 'PendingApproval' });
    expect((await call('GET', `/api/tournament/${pending.id}/sponsors`, other)).statusCode).toBe(403);
  });

  it('a suspended organizer cannot add sponsors', async () => {
    const o = await createOrganizer(t);
    const { id } = await createTournament(t, o);
    await t.database.pool.query(`UPDATE tournament_organizers SET status = 'Suspended' WHERE id = $1`, [o.organizerId]);
    const res = await call('POST', `/api/tournament/${id}/sponsors`, o, { name: 'Any', tier: 'Gold' });
    expect(res.json()).toMatchObject({ status: 403, code: 'tournaments.sponsor_not_allowed', detail: expect.stringContaining('Suspended') });
  });

  it('a completed tournament takes no sponsors (a state conflict)', async () => {
    const o = await createOrganizer(t);
    const { id } = await createTournament(t, o);
    await t.database.pool.query(`UPDATE tournaments SET status = 'Completed' WHERE id = $1`, [id]);
    const res = await call('POST', `/api/tournament/${id}/sponsors`, o, { name: 'Any', tier: 'Gold' });
    expect(res.json()).toMatchObject({ status: 409, code: 'tournaments.sponsor_not_allowed', detail: 'Sponsors cannot be added to a Completed tournament.' });
  });
});

describe('CSV export', () => {
  it('the organizer downloads registrations; others get 403', async () => {
    const { id, body } = await createTournament(t, organizer);
    await register(t, angler, id, body.divisions[0]!.id, '=cmd, "quoted"');
    const res = await call('GET', `/api/tournament/${id}/export/registrations.csv`, organizer);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe('registrationId,division,anglerName,userId,status,registeredAt,cancelledAt,feeCents,currency,feeStatus');
    expect(lines[1]).toContain(`,Open,"'=cmd, ""quoted""",${angler.userId},Active,`);
    expect(lines[1]).toMatch(/,2500,USD,Paid$/);
    expect((await call('GET', `/api/tournament/${id}/export/registrations.csv`, angler)).statusCode).toBe(403);
    expect((await call('GET', `/api/tournament/${id}/export/results.csv`, angler)).statusCode).toBe(403);
    await endTournament(t, id);
  });
});
