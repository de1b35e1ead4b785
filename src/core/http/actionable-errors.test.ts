import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, type TestUser } from '../../../test/factories.js';
import { pascalCase } from './enums.js';
import { isPlausibleDateTime } from './formats.js';

/** Errors a person can act on: enums list their values, implausible dates are refused saying so. */

describe('isPlausibleDateTime', () => {
  const now = Date.UTC(2026, 5, 1, 12, 0, 0);
  it.each([
    ['2026-06-01T05:30:00Z', true],
    ['2026-06-01T05:30:00.123456+02:00', true],
    ['1900-01-01T00:00:00Z', true],
    ['1899-12-31T23:59:59Z', false],
    ['1900-01-01T00:30:00+01:00', false], // 1899-12-31T23:30Z
    ['2026-06-02T11:59:59Z', true], // 24 h ahead, less a second
    ['2026-06-02T12:00:01Z', false],
    ['2026-06-30T23:59:60Z', false], // leap second
    ['2026-02-30T10:00:00Z', false],
    ['2026-06-01T24:00:00Z', false],
    ['2026-06-01T05:30:00', false], // no time zone
    ['2026-06-01', false],
  ])('%s → %s', (value, ok) => {
    expect(isPlausibleDateTime(value, now)).toBe(ok);
  });
});

describe('pascalCase', () => {
  it.each([
    ['pending-incoming', 'PendingIncoming'],
    ['imperial', 'Imperial'],
    ['new_best', 'NewBest'],
    ['Public', 'Public'],
  ])('%s → %s', (from, to) => expect(pascalCase(from)).toBe(to));
});

describe('actionable validation errors (HTTP)', () => {
  let t: TestApp;
  let jo: TestUser;
  let ben: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    jo = await createUser(t);
    ben = await createUser(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const entry = (extra: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/fishinglog/entries',
      headers: jo.headers,
      payload: { title: 'Dawn on the lake', occurredAt: '2026-06-01T05:30:00Z', timeZone: 'America/Chicago', ...extra },
    });

  it('an enum error lists the allowed values (every enum: the shared error mapping)', async () => {
    const res = await entry({ visibility: 'Everyone' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'request.validation_failed',
      errors: [{ pointer: '/visibility', in: 'body', detail: 'must be one of Public, Private, Friends, Circle' }],
    });
    expect(res.json().detail).toContain('/visibility must be one of Public, Private, Friends, Circle');

    const query = await t.app.inject({ method: 'GET', url: '/api/social/friends?status=maybe', headers: jo.headers });
    expect(query.statusCode).toBe(400);
    expect(query.json().errors).toEqual([
      { pointer: '/status', in: 'query', detail: 'must be one of Friends, PendingIncoming, PendingOutgoing' },
    ]);
    // The older spellings are still accepted, but the error names only the current ones.
    expect((await t.app.inject({ method: 'GET', url: '/api/social/friends?status=pending-incoming', headers: jo.headers })).statusCode).toBe(200);
  });

  it('a nullable enum lists null too', async () => {
    const res = await t.app.inject({ method: 'PATCH', url: '/api/userprofile/me', headers: jo.headers, payload: { unitsPreference: 'furlongs' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toMatchObject({ pointer: '/unitsPreference', detail: expect.stringMatching(/^must be one of Imperial, Metric$/) });
  });

  it.each([
    ['before 1900', '1899-12-31T23:59:59Z'],
    ['more than 24 h ahead', new Date(Date.now() + 25 * 3600_000).toISOString()],
    ['a leap second', '2016-12-31T23:59:60Z'],
    ['without a time zone', '2026-06-01T05:30:00'],
  ])('a date-time %s is a 400 saying what is accepted', async (_what, occurredAt) => {
    const res = await entry({ occurredAt });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      {
        pointer: '/occurredAt',
        in: 'body',
        detail: 'must be an ISO 8601 date-time with a time zone (e.g. 2026-06-01T05:30:00Z), from 1900-01-01 to at most 24 hours from now (no leap second :60)',
      },
    ]);
  });

  it('date-time query filters are held to the same range', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/fishinglog/entries?from=1850-01-01T00:00:00Z', headers: jo.headers });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toMatchObject({ pointer: '/from', in: 'query' });
  });

  it('a date-time within the range is accepted', async () => {
    const res = await entry({ occurredAt: new Date(Date.now() + 3600_000).toISOString() });
    expect(res.statusCode).toBe(201);
  });

  it('units: PascalCase answered, the older spelling still accepted', async () => {
    const old = await t.app.inject({ method: 'PATCH', url: '/api/userprofile/me', headers: jo.headers, payload: { unitsPreference: 'metric' } });
    expect(old.statusCode).toBe(200);
    expect(old.json().unitsPreference).toBe('Metric');
    const pascal = await t.app.inject({ method: 'PATCH', url: '/api/userprofile/me', headers: jo.headers, payload: { unitsPreference: 'Imperial' } });
    expect(pascal.json().unitsPreference).toBe('Imperial');
  });

  it('friend status: PascalCase answered, the older spelling still accepted in the filter', async () => {
    const added = await t.app.inject({ method: 'POST', url: `/api/social/friends/${ben.userId}`, headers: jo.headers });
    expect(added.json().status).toBe('PendingOutgoing');
    for (const status of ['PendingIncoming', 'pending-incoming']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/social/friends?status=${status}`, headers: ben.headers });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([expect.objectContaining({ userId: jo.userId, status: 'PendingIncoming' })]);
    }
  });
});
