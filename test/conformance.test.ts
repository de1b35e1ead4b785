import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentTable, documentPath } from './conformance.js';
import { createTestApp, type TestApp } from './harness.js';

/**
 * The check every test app runs on its responses (test/conformance.ts): what it lets pass and what
 * it reports, against the real document, and that a mismatch fails the test that caused it.
 */

let t: TestApp;
let document: Record<string, unknown>;
let table: DocumentTable;
let teapotInSetup: { statusCode: number; body: string };

beforeAll(async () => {
  t = await createTestApp({
    configure: (app) => {
      // A route whose answer its schema does not declare.
      app.get(
        '/test/teapot',
        { config: { access: 'public' }, schema: { operationId: 'testTeapot', summary: 'A probe', response: { 200: { type: 'object', properties: {} } } } },
        async (_request, reply) => reply.code(418 as 200).type('text/plain').send("I'm a teapot" as never),
      );
    },
  });
  document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  table = new DocumentTable(document, 'problems');
  // Outside a test, a mismatch becomes the response.
  teapotInSetup = await t.app.inject({ method: 'GET', url: '/test/teapot' });
});
afterAll(async () => t?.close());

const problem = (status: number, code: string) =>
  JSON.stringify({ type: `urn:fishlog:problem:${code}`, title: 'x', status, detail: 'x', code, instance: '/x', requestId: 'r' });

describe('the OpenAPI conformance check of test responses', () => {
  it('matches a route to the document’s path', () => {
    expect(documentPath('/api/clubs/:id/members/:userId')).toBe('/api/clubs/{id}/members/{userId}');
    expect(documentPath('/health')).toBe('/health');
  });

  it('lets a declared status, media type and problem body pass, a shared response ($ref) too', () => {
    const ok = { method: 'POST', routeUrl: '/api/clubs/:id/join', contentType: 'application/problem+json; charset=utf-8' };
    expect(table.mismatch({ ...ok, status: 403, payload: problem(403, 'auth.banned') })).toBeUndefined();
    expect(table.mismatch({ ...ok, status: 503, payload: problem(503, 'system.maintenance') })).toBeUndefined();
    expect(table.mismatch({ ...ok, status: 200, contentType: 'application/json; charset=utf-8', payload: '{}' })).toBeUndefined();
    expect(table.mismatch({ method: 'GET', routeUrl: '/metrics', status: 200, contentType: 'text/plain; version=0.0.4; charset=utf-8', payload: '# HELP x\n' })).toBeUndefined();
    // HEAD is held against the GET; 204 and 304 carry no content whatever their Content-Type.
    expect(table.mismatch({ method: 'HEAD', routeUrl: '/health', status: 200, contentType: 'application/json', payload: '' })).toBeUndefined();
    expect(table.mismatch({ method: 'POST', routeUrl: '/api/clubs/:id/leave', status: 204, contentType: 'application/json', payload: 'null' })).toBeUndefined();
  });

  it('reports a status the operation does not declare, naming what it declares', () => {
    expect(table.mismatch({ method: 'GET', routeUrl: '/health/live', status: 503, contentType: 'application/problem+json', payload: problem(503, 'system.maintenance') })).toBe(
      'the document declares no 503 for this operation (it declares 200, 429, 500)',
    );
  });

  it('reports a media type the status does not declare', () => {
    expect(table.mismatch({ method: 'GET', routeUrl: '/metrics', status: 200, contentType: 'application/json; charset=utf-8', payload: '"x"' })).toBe(
      'the document declares text/plain for 200, not application/json',
    );
    expect(table.mismatch({ method: 'POST', routeUrl: '/api/clubs/:id/join', status: 404, contentType: 'text/html', payload: '<p>' })).toBe(
      'the document declares application/problem+json for 404, not text/html',
    );
  });

  it('reports a problem body its schema refuses', () => {
    const body = JSON.stringify({ ...JSON.parse(problem(400, 'request.validation_failed')), errors: [{ pointer: '/', in: 'cookie', detail: 'x' }] });
    expect(table.mismatch({ method: 'POST', routeUrl: '/api/clubs/:id/join', status: 400, contentType: 'application/problem+json', payload: body })).toMatch(
      /^the body does not match the declared schema: \/errors\/0\/in must be equal to one of the allowed values/,
    );
    expect(table.mismatch({ method: 'POST', routeUrl: '/api/clubs/:id/join', status: 400, contentType: 'application/problem+json', payload: '{"status":400}' })).toMatch(
      /^the body does not match the declared schema: \/ must have required property 'type'/,
    );
  });

  it('validates success bodies too when asked (FISHLOG_TEST_VALIDATE_BODIES=all)', () => {
    const all = new DocumentTable(document, 'all');
    const club = { method: 'POST', routeUrl: '/api/clubs/:id/join', status: 200, contentType: 'application/json; charset=utf-8' };
    expect(table.mismatch({ ...club, payload: '{}' })).toBeUndefined();
    expect(all.mismatch({ ...club, payload: '{}' })).toMatch(/^the body does not match the declared schema: \/ must have required property 'id'/);
    expect(all.mismatch({ method: 'GET', routeUrl: '/health/live', status: 200, contentType: 'application/json', payload: '{"status":"ok","uptimeSeconds":3}' })).toBeUndefined();
  });

  it('reports a route the document does not have', () => {
    expect(table.mismatch({ method: 'GET', routeUrl: '/nowhere', status: 200, contentType: 'application/json', payload: '{}' })).toBe('the document has no operation GET /nowhere');
  });

  it('turns a mismatch outside a test (beforeAll) into a 500 problem saying it', () => {
    expect(teapotInSetup.statusCode).toBe(500);
    expect(JSON.parse(teapotInSetup.body)).toMatchObject({
      status: 500,
      code: 'test.openapi_mismatch',
      detail: expect.stringMatching(/^OpenAPI conformance: GET \/test\/teapot \(testTeapot\) answered 418 text\/plain, request id \S+: the document declares no 418 for this operation/),
    });
  });

  it.fails('fails the test that got an undeclared answer (the answer itself is left as it was)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/test/teapot' });
    // The test goes on (and passes its own assertions) but is reported failed with the mismatch.
    expect(res.statusCode).toBe(418);
  });

  it('leaves routes hidden from the document and unmatched requests alone', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/docs/static/swagger-ui.css' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/nowhere' })).json()).toMatchObject({ status: 404, code: 'http.route_not_found' });
  });
});
