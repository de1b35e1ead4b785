import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { TSchema } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import * as judging from './judging.schemas.js';
import * as organizers from './organizers.schemas.js';
import * as registrations from './registrations.schemas.js';
import * as results from './results.schemas.js';
import * as sponsors from './sponsors.schemas.js';
import * as tournaments from './tournaments.schemas.js';

const schemas = { ...organizers, ...tournaments, ...registrations, ...judging, ...results, ...sponsors };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const OURS = /^\/api\/(tournament|admin\/tournaments|admin\/organizers)(\/|$)/;

describe('tournaments in the OpenAPI document', () => {
  it('every operation has a unique operationId, a description, tags and its error responses', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const ops = Object.entries(doc.paths as Record<string, Record<string, Record<string, unknown>>>)
      .filter(([path]) => OURS.test(path))
      .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ where: `${method.toUpperCase()} ${path}`, op })));
    expect(ops.length).toBe(34);
    const ids = ops.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { where, op } of ops) {
      expect(op.operationId, where).toMatch(/^[a-z][A-Za-z]+$/);
      expect(op.description, where).toBeTruthy();
      expect(Object.keys(op.responses as object), where).toEqual(expect.arrayContaining(['401', '500']));
      if (where.includes('{')) expect(Object.keys(op.responses as object), where).toContain('404');
    }
  });

  it('request and response examples are valid against their schemas', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const withExamples = Object.entries(schemas).filter(([, s]) => typeof s === 'object' && s !== null && Array.isArray((s as { examples?: unknown }).examples));
    expect(withExamples.map(([name]) => name)).toEqual(
      expect.arrayContaining(['Organizer', 'ApplyOrganizerBody', 'CreateTournamentBody', 'UpdateTournamentBody', 'Tournament', 'RegisterBody', 'Registration', 'SubmitCatchBody', 'Submission', 'JudgeBody', 'Results', 'AddResultBody', 'SponsorBody', 'Sponsor', 'AdminReasonBody', 'VerifyOrganizerBody']),
    );
    for (const [name, schema] of withExamples) {
      const { $id: _, ...rest } = schema as TSchema & { $id?: string; examples: unknown[] };
      const validate = ajv.compile(rest);
      for (const example of (schema as { examples: unknown[] }).examples) expect(validate(example) ? true : { name, errors: validate.errors }).toBe(true);
    }
  });
});
