import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileAllValidators, validatorFactory } from './compilers.js';
import { createTestApp, type TestApp } from '../../../test/harness.js';

describe('OpenAPI and docs, public (default outside production)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves an OpenAPI 3.1 document (linted with Redocly and Spectral in openapi.contract.test.ts)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json().openapi).toBe('3.1.0');
  });

  it('compiles the request validator of every route (compiled on first use in service), each schema valid against the meta-schema', () => {
    // A broken schema must fail here, not as a 500 on a route's first request.
    expect(compileAllValidators(t.app)).toBeGreaterThan(300);
    expect(compileAllValidators(t.app)).toBe(0);
    // The check compileAll makes (not made at start): a schema the meta-schema refuses is named.
    const factory = validatorFactory();
    factory.build({ Shared: { $id: 'Shared', type: 'object' } })({ schema: { type: 'strin' }, httpPart: 'body', method: 'POST', url: '/x' });
    expect(() => factory.compileAll()).toThrow(/invalid JSON Schema \{"type":"strin"\}: data\/type must be equal to one of the allowed values/);
  });

  it('describes every operation with a summary, tags, security, access and error responses', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const operations = Object.entries(doc.paths as Record<string, Record<string, Record<string, unknown>>>).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ path, method, op })),
    );
    expect(operations.length).toBeGreaterThan(0);
    for (const { path, method, op } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(op.summary, where).toBeTruthy();
      expect((op.tags as string[]).length, where).toBeGreaterThan(0);
      expect(op.security, where).toBeDefined();
      expect(op['x-access'], where).toBeTruthy();
      expect(Object.keys(op.responses as object), where).toContain('500');
    }
    const health = doc.paths['/health'].get;
    expect(health.security).toEqual([]);
    expect(health['x-access']).toBe('public');
    expect(Object.keys(health.responses)).toEqual(expect.arrayContaining(['200', '503']));
    expect(doc.components.schemas.Problem.properties).toHaveProperty('code');
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('uses only formats that code generators know (JSON Schema and OpenAPI), ranges as x-fishlog-range', async () => {
    const body = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).body;
    // The `format` of every schema (an object with a `type`; examples may have a field called format).
    const formats = new Set<string>();
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === 'object') {
        const node = value as Record<string, unknown>;
        if (typeof node.format === 'string' && 'type' in node) formats.add(node.format);
        Object.values(node).forEach(walk);
      }
    };
    walk(JSON.parse(body));
    const standard = ['date-time', 'date', 'time', 'duration', 'email', 'uri', 'uri-reference', 'uuid', 'hostname', 'ipv4', 'ipv6', 'int32', 'int64', 'float', 'double', 'password', 'binary', 'byte'];
    expect(formats.size).toBeGreaterThan(3);
    expect([...formats].filter((f) => !standard.includes(f))).toEqual([]);
    expect(body).toContain('"x-fishlog-range":{"from":"1900-01-01","toFromNow":"PT24H"}');
  });

  it('takes a JSON Merge Patch on every PATCH operation (application/merge-patch+json, application/json too)', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const patches = Object.entries(doc.paths as Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>>).flatMap(([path, ops]) =>
      ops.patch ? [{ path, types: Object.keys(ops.patch.requestBody?.content ?? {}) }] : [],
    );
    expect(patches.length).toBeGreaterThanOrEqual(14);
    expect(patches.filter((p) => !p.types.includes('application/merge-patch+json') || !p.types.includes('application/json')).map((p) => p.path)).toEqual([]);
  });

  it('spells every point of a body or response as location: {latitude, longitude} (lat/lon only as query parameters)', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const POINT = new Set(['latitude', 'longitude', 'precision', 'waterBody', 'stateCode']);
    const found: string[] = [];
    let points = 0;
    const walk = (value: unknown, at: string): void => {
      if (Array.isArray(value)) return value.forEach((v, i) => walk(v, `${at}/${i}`));
      if (!value || typeof value !== 'object') return;
      const node = value as Record<string, unknown>;
      const properties = node.properties as Record<string, unknown> | undefined;
      if (properties && typeof properties === 'object') {
        const names = Object.keys(properties);
        if (names.includes('lat') || names.includes('lon')) found.push(`${at}: lat/lon`);
        if (names.includes('latitude')) {
          points += 1;
          if (!names.every((name) => POINT.has(name))) found.push(`${at}: latitude beside ${names.filter((name) => !POINT.has(name)).join(', ')}`);
        }
      }
      for (const [key, child] of Object.entries(node)) if (key !== 'examples' && key !== 'example' && key !== 'parameters') walk(child, `${at}/${key}`);
    };
    walk(doc.components.schemas, '#/components/schemas');
    walk(doc.paths, '#/paths');
    expect(points).toBeGreaterThan(20);
    expect(found).toEqual([]);
  });

  it('marks no query parameter with a default as required (a client may leave it out)', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const parameters = Object.values(doc.paths as Record<string, Record<string, { parameters?: { in: string; name: string; required?: boolean; schema?: { default?: unknown } }[] }>>)
      .flatMap((ops) => Object.values(ops))
      .flatMap((op) => op.parameters ?? []);
    const defaulted = parameters.filter((p) => p.in === 'query' && p.schema?.default !== undefined);
    expect(defaulted.length).toBeGreaterThan(50);
    expect(defaulted.filter((p) => p.required).map((p) => p.name)).toEqual([]);
  });

  it('renders the reference page at /docs from local assets', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('swagger-ui');
    expect(res.body).not.toMatch(/https?:\/\/(cdn|unpkg)/);
    const asset = await t.app.inject({ method: 'GET', url: '/docs/static/swagger-ui-bundle.js' });
    expect(asset.statusCode).toBe(200);
  });
});

describe('OpenAPI and docs when FISHLOG_PUBLIC_DOCS is off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { FISHLOG_PUBLIC_DOCS: 'off' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each(['/openapi.json', '/docs/', '/docs/json', '/docs/static/swagger-ui-bundle.js'])('%s needs a token', async (url) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'auth.token_missing' });
  });

  it('keeps /health public', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });
});
