import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, type TestUser } from '../../../test/factories.js';
import { speciesId } from '../species/species.seeds.js';

const WALLEYE = speciesId('Sander vitreus');
const PIKE = speciesId('Esox lucius');

let t: TestApp;
let dnrUser: TestUser;
const anonymous: TestUser[] = [];
let identified: TestUser;
let refuser: TestUser;

async function consent(user: TestUser, level: string) {
  const res = await t.app.inject({ method: 'PUT', url: '/api/fishinglog/research-consent', headers: user.headers, payload: { level } });
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function logCatch(user: TestUser, species: string, overrides: Record<string, unknown> = {}) {
  const entry = await t.app.inject({
    method: 'POST',
    url: '/api/fishinglog/entries',
    headers: user.headers,
    payload: {
      title: 'Research trip',
      occurredAt: '2026-05-20T13:47:12Z',
      timeZone: 'America/Chicago',
      location: { latitude: 46.23456, longitude: -93.65432, waterBody: 'Mille Lacs Lake', stateCode: 'US-MN' },
      notes: 'secret reef by the cabin',
      ...overrides,
    },
  });
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/fishinglog/entries/${entry.json().id}/catches`,
    headers: user.headers,
    payload: { speciesId: species, lengthCm: 50, weightKg: 1.5, released: true, notes: 'my notes' },
  });
  expect(res.statusCode).toBe(201);
}

const analysis = (user: TestUser | undefined, query: string) =>
  t.app.inject({ method: 'GET', url: `/api/fishinglog/dnr/analysis?${query}`, ...(user ? { headers: user.headers } : {}) });
const logRows = async () => (await t.database.pool.query('SELECT * FROM dnr_access_log ORDER BY occurred_at')).rows;

beforeAll(async () => {
  t = await createTestApp();
  dnrUser = await createUser(t, { role: 'DNR', username: 'dnr_dana' });
  for (let i = 0; i < 6; i++) {
    const user = await createUser(t);
    await consent(user, 'Anonymized');
    await logCatch(user, WALLEYE);
    anonymous.push(user);
  }
  // Pike: only two anglers: an aggregate group that must be suppressed.
  await logCatch(anonymous[0]!, PIKE);
  await logCatch(anonymous[1]!, PIKE);
  identified = await createUser(t, { username: 'iris_identified' });
  await consent(identified, 'Identified');
  await logCatch(identified, WALLEYE);
  refuser = await createUser(t);
  await logCatch(refuser, WALLEYE); // never consented
});
afterAll(async () => {
  await t?.close();
});

describe('research consent', () => {
  it('is None until chosen, and can be set', async () => {
    const user = await createUser(t);
    const before = await t.app.inject({ method: 'GET', url: '/api/fishinglog/research-consent', headers: user.headers });
    expect(before.json()).toEqual({ level: 'None', givenAt: null });
    const set = await consent(user, 'Identified');
    expect(set).toEqual({ level: 'Identified', givenAt: expect.any(String) });
    const bad = await t.app.inject({ method: 'PUT', url: '/api/fishinglog/research-consent', headers: user.headers, payload: { level: 'Everything' } });
    expect(bad.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'PUT', url: '/api/fishinglog/research-consent', payload: { level: 'None' } })).statusCode).toBe(401);
  });
});

describe('GET /api/fishinglog/dnr/analysis', () => {
  it.each(['Standard', 'Researcher', 'Admin', 'Moderator', 'Owner'] as const)('refuses the %s role (403) and logs nothing', async (role) => {
    const user = await createUser(t, { role });
    const before = (await logRows()).length;
    const res = await analysis(user, 'purpose=curiosity');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'access.role_required', detail: expect.stringContaining('DNR') });
    expect((await logRows()).length).toBe(before);
  });

  it('needs a token and a purpose', async () => {
    expect((await analysis(undefined, 'purpose=x1234')).statusCode).toBe(401);
    const res = await analysis(dnrUser, '');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ pointer: '/purpose', in: 'query', detail: 'is required' }]);
  });

  it('returns catches of consenting anglers only, anonymized as consented', async () => {
    const res = await analysis(dnrUser, `purpose=${encodeURIComponent('Walleye length study 2026')}&speciesId=${WALLEYE}&pageSize=100`);
    expect(res.statusCode).toBe(200);
    const records = res.json();
    expect(records).toHaveLength(7); // 6 anonymized + 1 identified; the refuser is absent
    expect(res.headers['x-total-count']).toBe('7');
    const anon = records.filter((r: { consent: string }) => r.consent === 'Anonymized');
    expect(anon).toHaveLength(6);
    for (const r of anon) {
      expect(r).toMatchObject({ userId: null, entryId: null, catchId: null, notes: null, location: { latitude: 46.2, longitude: -93.7 }, caughtAt: '2026-05-20T13:00:00.000Z' });
    }
    const ident = records.find((r: { consent: string }) => r.consent === 'Identified');
    expect(ident).toMatchObject({ userId: identified.userId, notes: 'my notes', location: { latitude: 46.23456, longitude: -93.65432 }, species: { commonName: 'Walleye' }, stateCode: 'US-MN' });
    expect(JSON.stringify(records)).not.toContain(refuser.userId);
    expect(JSON.stringify(anon)).not.toContain('secret reef');
  });

  it('writes one access-log row per call, with purpose, filters, count and whose data was included', async () => {
    const before = (await logRows()).length;
    await analysis(dnrUser, `purpose=Audit%20check&speciesId=${PIKE}`);
    const rows = await logRows();
    expect(rows.length).toBe(before + 1);
    const row = rows.at(-1);
    expect(row).toMatchObject({ dnr_user_id: dnrUser.userId, purpose: 'Audit check', mode: 'records', record_count: 2, filters: { speciesId: PIKE, page: 1, pageSize: 20 } });
    const subjects = await t.database.pool.query('SELECT user_id, consent_level FROM dnr_access_subjects WHERE access_id = $1 ORDER BY user_id', [row.id]);
    expect(subjects.rows.map((s) => s.user_id).sort()).toEqual([anonymous[0]!.userId, anonymous[1]!.userId].sort());
  });

  it('lets anglers read the accesses that included their data', async () => {
    const mine = await t.app.inject({ method: 'GET', url: '/api/fishinglog/research-access', headers: anonymous[0]!.headers });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()[0]).toEqual({
      id: expect.any(String),
      occurredAt: expect.any(String),
      dnrUsername: 'dnr_dana',
      purpose: 'Audit check',
      mode: 'records',
      filters: expect.objectContaining({ speciesId: PIKE }),
      consentLevel: 'Anonymized',
    });
    const none = await t.app.inject({ method: 'GET', url: '/api/fishinglog/research-access', headers: refuser.headers });
    expect(none.json()).toEqual([]);
  });

  it('applies a withdrawal to the next read', async () => {
    await consent(identified, 'None');
    const res = await analysis(dnrUser, `purpose=after%20withdrawal&speciesId=${WALLEYE}&pageSize=100`);
    expect(res.json()).toHaveLength(6);
    expect(JSON.stringify(res.json())).not.toContain(identified.userId);
    await consent(identified, 'Identified');
  });

  it('aggregates with k-anonymity: groups of fewer than 5 anglers are suppressed', async () => {
    const res = await analysis(dnrUser, 'purpose=species%20mix&groupBy=species');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([{ key: WALLEYE, label: 'Walleye', records: 7, anglers: 7, fish: 7, meanLengthCm: 50, meanWeightKg: 1.5 }]);
    expect(res.headers['x-suppressed-groups']).toBe('1');
    const row = (await logRows()).at(-1);
    expect(row).toMatchObject({ mode: 'aggregate', record_count: 7, filters: { groupBy: 'species' } });
    const subjects = await t.database.pool.query('SELECT count(*)::int AS n FROM dnr_access_subjects WHERE access_id = $1', [row.id]);
    expect(subjects.rows[0].n).toBe(7);
    const byState = await analysis(dnrUser, 'purpose=states&groupBy=state');
    expect(byState.json()).toEqual([expect.objectContaining({ key: 'US-MN', anglers: 7 })]);
    const byMonth = await analysis(dnrUser, 'purpose=months&groupBy=month');
    expect(byMonth.json()).toEqual([expect.objectContaining({ key: '2026-05', records: 9 })]);
  });

  it('suppresses everything when too few anglers match', async () => {
    const res = await analysis(dnrUser, `purpose=rare&groupBy=species&speciesId=${PIKE}`);
    expect(res.json()).toEqual([]);
    expect(res.headers['x-suppressed-groups']).toBe('1');
  });

  it('does not let time filters narrow anonymized times below the hour', async () => {
    // Catches were at 13:47:12; anonymized records show 13:00, and filter as 13:00 too.
    const after = await analysis(dnrUser, `purpose=bisect&speciesId=${WALLEYE}&from=2026-05-20T13:30:00Z&pageSize=100`);
    expect(after.json().map((r: { consent: string }) => r.consent)).toEqual(['Identified']);
    const upTo = await analysis(dnrUser, `purpose=bisect&speciesId=${WALLEYE}&to=2026-05-20T13:00:00Z&pageSize=100`);
    expect(upTo.json().every((r: { consent: string }) => r.consent === 'Anonymized')).toBe(true);
    expect(upTo.json()).toHaveLength(6);
  });

  it('filters by state, time and bounding box', async () => {
    expect((await analysis(dnrUser, 'purpose=none%20here&stateCode=US-WI')).json()).toEqual([]);
    expect((await analysis(dnrUser, 'purpose=later&from=2026-06-01T00:00:00Z')).json()).toEqual([]);
    const box = await analysis(dnrUser, 'purpose=box&minLat=46&maxLat=46.5&minLng=-94&maxLng=-93.5&pageSize=100');
    expect(box.json()).toHaveLength(9);
    expect((await analysis(dnrUser, 'purpose=box&minLat=46')).statusCode).toBe(400);
  });
});

describe('the place of a record', () => {
  it('is location: {latitude, longitude}, or null when the entry has no point (anonymized or not); no top-level latitude/longitude', async () => {
    for (const level of ['Identified', 'Anonymized']) {
      const user = await createUser(t);
      await consent(user, level);
      await logCatch(user, PIKE, { occurredAt: '2025-08-01T10:00:00Z', location: null });
    }
    const res = await analysis(dnrUser, 'purpose=no%20point&to=2025-12-31T00:00:00Z&pageSize=100');
    expect(res.statusCode).toBe(200);
    const records = res.json();
    expect(records.map((r: { consent: string }) => r.consent).sort()).toEqual(['Anonymized', 'Identified']);
    for (const record of records) {
      expect(record.location).toBeNull();
      expect(record).not.toHaveProperty('latitude');
      expect(record).not.toHaveProperty('longitude');
    }
    const placed = (await analysis(dnrUser, `purpose=placed&speciesId=${WALLEYE}&pageSize=1`)).json()[0];
    expect(Object.keys(placed.location).sort()).toEqual(['latitude', 'longitude']);
    expect(placed).not.toHaveProperty('latitude');
  });
});
