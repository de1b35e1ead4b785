import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, type TestUser, createLoggedCatch, inches, PLACES, SPECIES } from '../../../test/factories.js';

/**
 * Regulations past their license year, with the app's clock moved (BuildAppOptions.now): lookups
 * answer the newest rules flagged Outdated, catch checks answer Unknown, operators are warned.
 */

/** Noon in Minnesota on a date. */
const noonIn = (date: string) => Date.parse(`${date}T18:00:00Z`);
let clock = noonIn('2026-11-26');
let t: TestApp;
let angler: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp({ now: () => clock });
  angler = await createUser(t);
  admin = await createUser(t, { role: 'Admin' });
});
afterAll(async () => t?.close());

const get = (url: string, user: TestUser | null = angler) => t.app.inject({ method: 'GET', url, headers: user ? user.headers : {} });
const today = (place: { lat: number; lon: number }, extra = '') => get(`/api/regulations/by-location?lat=${place.lat}&lon=${place.lon}${extra}`);
const MN_PAGE = 'https://www.dnr.state.mn.us/regulations/fishing/index.html';

describe('a lookup on a date after the newest license year', () => {
  it('2026-11-26 at Mille Lacs: 200 with the 2025 rules, flagged Outdated, with a warning naming the year and the agency page', async () => {
    clock = noonIn('2026-11-26');
    const res = await today(PLACES.milleLacs);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      date: '2026-11-26',
      asOf: '2026-11-26',
      dataStatus: 'Outdated',
      licenseYear: { year: 2025, startsOn: '2025-03-01', endsOn: '2026-02-28' },
      warning: { code: 'regulations.data_outdated', sourceUrl: MN_PAGE, licenseYear: 2025, dataEndsOn: '2026-02-28' },
    });
    expect(body.warning.message).toContain('2025 license year');
    expect(body.warning.message).toContain(MN_PAGE);
    expect(body.rules.length).toBeGreaterThan(5);
    // Seasons of 2025 say nothing about 2026: never shown as open or closed.
    expect(new Set(body.rules.map((r: { seasonStatus: string }) => r.seasonStatus))).toEqual(new Set(['Unknown']));
    const walleye = body.rules.find((r: { species: { id: string } }) => r.species.id === SPECIES.walleye);
    expect(walleye.source.bookletYear).toBe(2025);
  });

  it('2027-03-01: still the newest rules we have (Wisconsin, ended 2026-03-31), Outdated', async () => {
    clock = noonIn('2027-03-01');
    const body = (await today(PLACES.centralMinnesota, '&state=WI')).json();
    expect(body).toMatchObject({ asOf: '2027-03-01', dataStatus: 'Outdated', licenseYear: { year: 2025, endsOn: '2026-03-31' }, warning: { licenseYear: 2025 } });
  });

  it('the last day of the data year is Current without a warning; the day after is Outdated', async () => {
    clock = noonIn('2026-02-28');
    const last = (await today(PLACES.centralMinnesota)).json();
    expect(last).toMatchObject({ asOf: '2026-02-28', dataStatus: 'Current', warning: null, licenseYear: { year: 2025 } });
    const walleye = last.rules.find((r: { species: { id: string } }) => r.species.id === SPECIES.walleye);
    expect(walleye.seasonStatus).toBe('Closed'); // the inland season ended February 22
    clock = noonIn('2026-03-01');
    expect((await today(PLACES.centralMinnesota)).json()).toMatchObject({ asOf: '2026-03-01', dataStatus: 'Outdated', warning: { dataEndsOn: '2026-02-28' } });
  });

  it('an explicit 2025 date answers the 2025 rules as Current whatever the clock says; dates before our data stay 404', async () => {
    clock = noonIn('2026-11-26');
    const body = (await today(PLACES.centralMinnesota, '&date=2025-06-01')).json();
    expect(body).toMatchObject({ date: '2025-06-01', asOf: '2025-06-01', dataStatus: 'Current', warning: null });
    const walleye = body.rules.find((r: { species: { id: string } }) => r.species.id === SPECIES.walleye);
    expect(walleye).toMatchObject({ seasonStatus: 'Open', dailyBag: 6, oneOver: { over: { in: 20 }, count: 1 }, appliesIn: { level: 'Statewide' } });
    const early = await today(PLACES.centralMinnesota, '&date=2025-02-28');
    expect(early.json()).toMatchObject({ status: 404, code: 'regulations.no_license_year' });
  });
});

describe('a catch legality check on such a date', () => {
  const check = (catchId: string) => get(`/api/regulations/check?catchId=${catchId}`);

  it('a walleye caught today (2026-11-26) at Mille Lacs: legal Unknown, the reason first, the 2025 rule as context', async () => {
    clock = noonIn('2026-11-26');
    const { catchId } = await createLoggedCatch(t, angler.userId, { ...PLACES.milleLacs, lengthCm: inches(18), caughtAt: '2026-11-26T17:00:00Z' });
    const res = await check(catchId);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ date: '2026-11-26', licenseYear: 2025, dataStatus: 'Outdated', legal: 'Unknown', legalToKeep: null, warning: { sourceUrl: MN_PAGE } });
    expect(body.reasons[0]).toEqual({ code: 'data_outdated', detail: body.warning.message });
    expect(body.reasons.slice(1).every((r: { detail: string }) => r.detail.startsWith('Under the 2025 rules: '))).toBe(true);
    expect(body.ruleSetId).toEqual(expect.any(String));
    expect(body.source).toMatchObject({ bookletYear: 2025 });
  });

  it('the same fish caught in June 2025 is judged by the 2025 rules as before', async () => {
    const { catchId } = await createLoggedCatch(t, angler.userId, { lengthCm: inches(16), caughtAt: '2025-06-01T14:00:00Z' });
    expect((await check(catchId)).json()).toMatchObject({ dataStatus: 'Current', warning: null, legal: 'Yes', legalToKeep: true, reasons: [] });
  });
});

describe('operators are warned', () => {
  it('/health/ready lists the states whose data ends within 30 days or has ended, and stays ready', async () => {
    clock = noonIn('2026-02-10');
    const soon = (await get('/health/ready', null)).json();
    expect(soon.status).toBe('ready');
    expect(soon.details.regulationData.map((w: { jurisdiction: string }) => w.jurisdiction)).toEqual(['US-MN', 'US-OH']);
    expect(soon.details.regulationData[0]).toMatchObject({ status: 'EndingSoon', daysLeft: 18, licenseYear: 2025, dataEndsOn: '2026-02-28', sourceUrl: MN_PAGE });
    clock = noonIn('2025-06-01');
    expect((await get('/health/ready', null)).json().details.regulationData).toEqual([]);
    clock = noonIn('2026-11-26');
    const ended = await get('/health/ready', null);
    expect(ended.statusCode).toBe(200);
    expect(ended.json().details.regulationData.map((w: { jurisdiction: string; status: string }) => `${w.jurisdiction} ${w.status}`)).toEqual([
      'US-MI Ended',
      'US-MN Ended',
      'US-OH Ended',
      'US-WI Ended',
    ]);
  });

  it('the admin dashboard overview lists them too (and only administrators see it)', async () => {
    clock = noonIn('2026-03-20');
    const res = await get('/api/admin/dashboard/overview', admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().regulationData).toEqual([
      expect.objectContaining({ jurisdiction: 'US-MI', status: 'EndingSoon', daysLeft: 11 }),
      expect.objectContaining({ jurisdiction: 'US-MN', status: 'Ended', daysLeft: -20 }),
      expect.objectContaining({ jurisdiction: 'US-OH', status: 'Ended' }),
      expect.objectContaining({ jurisdiction: 'US-WI', status: 'EndingSoon' }),
    ]);
    const refused = await get('/api/admin/dashboard/overview', angler);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().regulationData).toBeUndefined();
  });
});
