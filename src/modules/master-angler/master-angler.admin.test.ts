import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { auditEntries, createRegulationsStaff, expectStaffRefused, MISSING_ID, type Staff, type TestUser, createLoggedCatch, FISH_OHIO, inches, OH, PLACES, programBody, SPECIES } from '../../../test/factories.js';

let t: TestApp;
let edit: Staff;
let view: Staff;
let angler: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  ({ edit, view, angler } = await createRegulationsStaff(t));
});
afterAll(async () => t?.close());

type Method = 'GET' | 'POST' | 'PATCH';
const inject = (method: Method, url: string, user: TestUser | null, payload?: object) =>
  t.app.inject({ method, url, headers: user ? user.headers : {}, ...(payload ? { payload } : {}) });



describe('admin list of programs (Regulations.View)', () => {
  it('programs: species minimums and submission statistics', async () => {
    const { catchId } = await createLoggedCatch(t, angler.userId, { ...PLACES.columbus, stateCode: 'US-OH', speciesId: SPECIES.muskie, lengthCm: inches(44) });
    expect((await inject('POST', '/api/regulations/master-angler/submissions', angler, { programId: FISH_OHIO, catchId })).statusCode).toBe(201);
    const url = `/api/admin/regulations/programs?jurisdictionId=${OH}`;
    await expectStaffRefused(t, 'GET', url, view);
    const res = await inject('GET', url, view.admin);
    expect(res.headers['x-total-count']).toBe('1');
    expect(res.json()[0]).toMatchObject({
      id: FISH_OHIO,
      state: 'US-OH',
      jurisdictionId: OH,
      name: 'Fish Ohio',
      revision: 1,
      isActive: true,
      usage: { submissions: 1, pending: 1, approved: 0, anglers: 1 },
    });
    expect(res.json()[0].species.find((s: { speciesId: string }) => s.speciesId === SPECIES.muskie)).toMatchObject({ minLengthIn: 40 });
  });
});

describe('Master Angler programs (Regulations.Edit): edited with history', () => {
  it('create: who may and who may not; revision 1 with its state; audit-logged', async () => {
    await expectStaffRefused(t, 'POST', '/api/admin/regulations/programs', edit, programBody());
    const res = await inject('POST', '/api/admin/regulations/programs', edit.grantedModerator, programBody());
    expect(res.statusCode).toBe(201);
    const program = res.json();
    expect(program).toEqual({
      id: expect.any(String),
      state: 'US-OH',
      jurisdictionId: OH,
      name: 'Test Trophy Program',
      url: 'https://example.org/trophy',
      sourceYear: 2025,
      dataYear: 2025,
      dataStatus: 'Outdated', // dataYear 2025, before this year
      measurement: 'Length',
      lengthIncrementIn: null,
      rules: null,
      awardLevels: [
        { name: 'Trophy', speciesCount: 1 },
        { name: 'Master', speciesCount: 3 },
      ],
      isActive: true,
      species: [{ speciesId: SPECIES.muskie, commonName: 'Muskellunge', category: 'Any', minLengthIn: 40, minLengthCm: 101.6, minWeightLb: null, minWeightKg: null, notes: null, dataYear: null, sourceUrl: null }],
      revision: 1,
      deactivationReason: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      usage: { submissions: 0, pending: 0, approved: 0, anglers: 0 },
    });
    expect((await auditEntries(t, 'regulations.ma_program_created')).at(-1)).toMatchObject({ target_id: program.id, reason: 'Test program' });
    expect((await inject('GET', '/api/regulations/master-angler/OH', angler)).json().programs.map((p: { name: string }) => p.name)).toContain('Test Trophy Program');
    expect((await inject('POST', '/api/admin/regulations/programs', edit.admin, programBody({ name: 'test trophy PROGRAM' }))).json()).toMatchObject({
      status: 409,
      code: 'regulations.duplicate_program',
    });
    expect((await inject('POST', '/api/admin/regulations/programs', edit.admin, programBody({ name: 'Other', species: [{ speciesId: SPECIES.pike, minWeightLb: 12 }] }))).json()).toMatchObject({
      status: 400,
      code: 'regulations.invalid_program',
      errors: [{ pointer: '/species/0/minLengthIn', in: 'body' }],
    });
    expect((await inject('POST', '/api/admin/regulations/programs', edit.admin, programBody({ name: 'Other', jurisdictionId: MISSING_ID }))).statusCode).toBe(400);
  });

  it('update: the species list is replaced, every change a revision with who, when and why; 404 for a missing id', async () => {
    const program = (await inject('POST', '/api/admin/regulations/programs', edit.admin, programBody({ name: 'History Program' }))).json();
    const url = `/api/admin/regulations/programs/${program.id}`;
    await expectStaffRefused(t, 'PATCH', url, edit, { sourceYear: 2026, reason: 'x' });
    expect((await inject('PATCH', `/api/admin/regulations/programs/${MISSING_ID}`, edit.admin, { sourceYear: 2026, reason: 'x' })).json()).toMatchObject({
      status: 404,
      code: 'regulations.program_not_found',
    });
    const res = await inject('PATCH', url, edit.grantedModerator, {
      sourceYear: 2026,
      species: [
        { speciesId: SPECIES.pike, minLengthIn: 32 },
        { speciesId: SPECIES.walleye, minLengthIn: 28, notes: 'Inland waters' },
      ],
      reason: '2026 minimums',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ revision: 2, sourceYear: 2026 });
    expect(res.json().species.map((s: { speciesId: string; minLengthIn: number }) => [s.speciesId, s.minLengthIn]).sort()).toEqual(
      [
        [SPECIES.pike, 32],
        [SPECIES.walleye, 28],
      ].sort(),
    );
    // Back to muskie: the deactivated row comes back with the new minimum.
    await inject('PATCH', url, edit.admin, { species: [{ speciesId: SPECIES.muskie, minLengthIn: 42 }], reason: 'Muskie only' });
    const revisionsUrl = `${url}/revisions`;
    await expectStaffRefused(t, 'GET', revisionsUrl, view);
    const revisions = await inject('GET', revisionsUrl, view.grantedModerator);
    expect(revisions.headers['x-total-count']).toBe('3');
    const body = revisions.json();
    expect(body.map((r: { revision: number; reason: string }) => [r.revision, r.reason])).toEqual([
      [3, 'Muskie only'],
      [2, '2026 minimums'],
      [1, 'Test program'],
    ]);
    expect(body[0]).toMatchObject({ actorId: edit.admin.userId, program: { sourceYear: 2026, species: [{ speciesId: SPECIES.muskie, minLengthIn: 42 }] } });
    expect(body[2].program).toMatchObject({ sourceYear: 2025, species: [{ speciesId: SPECIES.muskie, minLengthIn: 40 }] });
    expect((await inject('GET', `/api/admin/regulations/programs/${MISSING_ID}/revisions`, view.admin)).json()).toMatchObject({ status: 404, code: 'regulations.program_not_found' });
    expect((await auditEntries(t, 'regulations.ma_program_updated')).at(-1)).toMatchObject({ target_id: program.id, reason: 'Muskie only', before: { revision: 2 }, after: { revision: 3 } });
    // Eligibility follows the change.
    const state = (await inject('GET', '/api/regulations/master-angler/US-OH', angler)).json();
    expect(state.programs.find((p: { id: string }) => p.id === program.id).species).toEqual([expect.objectContaining({ speciesId: SPECIES.muskie, minLengthIn: 42 })]);
  });

  it('takes a JSON Merge Patch: null clears an optional field, a required one is a 400 naming it, the reason is required, the rest stays', async () => {
    const program = (await inject('POST', '/api/admin/regulations/programs', edit.admin, { ...programBody({ name: 'Patch Program' }), rules: 'Photo on a board' })).json();
    const url = `/api/admin/regulations/programs/${program.id}`;
    const patch = (payload: object) =>
      t.app.inject({ method: 'PATCH', url, headers: { ...edit.admin.headers, 'content-type': 'application/merge-patch+json' }, payload: JSON.stringify(payload) });
    const res = await patch({ rules: null, reason: 'Rules moved to the program page' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: program.id, name: 'Patch Program', rules: null, sourceYear: program.sourceYear, revision: 2 });
    expect(res.json().species).toEqual(program.species);
    const cleared = await patch({ name: null, reason: 'x' });
    expect(cleared.json()).toMatchObject({ status: 400, errors: [expect.objectContaining({ pointer: '/name' })] });
    expect((await patch({ sourceYear: 2026 })).json()).toMatchObject({ status: 400 });
    expect((await inject('GET', `/api/admin/regulations/programs?q=Patch%20Program`, view.admin)).json()[0]).toMatchObject({ name: 'Patch Program', rules: null, revision: 2 });
  });
});

describe('older spellings of Master Angler values', () => {
  it('are still accepted (measurement either, category release); the answer spells them the new way', async () => {
    const body = { ...programBody(), name: 'Older spellings program', measurement: 'either', species: [{ speciesId: SPECIES.muskie, category: 'release', minLengthIn: 40 }] };
    const res = await inject('POST', '/api/admin/regulations/programs', edit.grantedModerator, body);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ measurement: 'Either', species: [expect.objectContaining({ category: 'Release' })] });
  });
});
