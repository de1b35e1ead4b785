import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { listQuery, paginate } from './pagination.js';
import { HttpErrors } from './problem.js';
import { errorResponses, IdParams } from './schemas.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    env: { FISHLOG_BODY_LIMIT: '2048' },
    configure(app) {
      // Test-only probes that exercise the shared HTTP mechanisms.
      app.post(
        '/test/things/:id',
        {
          config: { access: 'public' },
          schema: {
            params: IdParams,
            body: Type.Object(
              { name: Type.String({ minLength: 1 }), weightKg: Type.Number({ exclusiveMinimum: 0 }), kind: Type.Optional(Type.Union([Type.Literal('rod'), Type.Literal('reel')])) },
              { additionalProperties: false },
            ),
            response: { 201: Type.Object({ id: Type.String(), name: Type.String() }, { additionalProperties: false }) },
          },
        },
        async (request, reply) => {
          const { id } = request.params as { id: string };
          const { name } = request.body as { name: string };
          // `secret` is not in the response schema: it must never reach the client.
          return reply.code(201).send({ id, name, secret: 'hash' } as never);
        },
      );
      app.get('/test/boom', { config: { access: 'public' } }, async () => {
        throw new Error('connection string postgres://x:supersecret@db');
      });
      // Each probe declares what it answers, as a route of the API does (test/conformance.ts holds them to it).
      app.get('/test/conflict', { config: { access: 'public' }, schema: { response: errorResponses(409) } }, async () => {
        throw HttpErrors.conflict('test.duplicate', 'Already there; pick another name.');
      });
      app.get('/test/pg-invalid', { config: { access: 'public' }, schema: { response: errorResponses(400) } }, async () => {
        await t.database.pool.query("SELECT 'not-a-number'::int");
      });
      app.get(
        '/test/numbers',
        { config: { access: 'public' }, schema: { querystring: listQuery({ odd: Type.Optional(Type.Boolean()) }), response: { 200: Type.Array(Type.Integer()) } } },
        async (request, reply) => {
          const query = request.query as { page: number; pageSize: number; odd?: boolean };
          const all = Array.from({ length: 45 }, (_, i) => i + 1).filter((n) => query.odd === undefined || (n % 2 === 1) === query.odd);
          return paginate(request, reply, query, async (page) => ({ items: all.slice(page.offset, page.offset + page.limit), total: all.length }));
        },
      );
      app.get(
        '/test/huge',
        { config: { access: 'public' }, schema: { querystring: listQuery({}), response: { 200: Type.Array(Type.Integer()) } } },
        async (request, reply) =>
          paginate(request, reply, request.query as { page: number; pageSize: number }, async (page) => ({
            items: Array.from({ length: page.limit }, (_, i) => page.offset + i),
            total: 10_000,
            exact: false,
          })),
      );
      app.get('/test/private', async () => ({ ok: true }));
    },
  });
});

afterAll(async () => {
  await t?.close();
});

const id = '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21';

function expectProblem(body: Record<string, unknown>, status: number, code: string) {
  expect(body).toMatchObject({ status, code, type: `urn:fishlog:problem:${code}` });
  expect(typeof body.title).toBe('string');
  expect(typeof body.detail).toBe('string');
  expect(typeof body.instance).toBe('string');
}

describe('problem+json errors', () => {
  it('answers unknown routes with a 404 problem', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/nope?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    const body = res.json();
    expectProblem(body, 404, 'http.route_not_found');
    expect(body.instance).toBe('/nope');
    expect(body.detail).toContain('GET /nope');
  });

  it('answers malformed JSON with a 400 problem', async () => {
    const res = await t.app.inject({ method: 'POST', url: `/test/things/${id}`, headers: { 'content-type': 'application/json' }, payload: '{"name": ' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expectProblem(res.json(), 400, 'request.malformed_json');
  });

  it('answers an empty JSON body with a 400 problem', async () => {
    const res = await t.app.inject({ method: 'POST', url: `/test/things/${id}`, headers: { 'content-type': 'application/json' }, payload: '' });
    expect(res.statusCode).toBe(400);
    expectProblem(res.json(), 400, 'request.empty_body');
  });

  it('answers a wrong content type with 415', async () => {
    const res = await t.app.inject({ method: 'POST', url: `/test/things/${id}`, headers: { 'content-type': 'text/plain' }, payload: 'name=x' });
    expect(res.statusCode).toBe(415);
    const body = res.json();
    expectProblem(body, 415, 'request.unsupported_media_type');
    expect(body.detail).toContain('application/json');
  });

  it('answers an oversized body with 413', async () => {
    const res = await t.app.inject({ method: 'POST', url: `/test/things/${id}`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ name: 'x'.repeat(5000), weightKg: 1 }) });
    expect(res.statusCode).toBe(413);
    const body = res.json();
    expectProblem(body, 413, 'request.body_too_large');
    expect(body.detail).toContain('2048');
  });

  it('names every invalid field with a JSON pointer', async () => {
    const res = await t.app.inject({ method: 'POST', url: `/test/things/${id}`, payload: { weightKg: -1, kind: 'boat', extra: true } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expectProblem(body, 400, 'request.validation_failed');
    expect(body.errors).toEqual(
      expect.arrayContaining([
        { pointer: '/name', in: 'body', detail: 'is required' },
        { pointer: '/extra', in: 'body', detail: 'is not a known property; remove it' },
        expect.objectContaining({ pointer: '/weightKg', in: 'body' }),
        expect.objectContaining({ pointer: '/kind', in: 'body' }),
      ]),
    );
  });

  it('rejects unknown body properties (no mass assignment)', async () => {
    const res = await t.app.inject({ method: 'POST', url: `/test/things/${id}`, payload: { name: 'a', weightKg: 1, role: 'Owner' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ pointer: '/role', in: 'body', detail: 'is not a known property; remove it' }]);
  });

  it('answers a malformed id with 400 naming the path parameter', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/test/things/not-a-uuid', payload: { name: 'a', weightKg: 1 } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ pointer: '/id', in: 'path', detail: 'must be a UUID' }]);
  });

  it('serialises responses through the response schema only', async () => {
    const res = await t.app.inject({ method: 'POST', url: `/test/things/${id}`, payload: { name: 'Ugly Stik', weightKg: 0.2 } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ id, name: 'Ugly Stik' });
  });

  it('hides internals of 5xx errors', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/test/boom' });
    expect(res.statusCode).toBe(500);
    const body = res.json();
    expectProblem(body, 500, 'internal.unexpected');
    expect(res.body).not.toContain('supersecret');
    expect(res.body).not.toContain('postgres://');
    expect(body.detail).toContain(res.headers['x-request-id']);
  });

  it('maps typed errors to their status and code', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/test/conflict' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'test.duplicate', detail: 'Already there; pick another name.', title: 'Conflict' });
  });

  it('turns a database data error caused by input into a 400, not a 500', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/test/pg-invalid' });
    expect(res.statusCode).toBe(400);
    expectProblem(res.json(), 400, 'request.invalid_value');
  });

  it('needs a token on routes that are not public', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/test/private' });
    expect(res.statusCode).toBe(401);
    expectProblem(res.json(), 401, 'auth.token_missing');
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });
});

describe('request ids', () => {
  it('sends a generated X-Request-Id on every response, errors included', async () => {
    const ok = await t.app.inject({ method: 'GET', url: '/health' });
    const missing = await t.app.inject({ method: 'GET', url: '/nope' });
    expect(ok.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(missing.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(missing.json().requestId).toBe(missing.headers['x-request-id']);
    expect(ok.headers['x-request-id']).not.toBe(missing.headers['x-request-id']);
  });

  it('keeps a well-formed incoming X-Request-Id and replaces a malformed one', async () => {
    const kept = await t.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'edge-42.abc' } });
    expect(kept.headers['x-request-id']).toBe('edge-42.abc');
    const replaced = await t.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'bad id\u0001' } });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('pagination', () => {
  it('defaults to page 1 of 20 with X-Total-Count and Link headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/test/numbers' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(res.headers['x-total-count']).toBe('45');
    expect(res.headers.link).toBe(
      '</test/numbers?page=1&pageSize=20>; rel="first", </test/numbers?page=2&pageSize=20>; rel="next", </test/numbers?page=3&pageSize=20>; rel="last"',
    );
  });

  it('links prev and next from a middle page and keeps the filters', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/test/numbers?odd=true&page=2&pageSize=5' });
    expect(res.json()).toEqual([11, 13, 15, 17, 19]);
    expect(res.headers['x-total-count']).toBe('23');
    const link = res.headers.link as string;
    expect(link).toContain('</test/numbers?odd=true&page=1&pageSize=5>; rel="prev"');
    expect(link).toContain('</test/numbers?odd=true&page=3&pageSize=5>; rel="next"');
    expect(link).toContain('</test/numbers?odd=true&page=5&pageSize=5>; rel="last"');
  });

  it('answers an empty array past the last page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/test/numbers?page=9' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    expect(res.headers.link).not.toContain('rel="next"');
  });

  it.each([
    ['pageSize=101', '/pageSize'],
    ['pageSize=0', '/pageSize'],
    ['page=0', '/page'],
    ['page=abc', '/page'],
    ['page=10001', '/page'],
  ])('rejects %s with a 400 naming the parameter', async (query, pointer) => {
    const res = await t.app.inject({ method: 'GET', url: `/test/numbers?${query}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toMatchObject({ pointer, in: 'query' });
  });

  it('marks a capped total and leaves out the last link', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/test/huge?page=600&pageSize=20' });
    expect(res.headers['x-total-count']).toBe('10000');
    expect(res.headers['x-total-count-exact']).toBe('false');
    expect(res.headers.link).toContain('page=601&pageSize=20>; rel="next"');
    expect(res.headers.link).toContain('page=599&pageSize=20>; rel="prev"');
    expect(res.headers.link).not.toContain('rel="last"');
  });

  it('rejects unknown query parameters', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/test/numbers?sort=desc' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toMatchObject({ pointer: '/sort', in: 'query' });
  });
});
