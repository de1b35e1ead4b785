import { serviceDeps } from '../../core/service-deps.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applySeeds } from '../../core/db/seeds.js';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, createOrganizer, createTournament } from '../../../test/factories.js';
import { demoSeeds, seeds } from '../../seeds.js';
import { DEMO_TOURNAMENT_ID, tournamentsDemoSeed } from './tournaments.seeds.js';
import { advanceTournamentStatuses } from './tournaments.service.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('demo seed', () => {
  it('is a demo seed only (not applied by default) and creates a verified organizer with one approved tournament, idempotently', async () => {
    expect(demoSeeds).toContain(tournamentsDemoSeed);
    expect(seeds).not.toContain(tournamentsDemoSeed);
    const user = await createUser(t);
    expect((await t.app.inject({ method: 'GET', url: `/api/tournament/${DEMO_TOURNAMENT_ID}`, headers: user.headers })).statusCode).toBe(404);
    await applySeeds(t.database.pool, [tournamentsDemoSeed]);
    await applySeeds(t.database.pool, [tournamentsDemoSeed], { force: true });
    const res = await t.app.inject({ method: 'GET', url: `/api/tournament/${DEMO_TOURNAMENT_ID}`, headers: user.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Demo Walleye Classic',
      organizer: { name: 'Demo Walleye Club' },
      status: 'Approved',
      visibility: 'Public',
      registrationsOpen: true,
      divisions: [{ name: 'Open', bestN: 3, minLengthInches: 12 }, { name: 'Youth' }],
    });
    const organizers = await t.database.pool.query(`SELECT status FROM tournament_organizers WHERE name = 'Demo Walleye Club'`);
    expect(organizers.rows).toEqual([{ status: 'Verified' }]);
    const registered = await t.app.inject({ method: 'POST', url: `/api/tournament/${DEMO_TOURNAMENT_ID}/register`, headers: user.headers, payload: { divisionId: res.json().divisions[0].id } });
    expect(registered.json()).toMatchObject({ status: 'Active', fee: null });
  });
});

describe('status job', () => {
  it('starts Approved tournaments at their start and completes them at their end (injected clock)', async () => {
    const o = await createOrganizer(t);
    const { id } = await createTournament(t, o);
    const pending = await createTournament(t, o, { status: 'PendingApproval' });
    const { rows } = await t.database.pool.query('SELECT starts_at, ends_at FROM tournaments WHERE id = $1', [id]);
    const status = async (tid: string) => (await t.database.pool.query('SELECT status FROM tournaments WHERE id = $1', [tid])).rows[0].status;
    await advanceTournamentStatuses(serviceDeps(t), () => new Date(rows[0].starts_at.getTime() - 1000));
    expect(await status(id)).toBe('Approved');
    await advanceTournamentStatuses(serviceDeps(t), () => new Date(rows[0].starts_at.getTime() + 1000));
    expect(await status(id)).toBe('InProgress');
    await advanceTournamentStatuses(serviceDeps(t), () => new Date(rows[0].ends_at.getTime()));
    expect(await status(id)).toBe('Completed');
    expect(await status(pending.id)).toBe('PendingApproval');
  });
});

describe('staff roles give no organizer rights on the public routes', () => {
  it('an Admin or Moderator cannot see unpublished tournaments nor edit or judge others’ tournaments there', async () => {
    const o = await createOrganizer(t);
    const pending = await createTournament(t, o, { status: 'PendingApproval' });
    for (const role of ['Admin', 'Moderator'] as const) {
      const staff = await createUser(t, { role });
      const seen = await t.app.inject({ method: 'GET', url: `/api/tournament/${pending.id}`, headers: staff.headers });
      expect(seen.json()).toMatchObject({ status: 403, code: 'tournaments.not_visible' });
      const sponsor = await t.app.inject({ method: 'POST', url: `/api/tournament/${pending.id}/sponsors`, headers: staff.headers, payload: { name: 'X', tier: 'Gold' } });
      expect(sponsor.json()).toMatchObject({ status: 403, code: 'tournaments.organizer_only' });
      const csv = await t.app.inject({ method: 'GET', url: `/api/tournament/${pending.id}/export/registrations.csv`, headers: staff.headers });
      expect(csv.statusCode).toBe(403);
    }
  });
});
