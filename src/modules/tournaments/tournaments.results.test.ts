import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { auditEntries, createUser, MISSING_ID, type TestUser, createOrganizer, createTournament, endTournament, photoHash, register, speciesIds, startTournament, submitCatch, type TestOrganizer } from '../../../test/factories.js';
import { createCatch, createEntry } from '../../../test/factories.js';

let t: TestApp;
let organizer: TestOrganizer;
let species: string[];

beforeAll(async () => {
  t = await createTestApp();
  organizer = await createOrganizer(t);
  species = await speciesIds(t);
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST', url: string, user: TestUser | null, payload?: unknown) =>
  t.app.inject({ method, url, ...(user ? { headers: user.headers } : {}), ...(payload === undefined ? {} : { payload: payload as object }) });

/** A running tournament with one registered angler in the Open division. */
async function running() {
  const tournament = await createTournament(t, organizer);
  const angler = await createUser(t);
  const open = tournament.body.divisions[0]!.id;
  const registration = await register(t, angler, tournament.id, open, `Angler ${angler.username}`);
  await startTournament(t, tournament.id);
  const { rows } = await t.database.pool.query('SELECT starts_at FROM tournaments WHERE id = $1', [tournament.id]);
  const at = (minutes: number) => new Date((rows[0].starts_at as Date).getTime() + minutes * 60_000).toISOString();
  return { id: tournament.id, open, youth: tournament.body.divisions[1]!.id, angler, registration, at };
}

describe('POST /api/tournament/{id}/catches', () => {
  it('a registrant submits a catch: rounded down to the ¼ inch, Pending', async () => {
    const r = await running();
    const hash = photoHash();
    const res = await call('POST', `/api/tournament/${r.id}/catches`, r.angler, {
      divisionId: r.open,
      speciesId: species[0],
      lengthInches: 16.99,
      photoUrl: 'https://example.com/a.jpg',
      photoHash: hash,
      capturedAt: r.at(30),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(String),
      tournamentId: r.id,
      divisionId: r.open,
      registrationId: r.registration.id,
      anglerName: r.registration.anglerName,
      speciesId: species[0],
      lengthInches: 16.75,
      weightLb: null,
      photoUrl: 'https://example.com/a.jpg',
      photoHash: hash,
      capturedAt: r.at(30),
      fishingLogCatchId: null,
      status: 'Pending',
      rejectionReason: null,
      judgedAt: null,
      createdAt: expect.any(String),
    });
    const exact = await call('POST', `/api/tournament/${r.id}/catches`, r.angler, {
      divisionId: r.open,
      speciesId: species[0],
      lengthInches: 18.75,
      photoUrl: 'https://example.com/b.jpg',
      photoHash: photoHash(),
      capturedAt: r.at(31),
    });
    expect(exact.json().lengthInches).toBe(18.75);
  });

  it('enforces registration, species, minimum length, fishing window and photo', async () => {
    const r = await running();
    const base = { divisionId: r.open, speciesId: species[0]!, lengthInches: 15, photoUrl: 'https://example.com/a.jpg', capturedAt: r.at(10) };
    const send = (user: TestUser, body: Record<string, unknown>) => call('POST', `/api/tournament/${r.id}/catches`, user, { ...base, photoHash: photoHash(), ...body });
    const stranger = await createUser(t);
    expect((await send(stranger, {})).json()).toMatchObject({ status: 403, code: 'tournaments.not_registered' });
    expect((await send(r.angler, { divisionId: r.youth })).json().code).toBe('tournaments.not_registered');
    expect((await send(r.angler, { speciesId: species[2] })).json()).toMatchObject({ status: 400, code: 'tournaments.species_not_eligible' });
    expect((await send(r.angler, { lengthInches: 9.9 })).json()).toMatchObject({ status: 400, code: 'tournaments.below_minimum', errors: [{ pointer: '/lengthInches' }] });
    expect((await send(r.angler, { capturedAt: r.at(-5) })).json()).toMatchObject({ status: 400, code: 'tournaments.outside_window' });
    expect((await send(r.angler, { capturedAt: r.at(600) })).json().code).toBe('tournaments.outside_window');
    expect((await send(r.angler, { lengthInches: undefined })).json().code).toBe('tournaments.measure_missing');
    const noPhoto = await call('POST', `/api/tournament/${r.id}/catches`, r.angler, base);
    expect(noPhoto.json().code).toBe('tournaments.photo_required');
    expect((await send(organizer, {})).json().code).toBe('tournaments.not_registered');
    expect((await call('POST', `/api/tournament/${MISSING_ID}/catches`, r.angler, { ...base, photoHash: photoHash() })).statusCode).toBe(404);
    expect((await call('POST', `/api/tournament/${r.id}/catches`, null, base)).statusCode).toBe(401);
  });

  it('the same photo or fishing-log catch cannot be submitted twice; only your own log catches', async () => {
    const r = await running();
    const hash = photoHash();
    const body = { divisionId: r.open, speciesId: species[0]!, lengthInches: 15, photoUrl: 'https://example.com/a.jpg', capturedAt: r.at(10) };
    expect((await call('POST', `/api/tournament/${r.id}/catches`, r.angler, { ...body, photoHash: hash })).statusCode).toBe(201);
    const dupPhoto = await call('POST', `/api/tournament/${r.id}/catches`, r.angler, { ...body, photoHash: hash, lengthInches: 20 });
    expect(dupPhoto.statusCode).toBe(409);
    expect(dupPhoto.json().code).toBe('tournaments.duplicate_photo');
    const entry = await createEntry(t, r.angler.userId);
    const logCatch = await createCatch(t, r.angler.userId, entry, { speciesId: species[0] });
    const first = await call('POST', `/api/tournament/${r.id}/catches`, r.angler, { ...body, photoHash: photoHash(), fishingLogCatchId: logCatch.id });
    expect(first.json()).toMatchObject({ fishingLogCatchId: logCatch.id, status: 'Pending' });
    const dupLog = await call('POST', `/api/tournament/${r.id}/catches`, r.angler, { ...body, photoHash: photoHash(), fishingLogCatchId: logCatch.id });
    expect(dupLog.json()).toMatchObject({ status: 409, code: 'tournaments.duplicate_log_catch' });
    const someoneElse = await createUser(t);
    const foreignEntry = await createEntry(t, someoneElse.userId);
    const foreign = await createCatch(t, someoneElse.userId, foreignEntry, { speciesId: species[0] });
    const stolen = await call('POST', `/api/tournament/${r.id}/catches`, r.angler, { ...body, photoHash: photoHash(), fishingLogCatchId: foreign.id });
    expect(stolen.json()).toMatchObject({ status: 400, code: 'tournaments.bad_log_catch' });
    // concurrent duplicates: exactly one wins
    const same = photoHash();
    const parallel = await Promise.all(Array.from({ length: 5 }, () => call('POST', `/api/tournament/${r.id}/catches`, r.angler, { ...body, photoHash: same })));
    expect(parallel.map((p) => p.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
  });
});

describe('judging and the catches list', () => {
  it('the organizer verifies or rejects (reason required, audit-logged); the registrant and others cannot', async () => {
    const r = await running();
    const submitted = await submitCatch(t, r.angler, null, r.id, { divisionId: r.open, speciesId: species[0]!, lengthInches: 15 });
    const judge = (user: TestUser, body: Record<string, unknown>, id = submitted.id) => call('POST', `/api/tournament/${r.id}/catches/${id}/judge`, user, body);
    expect((await judge(r.angler, { decision: 'Verified' })).json()).toMatchObject({ status: 403, code: 'tournaments.judges_only' });
    const other = await createUser(t);
    expect((await judge(other, { decision: 'Verified' })).statusCode).toBe(403);
    expect((await judge(organizer, { decision: 'Rejected' })).json()).toMatchObject({ status: 400, code: 'tournaments.reason_required' });
    const rejected = await judge(organizer, { decision: 'Rejected', reason: 'Identifier code not visible' });
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json()).toMatchObject({ id: submitted.id, status: 'Rejected', rejectionReason: 'Identifier code not visible', judgedAt: expect.any(String) });
    expect((await judge(organizer, { decision: 'Verified' })).json().code).toBe('tournaments.already_judged');
    const changed = await judge(organizer, { decision: 'Verified', reason: 'Code visible on the second photo' });
    expect(changed.json()).toMatchObject({ status: 'Verified', rejectionReason: null });
    const audits = (await auditEntries(t, 'tournaments.catch_judged')).filter((a) => a.target_id === submitted.id);
    expect(audits.map((a) => [(a.after as { status: string }).status, a.reason])).toEqual([
      ['Rejected', 'Identifier code not visible'],
      ['Verified', 'Code visible on the second photo'],
    ]);
    expect((await judge(organizer, { decision: 'Verified' }, MISSING_ID)).statusCode).toBe(404);
  });

  it('judges the organizer names see the tournament and judge catches; they cannot register or manage', async () => {
    const r = await running();
    const judge = await createUser(t);
    const submitted = await submitCatch(t, r.angler, null, r.id, { divisionId: r.open, speciesId: species[0]!, lengthInches: 15 });
    expect((await call('POST', `/api/tournament/${r.id}/catches/${submitted.id}/judge`, judge, { decision: 'Verified' })).json().code).toBe('tournaments.judges_only');
    expect((await call('POST', `/api/tournament/${r.id}/judges`, r.angler, { userId: judge.userId })).json().code).toBe('tournaments.organizer_only');
    expect((await call('POST', `/api/tournament/${r.id}/judges`, organizer, { userId: r.angler.userId })).json().code).toBe('tournaments.judge_is_registered');
    expect((await call('POST', `/api/tournament/${r.id}/judges`, organizer, { userId: MISSING_ID })).json()).toMatchObject({ status: 400, code: 'tournaments.bad_judge' });
    const named = await call('POST', `/api/tournament/${r.id}/judges`, organizer, { userId: judge.userId });
    expect(named.statusCode).toBe(201);
    expect(named.json()).toEqual([{ userId: judge.userId, createdAt: expect.any(String) }]);
    expect((await call('GET', `/api/tournament/${r.id}/judges`, judge)).json()).toHaveLength(1);
    expect((await call('GET', `/api/tournament/${r.id}/judges`, r.angler)).statusCode).toBe(403);
    expect((await call('GET', `/api/tournament/${r.id}/catches`, judge)).json()).toHaveLength(1);
    const verified = await call('POST', `/api/tournament/${r.id}/catches/${submitted.id}/judge`, judge, { decision: 'Verified' });
    expect(verified.json()).toMatchObject({ status: 'Verified' });
    expect((await call('POST', `/api/tournament/${r.id}/results`, judge, { kind: 'publish' })).json().code).toBe('tournaments.organizer_only');
    const pending = await createTournament(t, organizer, { status: 'PendingApproval' });
    await call('POST', `/api/tournament/${pending.id}/judges`, organizer, { userId: judge.userId });
    expect((await call('GET', `/api/tournament/${pending.id}`, judge)).statusCode).toBe(200);
    const approved = await createTournament(t, organizer);
    await call('POST', `/api/tournament/${approved.id}/judges`, organizer, { userId: judge.userId });
    const entry = await call('POST', `/api/tournament/${approved.id}/register`, judge, { divisionId: approved.body.divisions[0]!.id });
    expect(entry.json()).toMatchObject({ status: 409, code: 'tournaments.judge_cannot_register' });
  });

  it('lists all submissions to the organizer, only their own to an angler', async () => {
    const r = await running();
    const second = await createUser(t);
    await t.database.pool.query(`UPDATE tournaments SET registration_deadline = now() + interval '1 minute', status = 'Approved', starts_at = now() + interval '2 minutes' WHERE id = $1`, [r.id]);
    await register(t, second, r.id, r.open);
    await startTournament(t, r.id);
    await submitCatch(t, r.angler, null, r.id, { divisionId: r.open, speciesId: species[0]!, lengthInches: 15 });
    await submitCatch(t, second, organizer, r.id, { divisionId: r.open, speciesId: species[0]!, lengthInches: 16 });
    expect((await call('GET', `/api/tournament/${r.id}/catches`, organizer)).json()).toHaveLength(2);
    const pending = (await call('GET', `/api/tournament/${r.id}/catches?status=Pending`, organizer)).json();
    expect(pending.map((c: { registrationId: string }) => c.registrationId)).toEqual([r.registration.id]);
    const own = (await call('GET', `/api/tournament/${r.id}/catches`, r.angler)).json();
    expect(own).toEqual([expect.objectContaining({ registrationId: r.registration.id, lengthInches: 15 })]);
    const stranger = await createUser(t);
    expect((await call('GET', `/api/tournament/${r.id}/catches`, stranger)).json()).toEqual([]);
  });
});

describe('leaderboard', () => {
  it('counts the best N verified catches (culling), ranks by total, then biggest fish, then earliest last counted fish; penalties deduct', async () => {
    const tournament = await createTournament(t, organizer);
    const open = tournament.body.divisions[0]!.id;
    const anglers = await Promise.all(['A', 'B', 'C', 'D'].map(() => createUser(t)));
    const [a, b, c, d] = anglers as [TestUser, TestUser, TestUser, TestUser];
    const regs = new Map<TestUser, string>();
    for (const [user, name] of [
      [a, 'A'],
      [b, 'B'],
      [c, 'C'],
      [d, 'D'],
    ] as const)
      regs.set(user, (await register(t, user, tournament.id, open, name)).id);
    await startTournament(t, tournament.id);
    const fish = (user: TestUser, lengthInches: number, minutesAfterStart: number, verify = true) =>
      submitCatch(t, user, verify ? organizer : null, tournament.id, { divisionId: open, speciesId: species[0]!, lengthInches, minutesAfterStart });
    // A: 15, 16.3 (→16.25), 12 (not counted), then 17.9 (→17.75) culls the 15: 34.00, biggest 17.75
    await fish(a, 15, 5);
    await fish(a, 16.3, 6);
    await fish(a, 12, 7);
    await fish(a, 17.9, 8);
    // B: 18 + 16 = 34, biggest 18: ahead of A on the first tie-break
    await fish(b, 18, 5);
    await fish(b, 16, 6);
    await fish(b, 30, 7, false); // Pending: not counted
    // C and D: 17 + 17 = 34, biggest 17; D's last counted fish came earlier
    await fish(c, 17, 10);
    await fish(c, 17, 20);
    await fish(d, 17, 5);
    await fish(d, 17, 15);
    const board = async () => (await call('GET', `/api/tournament/${tournament.id}/results`, a)).json().divisions[0].leaderboard;
    const rows = await board();
    expect(rows.map((r: { anglerName: string; rank: number; total: number; biggest: number }) => [r.rank, r.anglerName, r.total, r.biggest])).toEqual([
      [1, 'B', 34, 18],
      [2, 'A', 34, 17.75],
      [3, 'D', 34, 17],
      [4, 'C', 34, 17],
    ]);
    expect(rows[1].countedCatches.map((x: { measure: number }) => x.measure)).toEqual([17.75, 16.25]);
    expect(rows[1]).toMatchObject({ registrationId: regs.get(a), penalties: 0, lastCountedAt: expect.any(String) });
    expect(Object.keys(rows[0]).sort()).toEqual(['anglerName', 'biggest', 'countedCatches', 'lastCountedAt', 'penalties', 'rank', 'registrationId', 'total']);
    // A late check-in penalty (4 quarter inches = 1 in) drops B to last.
    const penalty = await call('POST', `/api/tournament/${tournament.id}/results`, organizer, { kind: 'penalty', registrationId: regs.get(b), code: 'late', reason: 'Checked in 12 min late' });
    expect(penalty.statusCode).toBe(201);
    const after = penalty.json().divisions[0].leaderboard;
    expect(after.map((r: { anglerName: string; total: number; penalties: number }) => [r.anglerName, r.total, r.penalties])).toEqual([
      ['A', 34, 0],
      ['D', 34, 0],
      ['C', 34, 0],
      ['B', 33, 1],
    ]);
    expect((await call('POST', `/api/tournament/${tournament.id}/results`, organizer, { kind: 'penalty', registrationId: regs.get(b), code: 'nope', reason: 'x' })).statusCode).toBe(400);
  });

  it('applies the tournament’s configured tie-breaks, in order', async () => {
    const order = async (tieBreaks: string[]) => {
      const tournament = await createTournament(t, organizer, { overrides: { tieBreaks } });
      expect(tournament.body.tieBreaks).toEqual(tieBreaks.map((b) => b.charAt(0).toUpperCase() + b.slice(1))); // sent in the older spelling
      const open = tournament.body.divisions[0]!.id;
      const p = await createUser(t);
      const q = await createUser(t);
      await register(t, p, tournament.id, open, 'P');
      await register(t, q, tournament.id, open, 'Q');
      await startTournament(t, tournament.id);
      const fish = (user: TestUser, lengthInches: number, minutesAfterStart: number) =>
        submitCatch(t, user, organizer, tournament.id, { divisionId: open, speciesId: species[0]!, lengthInches, minutesAfterStart });
      await fish(p, 18, 5);
      await fish(p, 16, 9); // P: 34, biggest 18, last counted fish at 9 min
      await fish(q, 17, 2);
      await fish(q, 17, 3); // Q: 34, biggest 17, last counted fish at 3 min
      const results = (await call('GET', `/api/tournament/${tournament.id}/results`, p)).json();
      expect(results.tieBreaks).toEqual(tieBreaks.map((b) => b.charAt(0).toUpperCase() + b.slice(1))); // sent in the older spelling
      return results.divisions[0].leaderboard.map((r: { rank: number; anglerName: string }) => `${r.rank}${r.anglerName}`);
    };
    expect(await order(['biggestFish', 'earliestLastCatch'])).toEqual(['1P', '2Q']);
    expect(await order(['earliestLastCatch', 'biggestFish'])).toEqual(['1Q', '2P']);
    expect(await order([])).toEqual(['1P', '1Q']);
  });

  it('is visible like the tournament and consistent under concurrent judging', async () => {
    const r = await running();
    const subs = [];
    for (let i = 0; i < 8; i++) subs.push(await submitCatch(t, r.angler, null, r.id, { divisionId: r.open, speciesId: species[0]!, lengthInches: 11 + i, minutesAfterStart: 5 + i }));
    const judged = await Promise.all(subs.map((s) => call('POST', `/api/tournament/${r.id}/catches/${s.id}/judge`, organizer, { decision: 'Verified' })));
    expect(judged.every((j) => j.statusCode === 200)).toBe(true);
    const row = (await call('GET', `/api/tournament/${r.id}/results`, r.angler)).json().divisions[0].leaderboard[0];
    expect(row).toMatchObject({ rank: 1, total: 18 + 17, biggest: 18 });
    const pending = await createTournament(t, organizer, { status: 'PendingApproval' });
    const stranger = await createUser(t);
    expect((await call('GET', `/api/tournament/${pending.id}/results`, stranger)).json()).toMatchObject({ status: 403, code: 'tournaments.not_visible' });
    expect((await call('GET', `/api/tournament/${MISSING_ID}/results`, stranger)).statusCode).toBe(404);
  });
});

describe('POST /api/tournament/{id}/results', () => {
  it('records weigh-in catches, publishes placings after the end, edits them with a reason (audit-logged), exports CSV', async () => {
    const tournament = await createTournament(t, organizer, {
      overrides: { format: 'WeighIn', entryFeeCents: 0, divisions: [{ name: 'Team', speciesIds: [species[0]], bestN: 5 }] },
    });
    const division = tournament.body.divisions[0]!.id;
    const x = await createUser(t);
    const y = await createUser(t);
    const rx = await register(t, x, tournament.id, division, 'Boat X');
    const ry = await register(t, y, tournament.id, division, 'Boat Y');
    await startTournament(t, tournament.id);
    const { rows } = await t.database.pool.query('SELECT starts_at FROM tournaments WHERE id = $1', [tournament.id]);
    const capturedAt = new Date((rows[0].starts_at as Date).getTime() + 600_000).toISOString();
    const weigh = (registrationId: string, weightLb: number) =>
      call('POST', `/api/tournament/${tournament.id}/results`, organizer, { kind: 'catch', registrationId, speciesId: species[0], weightLb, capturedAt });
    expect((await weigh(rx.id, 4.567)).statusCode).toBe(201);
    const res = await weigh(ry.id, 5.1);
    expect(res.json().divisions[0]).toMatchObject({ unit: 'lb', leaderboard: [{ anglerName: 'Boat Y', total: 5.1 }, { anglerName: 'Boat X', total: 4.56 }] });
    expect((await call('POST', `/api/tournament/${tournament.id}/results`, x, { kind: 'publish' })).json().code).toBe('tournaments.organizer_only');
    const early = await call('POST', `/api/tournament/${tournament.id}/results`, organizer, { kind: 'publish' });
    expect(early.json()).toMatchObject({ status: 409, code: 'tournaments.bad_transition' });
    await endTournament(t, tournament.id);
    const published = await call('POST', `/api/tournament/${tournament.id}/results`, organizer, { kind: 'publish', payoutsCents: [30000, 15000] });
    expect(published.statusCode).toBe(201);
    expect(published.json()).toMatchObject({ status: 'Completed', resultsPublishedAt: expect.any(String) });
    expect(published.json().divisions[0].placings).toEqual([
      { id: expect.any(String), place: 1, registrationId: ry.id, anglerName: 'Boat Y', total: 5.1, payoutCents: 30000, note: null },
      { id: expect.any(String), place: 2, registrationId: rx.id, anglerName: 'Boat X', total: 4.56, payoutCents: 15000, note: null },
    ]);
    expect((await weigh(rx.id, 9)).json().code).toBe('tournaments.results_published');
    const noReason = await call('POST', `/api/tournament/${tournament.id}/results`, organizer, { kind: 'placing', divisionId: division, registrationId: rx.id, place: 2, payoutCents: 20000 });
    expect(noReason.json().code).toBe('tournaments.reason_required');
    const taken = await call('POST', `/api/tournament/${tournament.id}/results`, organizer, { kind: 'placing', divisionId: division, registrationId: rx.id, place: 1, reason: 'x' });
    expect(taken.json().code).toBe('tournaments.place_taken');
    const edited = await call('POST', `/api/tournament/${tournament.id}/results`, organizer, {
      kind: 'placing',
      divisionId: division,
      registrationId: rx.id,
      place: 2,
      payoutCents: 20000,
      note: 'Big-fish bonus',
      reason: 'Scorecard correction',
    });
    expect(edited.json().divisions[0].placings[1]).toMatchObject({ anglerName: 'Boat X', payoutCents: 20000, note: 'Big-fish bonus' });
    const audit = (await auditEntries(t, 'tournaments.result_edited')).at(-1)!;
    expect(audit).toMatchObject({ reason: 'Scorecard correction', target_id: rx.id, before: { place: 2, payoutCents: 15000, note: null } });
    expect((await call('POST', `/api/tournament/${tournament.id}/results`, organizer, { kind: 'publish' })).json().code).toBe('tournaments.reason_required');
    const csv = await call('GET', `/api/tournament/${tournament.id}/export/results.csv`, organizer);
    expect(csv.body.split('\r\n').slice(0, 3)).toEqual([
      'division,rank,place,anglerName,total,unit,biggest,penalties,countedCatches,payoutCents',
      'Team,1,1,Boat Y,5.1,lb,5.1,0,1,30000',
      'Team,2,2,Boat X,4.56,lb,4.56,0,1,20000',
    ]);
    // visible to a participant like the tournament
    expect((await call('GET', `/api/tournament/${tournament.id}/results`, x)).json().divisions[0].placings).toHaveLength(2);
  });
});
