import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { auditEntries, createStaff, createUser, type Staff, type TestUser, PLACES, SPECIES } from '../../../test/factories.js';
import { main } from '../../cli/index.js';
import { writeLicenseYears, type LicenseYearFileData } from './license-years.js';
import { loadRegulationData } from './regulations.seeds.js';

/**
 * Loading a license year without code: POST /api/admin/regulations/license-years and
 * `fishlog regulations import`. Every year imported here is synthetic test data.
 */

let t: TestApp;
let edit: Staff;
let angler: TestUser;
const dir = mkdtempSync(path.join(os.tmpdir(), 'fishlog-license-years-'));

beforeAll(async () => {
  t = await createTestApp();
  edit = await createStaff(t, 'Regulations.Edit', { otherPermission: 'Regulations.View' });
  angler = await createUser(t);
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

const MN_PAGE = 'https://www.dnr.state.mn.us/regulations/fishing/index.html';
/** A synthetic Minnesota license year: TEST DATA, not real regulations. */
function syntheticYear(year: number, overrides: Record<string, unknown> = {}) {
  const start = `${year}-03-01`;
  const end = `${year + 1}-02-28`;
  return {
    about: `TEST DATA: a synthetic ${year} license year made up by the test suite, not real regulations.`,
    licenseYears: [{ jurisdiction: 'US-MN', year, startsOn: start, endsOn: end }],
    waters: [
      {
        jurisdiction: 'US-MN',
        kind: 'water_body',
        name: 'Test Pond (synthetic)',
        description: 'TEST DATA: a square in northern Minnesota.',
        boundary: { type: 'Polygon', coordinates: [[[-94.5, 47.5], [-94.4, 47.5], [-94.4, 47.6], [-94.5, 47.6], [-94.5, 47.5]]] },
      },
    ],
    rules: [
      { jurisdiction: 'US-MN', species: 'Sander vitreus', openSeasons: [[`${year}-05-09`, `${year + 1}-02-21`]], dailyBag: 4, possessionLimit: 4, notes: 'TEST DATA', sourceUrl: MN_PAGE },
      { jurisdiction: 'US-MN', species: 'Perca flavescens', openSeasons: [[start, end]], dailyBag: 15, notes: 'TEST DATA', sourceUrl: MN_PAGE },
      { jurisdiction: 'US-MN', water: 'Test Pond (synthetic)', species: 'Esox lucius', openSeasons: [[start, end]], dailyBag: 1, notes: 'TEST DATA', sourceUrl: MN_PAGE },
    ],
    ...overrides,
  };
}

const post = (user: TestUser | null, payload: object, query = '') =>
  t.app.inject({ method: 'POST', url: `/api/admin/regulations/license-years${query}`, headers: user ? user.headers : {}, payload });
const lookup = async (date: string) => (await t.app.inject({ method: 'GET', url: `/api/regulations/by-location?lat=${PLACES.centralMinnesota.lat}&lon=${PLACES.centralMinnesota.lon}&date=${date}`, headers: angler.headers })).json();

async function cli(args: string[]) {
  let out = '';
  let err = '';
  const code = await main(args, { out: (s) => (out += s), err: (s) => (err += s), env: { DATABASE_URL: t.testDatabase.url, FISHLOG_SCRYPT_COST: '10', FISHLOG_AUDIT_KEY: process.env.FISHLOG_AUDIT_KEY! } });
  return { code, out, err };
}

describe('POST /api/admin/regulations/license-years', () => {
  it('Regulations.Edit only: 401 without a token; 403 for a standard user, the admin denied it and a moderator without it', async () => {
    expect((await post(null, syntheticYear(2026), '?dryRun=true')).statusCode).toBe(401);
    for (const user of [edit.standard, edit.deniedAdmin, edit.moderator]) {
      expect((await post(user, syntheticYear(2026), '?dryRun=true')).json()).toMatchObject({ status: 403, code: 'access.permission_denied' });
    }
  });

  it('a dry run lists what differs from 2025 and writes nothing', async () => {
    const res = await post(edit.grantedModerator, syntheticYear(2026), '?dryRun=true');
    expect(res.statusCode).toBe(200);
    const [mn] = res.json().licenseYears;
    expect(res.json().dryRun).toBe(true);
    expect(mn).toMatchObject({ jurisdiction: 'US-MN', year: 2026, previousYear: 2025, rules: 3, waters: 1 });
    expect(mn.added).toEqual(['Northern pike, in Test Pond (synthetic)']);
    expect(mn.removed).toContain('Muskellunge, statewide');
    const walleye = mn.changed.find((c: { rule: string }) => c.rule === 'Walleye, statewide');
    expect(walleye.fields).toEqual(
      expect.arrayContaining([
        { field: 'dailyBag', from: 6, to: 4 },
        { field: 'openSeasons', from: [{ from: '2025-05-10', to: '2026-02-22' }], to: [{ from: '2026-05-09', to: '2027-02-21' }] },
      ]),
    );
    expect((await lookup('2026-06-01')).dataStatus).toBe('Outdated');
  });

  it('400 naming every problem: unknown species, a broken polygon, a season outside the year, an unknown state; nothing written', async () => {
    const bad = syntheticYear(2026, {
      waters: [{ jurisdiction: 'US-MN', kind: 'water_body', name: 'Bowtie', boundary: { type: 'Polygon', coordinates: [[[-94, 47], [-93, 48], [-93, 47], [-94, 48], [-94, 47]]] } }],
      rules: [
        { jurisdiction: 'US-MN', species: 'Fishus imaginarius', sourceUrl: MN_PAGE },
        { jurisdiction: 'US-MN', species: 'Sander vitreus', openSeasons: [['2025-05-10', '2026-02-22']], sourceUrl: MN_PAGE },
        { jurisdiction: 'US-XX', species: 'Sander vitreus', sourceUrl: MN_PAGE },
      ],
    });
    const res = await post(edit.admin, bad, '?reason=test');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('regulations.invalid_license_year_file');
    const pointers = res.json().errors.map((e: { pointer: string }) => e.pointer);
    expect(pointers).toEqual(expect.arrayContaining(['/waters/0/boundary/coordinates/0/0', '/rules/0/species', '/rules/1/openSeasons/0/0', '/rules/2/jurisdiction']));
    const schema = await post(edit.admin, { licenseYears: [], rules: [], extra: 1 }, '?reason=test');
    expect(schema.statusCode).toBe(400);
    expect((await lookup('2026-06-01')).dataStatus).toBe('Outdated');
  });

  it('400 without a reason (unless a dry run)', async () => {
    expect((await post(edit.admin, syntheticYear(2026))).json()).toMatchObject({ status: 400, code: 'regulations.reason_required' });
  });

  it('imports in one transaction, audit-logged with the reason; the lookup inside the year answers Current from it; a second import is 409', async () => {
    const res = await post(edit.admin, syntheticYear(2026), '?reason=Synthetic%202026%20test%20year');
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ dryRun: false, licenseYears: [{ jurisdiction: 'US-MN', year: 2026 }] });
    const body = await lookup('2026-06-01');
    expect(body).toMatchObject({ dataStatus: 'Current', warning: null, licenseYear: { year: 2026, startsOn: '2026-03-01', endsOn: '2027-02-28' } });
    expect(body.rules.map((r: { species: { id: string } }) => r.species.id).sort()).toEqual([SPECIES.perch, SPECIES.walleye].sort());
    expect(body.rules.find((r: { species: { id: string } }) => r.species.id === SPECIES.walleye)).toMatchObject({ seasonStatus: 'Open', dailyBag: 4, source: { bookletYear: 2026 } });
    // 2025 dates still answer the 2025 rules; after 2026 ends, 2026 is the outdated year.
    expect((await lookup('2025-06-01')).licenseYear.year).toBe(2025);
    expect(await lookup('2027-06-01')).toMatchObject({ dataStatus: 'Outdated', licenseYear: { year: 2026 } });
    const [audit] = await auditEntries(t, 'regulations.license_year_imported');
    expect(audit).toMatchObject({ reason: 'Synthetic 2026 test year', target_type: 'reg_license_year', actor_user_id: edit.admin.userId });
    const again = await post(edit.owner, syntheticYear(2026), '?reason=again');
    expect(again.json()).toMatchObject({ status: 409, code: 'regulations.license_year_exists' });
  });

  it('two imports of the same year sent in parallel: one is written, the other is 409', async () => {
    const [a, b] = await Promise.all([post(edit.admin, syntheticYear(2027), '?reason=a'), post(edit.owner, syntheticYear(2027), '?reason=b')]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    expect((await auditEntries(t, 'regulations.license_year_imported')).filter((e) => (e.after as { year: number }).year === 2027)).toHaveLength(1);
  });
});

describe('fishlog regulations import', () => {
  it('--dry-run prints the differences against the previous year; the import writes it; errors name the problem', async () => {
    const file = path.join(dir, 'rules-2028.json');
    writeFileSync(file, JSON.stringify(syntheticYear(2028)));
    const dry = await cli(['regulations', 'import', file, '--dry-run']);
    expect(dry.code, dry.err).toBe(0);
    expect(dry.out).toContain('US-MN 2028 (2028-03-01 to 2029-02-28): 3 rules, 1 waters; compared with 2027:');
    expect(dry.out).toContain('dry run: nothing written');
    expect((await lookup('2028-06-01')).licenseYear.year).toBe(2027);
    const done = await cli(['regulations', 'import', file, '--reason', 'CLI test year']);
    expect(done.code, done.err).toBe(0);
    expect(done.out).toContain('imported 1 license year(s)');
    expect(await lookup('2028-06-01')).toMatchObject({ dataStatus: 'Current', licenseYear: { year: 2028 } });
    const twice = await cli(['regulations', 'import', file]);
    expect(twice.code).toBe(1);
    expect(twice.err).toContain('loaded already');
    const broken = path.join(dir, 'broken.json');
    writeFileSync(broken, JSON.stringify(syntheticYear(2029, { rules: [{ jurisdiction: 'US-MN', species: 'Fishus imaginarius', sourceUrl: MN_PAGE }] })));
    const refused = await cli(['regulations', 'import', broken, '--dry-run']);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('/rules/0/species Fishus imaginarius is not in the species catalog');
    expect((await cli(['regulations', 'import', path.join(dir, 'missing.json')])).code).toBe(2);
  });
});

describe('the reference data seed', () => {
  it('replaces a seeded version the file now states differently by a corrected version from the same day, once', async () => {
    const year = structuredClone(loadRegulationData().licenseYears.find((y) => y.file === 'rules-2025.json')!.data) as LicenseYearFileData;
    const perch = year.rules.find((r) => r.jurisdiction === 'US-MN' && !r.water && r.species === 'Perca flavescens')!;
    perch.dailyBag = 19; // as if the file had been corrected
    const rows = () => t.database.pool.query('SELECT version, is_active, daily_bag, effective_from::text FROM reg_rule_sets WHERE species_id = $1 AND zone_id IS NULL AND jurisdiction_id = (SELECT id FROM reg_jurisdictions WHERE code = $2) AND booklet_year = 2025 ORDER BY version', [SPECIES.perch, 'US-MN']);
    for (let run = 0; run < 2; run++) await t.database.db.transaction((tx) => writeLicenseYears(tx, year, null));
    expect((await rows()).rows).toEqual([
      { version: 1, is_active: false, daily_bag: 20, effective_from: '2025-03-01' },
      { version: 2, is_active: true, daily_bag: 19, effective_from: '2025-03-01' },
    ]);
    expect((await lookup('2025-06-01')).rules.find((r: { species: { id: string } }) => r.species.id === SPECIES.perch)).toMatchObject({ dailyBag: 19, version: 2 });
  });
});
