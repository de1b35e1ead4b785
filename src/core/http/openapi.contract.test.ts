import { createConfig, lintFromString } from '@redocly/openapi-core';
import spectralCore from '@stoplight/spectral-core';
import Parsers from '@stoplight/spectral-parsers';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, MISSING_ID, type TestUser } from '../../../test/factories.js';
import { spectralRuleset } from './openapi.spectral.js';

/**
 * The OpenAPI document is fit for client generators and passes the linters CI runs: Redocly's
 * recommended rules and Spectral's OpenAPI + OWASP rules (src/core/http/openapi.spectral.ts), 0 errors.
 * Every example is valid against its schema, and a request body made of the examples is accepted.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- walking an arbitrary JSON document
type Json = Record<string, any>;
interface Operation {
  path: string;
  method: string;
  op: Json;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

function operationsOf(doc: Json): Operation[] {
  return Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({ path, method, op: op as Json })),
  );
}

const pointer = (segments: (string | number)[]) => '#/' + segments.map((s) => encodeURIComponent(String(s).replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

describe('OpenAPI document for client generators', () => {
  let t: TestApp;
  let doc: Json;
  let source: string;
  let owner: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    source = res.body;
    doc = res.json();
    owner = await createUser(t, { role: 'Owner' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('gives every operation an explicit, unique camelCase operationId', () => {
    const ids = operationsOf(doc).map(({ path, method, op }) => ({ where: `${method.toUpperCase()} ${path}`, id: op.operationId as string | undefined }));
    expect(ids.filter((o) => !o.id).map((o) => o.where)).toEqual([]);
    expect(ids.filter((o) => !/^[a-z][a-zA-Z0-9]*$/.test(o.id!)).map((o) => `${o.where}: ${o.id}`)).toEqual([]);
    const seen = new Map<string, string>();
    const duplicates: string[] = [];
    for (const { where, id } of ids) {
      if (seen.has(id!)) duplicates.push(`${id} on ${seen.get(id!)} and ${where}`);
      seen.set(id!, where);
    }
    expect(duplicates).toEqual([]);
  });

  /** A response, or the shared response (components.responses) it refers to, with the reference's own description. */
  const resolved = (response: Json): Json =>
    typeof response.$ref === 'string' ? { ...doc.components.responses[String(response.$ref).split('/').pop()!], ...(response.description ? { description: response.description } : {}) } : response;

  it('declares every error as application/problem+json with the one Problem schema, and no "Default Response"', () => {
    const wrong: string[] = [];
    for (const { path, method, op } of operationsOf(doc)) {
      for (const [status, reference] of Object.entries(op.responses as Record<string, Json>)) {
        const where = `${method.toUpperCase()} ${path} ${status}`;
        const response = resolved(reference);
        if (response.description === 'Default Response' || !response.description) wrong.push(`${where}: no description`);
        // GET /health and /health/ready answer 503 with their own health body (documented): the errors that are not problems.
        if (Number(status) >= 400 && !((path === '/health' || path === '/health/ready') && status === '503')) {
          if (JSON.stringify(response.content) !== JSON.stringify({ 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } })) {
            wrong.push(`${where}: ${JSON.stringify(response.content)}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('declares the rate-limit headers on every response and a 429 on every operation', () => {
    const missing: string[] = [];
    for (const { path, method, op } of operationsOf(doc)) {
      const responses = op.responses as Record<string, Json>;
      if (!responses['429'] || !resolved(responses['429']).headers?.['Retry-After']) missing.push(`${method} ${path}: 429 with Retry-After`);
      for (const [status, response] of Object.entries(responses)) {
        for (const header of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']) {
          if (!resolved(response).headers?.[header]) missing.push(`${method} ${path} ${status}: ${header}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('sends the declared rate-limit headers, also on a 401', async () => {
    const ok = await t.app.inject({ method: 'GET', url: '/api/userprofile/me', headers: owner.headers });
    const refused = await t.app.inject({ method: 'GET', url: '/api/userprofile/me' });
    for (const res of [ok, refused]) {
      expect(res.headers['ratelimit-limit']).toBe('600');
      expect(res.headers['ratelimit-remaining']).toMatch(/^\d+$/);
      expect(res.headers['ratelimit-reset']).toMatch(/^\d+$/);
    }
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('lints clean with Redocly (recommended): 0 errors', async () => {
    const config = await createConfig({ extends: ['recommended'], rules: { 'info-license': 'off', 'info-license-url': 'off' } });
    const problems = await lintFromString({ source, absoluteRef: '/openapi.json', config });
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(errors).toEqual([]);
    const warnings = problems.filter((p) => p.severity === 'warn').map((p) => `${p.ruleId} at ${p.location[0]?.pointer}`);
    // Known and accepted: /health has no 4xx (operation-4xx-response).
    expect(warnings.length, warnings.join('\n')).toBeLessThanOrEqual(2);
  });

  it('lints clean with Spectral (OpenAPI + OWASP API Security Top 10, checked-in ruleset): 0 errors', { timeout: 180_000 }, async () => {
    const spectral = new spectralCore.Spectral();
    spectral.setRuleset(new spectralCore.Ruleset(spectralRuleset, { source: fileURLToPath(new URL('./openapi.spectral.ts', import.meta.url)) }));
    const results = await spectral.run(new spectralCore.Document(source, Parsers.Json, '/openapi.json'));
    const errors = results.filter((r) => r.severity === 0).map((r) => `${r.code}: ${r.message} at ${r.path.join('/')}`);
    expect(errors).toEqual([]);
  });

  it('has only examples that are valid against their schema', () => {
    const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
    addFormats.default(ajv);
    ajv.addSchema(doc, 'openapi.json');
    const invalid: string[] = [];
    let checked = 0;
    const visit = (node: unknown, path: (string | number)[]) => {
      if (Array.isArray(node)) return node.forEach((item, i) => visit(item, [...path, i]));
      if (typeof node !== 'object' || node === null) return;
      const schema = node as Json;
      const isSchema = path.includes('components') || path.includes('schema') || path.includes('properties');
      if (isSchema && Array.isArray(schema.examples) && (schema.type !== undefined || schema.anyOf || schema.$ref)) {
        const validate = ajv.getSchema(`openapi.json${pointer(path)}`);
        for (const example of schema.examples) {
          checked++;
          if (validate && !validate(example)) invalid.push(`${path.join('/')}: ${JSON.stringify(example)} ${ajv.errorsText(validate.errors)}`);
        }
      }
      for (const [key, value] of Object.entries(schema)) if (key !== 'examples' && key !== 'example') visit(value, [...path, key]);
    };
    visit(doc, []);
    expect(checked).toBeGreaterThan(50);
    expect(invalid).toEqual([]);
  });

  it('accepts a request body made of each operation’s examples', async () => {
    const resolve = (schema: Json | undefined): Json | undefined => (schema?.$ref ? doc.components.schemas[String(schema.$ref).split('/').pop()!] : schema);
    const sample = (raw: Json | undefined, required: boolean): unknown => {
      const schema = resolve(raw);
      if (!schema) return undefined;
      if (Array.isArray(schema.examples)) return schema.examples[0];
      if (schema.const !== undefined) return schema.const;
      if (Array.isArray(schema.enum)) return schema.enum[0];
      if (schema.default !== undefined) return schema.default;
      if (schema.anyOf) return sample(schema.anyOf.find((s: Json) => s.type !== 'null') ?? schema.anyOf[0], required);
      if (schema.type === 'object') {
        const body: Json = {};
        for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Json>)) {
          const isRequired = (schema.required ?? []).includes(name);
          const value = sample(property, isRequired);
          if (value !== undefined && (isRequired || hasExample(property))) body[name] = value;
        }
        for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Json>)) {
          if (Object.keys(body).length >= (schema.minProperties ?? 0)) break;
          if (!(name in body)) body[name] = sample(property, true);
        }
        return body;
      }
      if (schema.type === 'array') return schema.minItems ? [sample(schema.items, true)] : [];
      if (!required) return undefined;
      if (schema.type === 'boolean') return false;
      if (schema.type === 'integer' || schema.type === 'number') return schema.minimum ?? 1;
      if (schema.format === 'uuid') return MISSING_ID;
      if (schema.format === 'date-time') return '2026-06-01T05:30:00Z';
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    };
    const hasExample = (raw: Json): boolean => {
      const schema = resolve(raw);
      return !!schema && (Array.isArray(schema.examples) || (schema.anyOf ?? []).some((s: Json) => hasExample(s)));
    };

    const refused: string[] = [];
    let sent = 0;
    for (const { path, method, op } of operationsOf(doc)) {
      const schema = op.requestBody?.content?.['application/json']?.schema as Json | undefined;
      if (!schema) continue;
      const body = sample(schema, true);
      const url = path.replace(/\{[^}]+\}/g, MISSING_ID);
      const res = await t.app.inject({ method: method.toUpperCase() as 'POST', url, headers: owner.headers, payload: body as object });
      sent++;
      const problem = res.statusCode >= 400 ? res.json() : undefined;
      if (res.statusCode >= 500 || problem?.code === 'request.validation_failed') {
        refused.push(`${method.toUpperCase()} ${path} ${JSON.stringify(body)} → ${res.statusCode} ${problem?.detail}`);
      }
    }
    expect(sent).toBeGreaterThan(20);
    expect(refused).toEqual([]);
  });
});
