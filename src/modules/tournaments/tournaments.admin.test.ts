import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { auditEntries, createStaff, createUser, MISSING_ID, setPermission, type Staff, type TestUser, createOrganizer, createTournament, register, speciesIds, tournamentBody } from '../../../test/factories.js';

let t: TestApp;
let staff: Staff;

beforeAll(async () => {
  t = await createTestApp();
  // The dotted spelling grants (and denies) the same permission as Tournaments.Approve.
  staff = await createStaff(t, 'tournaments.approve', { otherPermission: 'Tournaments.View' });
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST', url: string, user: TestUser | null, payload?: unknown) =>
  t.app.inject({ method, url, ...(user ? { headers: user.headers } : {}), ...(payload === undefined ? {} : { payload: payload as object }) });

describe('GET /api/admin/tournaments', () => {
  it('lists tournaments awaiting approval with usage statistics, filtered and paginated (Tournaments.View)', async () => {
    const o = await createOrganizer(t, { name: 'Admin List Club' });
    const pending = await createTournament(t, o, { status: 'PendingApproval', overrides: { name: 'Queue Pike Open' } });
    const approved = await createTournament(t, o, { overrides: { name: 'Queue Approved Open' } });
    const angler = await createUser(t);
    await register(t, angler, approved.id, approved.body.divisions[0]!.id);
    const res = await call('GET', `/api/admin/tournaments?organizerId=${o.organizerId}`, staff.admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('1');
    expect(res.json()).toEqual([
      expect.objectContaining({ id: pending.id, name: 'Queue Pike Open', status: 'PendingApproval', organizerStatus: 'Verified', reviewedAt: null, usage: { registrations: 0, submissions: 0 } }),
    ]);
    const all = (await call('GET', `/api/admin/tournaments?organizerId=${o.organizerId}&status=Approved`, staff.admin)).json();
    expect(all).toEqual([expect.objectContaining({ id: approved.id, usage: { registrations: 1, submissions: 0 } })]);
    expect((await call('GET', '/api/admin/tournaments?q=Queue%20Pike', staff.admin)).json().map((x: { id: string }) => x.id)).toEqual([pending.id]);
    const one = await call('GET', `/api/admin/tournaments/${approved.id}`, staff.admin);
    expect(one.json()).toMatchObject({ id: approved.id, usage: { registrations: 1 } });
    expect((await call('GET', `/api/admin/tournaments/${MISSING_ID}`, staff.admin)).statusCode).toBe(404);
    // The moderator holds Tournaments.View through the staff factory's other permission.
    expect((await call('GET', '/api/admin/tournaments', staff.moderator)).statusCode).toBe(200);
    expect((await call('GET', '/api/admin/tournaments', staff.grantedModerator)).json()).toMatchObject({ status: 403, code: 'access.permission_denied' });
    expect((await call('GET', '/api/admin/tournaments', staff.standard)).statusCode).toBe(403);
    expect((await call('GET', '/api/admin/tournaments', null)).statusCode).toBe(401);
    const viewDenied = await createUser(t, { role: 'Admin' });
    await setPermission(t, staff.owner, viewDenied, 'Tournaments.View', false);
    expect((await call('GET', '/api/admin/tournaments', viewDenied)).statusCode).toBe(403);
  });
});

describe('tournament decisions', () => {
  it('approve: Admin, Owner and a Moderator granted it (either spelling); not a Moderator without it nor an Admin denied it; reason required, audit-logged', async () => {
    const o = await createOrganizer(t);
    const a = await createTournament(t, o, { status: 'PendingApproval' });
    const approve = (user: TestUser | null, id: string, body: unknown = { reason: 'Rules and permit checked' }) => call('POST', `/api/admin/tournaments/${id}/approve`, user, body);
    expect((await approve(staff.moderator, a.id)).json()).toMatchObject({ status: 403, code: 'access.permission_denied' });
    expect((await approve(staff.deniedAdmin, a.id)).statusCode).toBe(403);
    expect((await approve(staff.standard, a.id)).statusCode).toBe(403);
    expect((await approve(o, a.id)).statusCode).toBe(403);
    expect((await approve(null, a.id)).statusCode).toBe(401);
    expect((await approve(staff.admin, a.id, {})).statusCode).toBe(400);
    expect((await approve(staff.admin, a.id, { reason: '' })).statusCode).toBe(400);
    const res = await approve(staff.admin, a.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: a.id, status: 'Approved', statusReason: null, reviewedAt: expect.any(String), registrationsOpen: true });
    const audit = (await auditEntries(t, 'tournaments.approved')).at(-1)!;
    expect(audit).toMatchObject({ target_id: a.id, actor_user_id: staff.admin.userId, reason: 'Rules and permit checked', before: { status: 'PendingApproval' }, after: { status: 'Approved' } });
    expect((await approve(staff.admin, a.id)).json()).toMatchObject({ status: 409, code: 'tournaments.bad_transition' });
    const b = await createTournament(t, o, { status: 'PendingApproval' });
    expect((await approve(staff.grantedModerator, b.id)).json().status).toBe('Approved');
    const c = await createTournament(t, o, { status: 'PendingApproval' });
    expect((await approve(staff.owner, c.id)).json().status).toBe('Approved');
    expect((await approve(staff.admin, MISSING_ID)).statusCode).toBe(404);
    // an organizer suspended meanwhile: their pending tournament cannot be approved
    const d = await createTournament(t, o, { status: 'PendingApproval' });
    await t.database.pool.query(`UPDATE tournament_organizers SET status = 'Suspended' WHERE id = $1`, [o.organizerId]);
    expect((await approve(staff.admin, d.id)).json().code).toBe('tournaments.bad_transition');
  });

  it('reject, suspend and reinstate: each with its permission and reason; a suspended tournament leaves lists and closes registration, registrants still see it', async () => {
    const o = await createOrganizer(t);
    const pending = await createTournament(t, o, { status: 'PendingApproval' });
    const rejected = await call('POST', `/api/admin/tournaments/${pending.id}/reject`, staff.admin, { reason: 'Missing permit' });
    expect(rejected.json()).toMatchObject({ status: 'Rejected', statusReason: 'Missing permit' });
    expect((await call('GET', `/api/tournament/${pending.id}`, o)).json()).toMatchObject({ status: 'Rejected', statusReason: 'Missing permit' });
    expect((await call('POST', `/api/tournament/${pending.id}/submit`, o)).json().status).toBe('PendingApproval');
    expect((await call('POST', `/api/admin/tournaments/${pending.id}/reject`, staff.grantedModerator, { reason: 'x' })).statusCode).toBe(403);

    const live = await createTournament(t, o, { overrides: { name: 'Suspend Me Classic' } });
    const angler = await createUser(t);
    await register(t, angler, live.id, live.body.divisions[0]!.id);
    const stranger = await createUser(t);
    expect((await call('POST', `/api/admin/tournaments/${live.id}/suspend`, staff.moderator, { reason: 'x' })).statusCode).toBe(403);
    const suspended = await call('POST', `/api/admin/tournaments/${live.id}/suspend`, staff.admin, { reason: 'Complaints about the venue' });
    expect(suspended.json()).toMatchObject({ status: 'Suspended', statusReason: 'Complaints about the venue', registrationsOpen: false });
    expect((await call('GET', '/api/tournament?q=Suspend%20Me', stranger)).json()).toEqual([]);
    expect((await call('GET', `/api/tournament/${live.id}`, stranger)).statusCode).toBe(403);
    expect((await call('GET', `/api/tournament/${live.id}`, angler)).json().status).toBe('Suspended');
    expect((await call('POST', `/api/tournament/${live.id}/register`, stranger, { divisionId: live.body.divisions[0]!.id })).statusCode).toBe(403);
    const reinstated = await call('POST', `/api/admin/tournaments/${live.id}/reinstate`, staff.admin, { reason: 'Venue confirmed' });
    expect(reinstated.json()).toMatchObject({ status: 'Approved', statusReason: null, registrationsOpen: true });
    expect((await call('POST', `/api/admin/tournaments/${live.id}/reinstate`, staff.admin, { reason: 'again' })).statusCode).toBe(409);
    const actions = (await auditEntries(t, 'tournaments.suspended')).concat(await auditEntries(t, 'tournaments.reinstated')).filter((a) => a.target_id === live.id);
    expect(actions.map((a) => a.reason)).toEqual(['Complaints about the venue', 'Venue confirmed']);
  });
});

describe('organizers', () => {
  it('lists applications (Organizers.View) with usage; verify and reject (Organizers.Verify) with reason, audit-logged', async () => {
    const applicant = await createUser(t);
    const applied = await call('POST', '/api/tournament/organizers/apply', applicant, { name: 'Pending Perch Society', contactEmail: 'perch@example.com', takesPayments: true });
    const id = applied.json().id;
    const list = await call('GET', '/api/admin/organizers?q=Perch%20Society', staff.admin);
    expect(list.json()).toEqual([
      expect.objectContaining({ id, name: 'Pending Perch Society', status: 'Pending', takesPayments: true, paymentsAllowed: false, reviewedAt: null, usage: { tournaments: 0, registrations: 0 } }),
    ]);
    expect((await call('GET', '/api/admin/organizers', staff.moderator)).statusCode).toBe(403);
    expect((await call('GET', '/api/admin/organizers', staff.standard)).statusCode).toBe(403);
    expect((await call('GET', `/api/admin/organizers/${MISSING_ID}`, staff.admin)).statusCode).toBe(404);

    const moderator = await createUser(t, { role: 'Moderator' });
    expect((await call('POST', `/api/admin/organizers/${id}/verify`, moderator, { reason: 'ok' })).statusCode).toBe(403);
    await setPermission(t, staff.owner, moderator, 'Organizers.Verify', true);
    const deniedAdmin = await createUser(t, { role: 'Admin' });
    await setPermission(t, staff.owner, deniedAdmin, 'organizers.verify', false);
    expect((await call('POST', `/api/admin/organizers/${id}/verify`, deniedAdmin, { reason: 'ok' })).statusCode).toBe(403);
    expect((await call('POST', `/api/admin/organizers/${id}/verify`, moderator, {})).statusCode).toBe(400);
    const verified = await call('POST', `/api/admin/organizers/${id}/verify`, moderator, { reason: 'Club registration checked', allowPayments: true });
    expect(verified.json()).toMatchObject({ id, status: 'Verified', paymentsAllowed: true, reviewedAt: expect.any(String) });
    expect((await auditEntries(t, 'organizers.verified')).at(-1)).toMatchObject({ target_id: id, reason: 'Club registration checked', after: { status: 'Verified', paymentsAllowed: true } });
    const species = await speciesIds(t);
    expect((await call('POST', '/api/tournament', applicant, tournamentBody(species))).statusCode).toBe(201);
    expect((await call('GET', `/api/admin/organizers/${id}`, staff.admin)).json().usage).toEqual({ tournaments: 1, registrations: 0 });
    expect((await call('POST', `/api/admin/organizers/${id}/verify`, staff.admin, { reason: 'again' })).json().code).toBe('tournaments.bad_transition');

    const other = await createUser(t);
    const second = (await call('POST', '/api/tournament/organizers/apply', other, { name: 'Shady Events', contactEmail: 'shady@example.com' })).json().id;
    const rejected = await call('POST', `/api/admin/organizers/${second}/reject`, staff.admin, { reason: 'Could not confirm the club' });
    expect(rejected.json()).toMatchObject({ status: 'Rejected', statusReason: 'Could not confirm the club' });
    expect((await call('GET', '/api/tournament/organizers/me', other)).json()).toMatchObject({ status: 'Rejected', statusReason: 'Could not confirm the club' });
  });

  it('suspension (Organizers.Suspend) closes registrations of upcoming tournaments and blocks creation; reinstatement reopens them', async () => {
    const o = await createOrganizer(t);
    const upcoming = await createTournament(t, o);
    const angler = await createUser(t);
    expect((await call('POST', `/api/admin/organizers/${o.organizerId}/suspend`, staff.moderator, { reason: 'x' })).statusCode).toBe(403);
    const suspended = await call('POST', `/api/admin/organizers/${o.organizerId}/suspend`, staff.admin, { reason: 'Unpaid prizes' });
    expect(suspended.json()).toMatchObject({ status: 'Suspended', statusReason: 'Unpaid prizes' });
    expect((await auditEntries(t, 'organizers.suspended')).at(-1)).toMatchObject({ reason: 'Unpaid prizes', after: { tournamentsAffected: [upcoming.id] } });
    const view = (await call('GET', `/api/tournament/${upcoming.id}`, angler)).json();
    expect(view.registrationsOpen).toBe(false);
    const closed = await call('POST', `/api/tournament/${upcoming.id}/register`, angler, { divisionId: upcoming.body.divisions[0]!.id, paymentMethod: '4242424242424242' });
    expect(closed.json()).toMatchObject({ status: 409, code: 'tournaments.registration_closed', detail: expect.stringContaining('organizer is suspended') });
    const species = await speciesIds(t);
    expect((await call('POST', '/api/tournament', o, tournamentBody(species))).json().code).toBe('tournaments.organizer_not_verified');
    const reinstated = await call('POST', `/api/admin/organizers/${o.organizerId}/reinstate`, staff.admin, { reason: 'Prizes paid' });
    expect(reinstated.json()).toMatchObject({ status: 'Verified', statusReason: null });
    expect((await call('POST', `/api/tournament/${upcoming.id}/register`, angler, { divisionId: upcoming.body.divisions[0]!.id, paymentMethod: '4242424242424242' })).statusCode).toBe(201);
    expect((await call('POST', `/api/admin/organizers/${MISSING_ID}/suspend`, staff.admin, { reason: 'x' })).statusCode).toBe(404);
  });
});
