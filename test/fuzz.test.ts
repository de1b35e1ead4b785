import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './harness.js';
import { createUser, MISSING_ID, type TestUser } from './factories.js';
import { NUL_RULE, SURROGATE_RULE } from '../src/core/http/validation.js';

/**
 * OpenAPI-driven fuzzing: every operation of /openapi.json, called as the Owner (so that
 * requests get past access control into validation and the services) with boundary and
 * malformed values in its path, query and body: leap seconds, impossible dates, huge and
 * non-finite-looking numbers, long strings, control characters and unicode, wrong types,
 * deep nesting. No answer may be a 5xx. Seeded (FUZZ_SEED) and bounded: FUZZ_ITERATIONS
 * requests (default 600, about 20 s); `npm run fuzz` runs a longer campaign.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20260630);
const ITERATIONS = Number(process.env.FUZZ_ITERATIONS ?? 600);

function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let deep: unknown = 'x';
for (let i = 0; i < 60; i++) deep = { a: deep };

const NASTY: unknown[] = [
  '2026-06-30T23:59:60Z',
  '2026-02-30T00:00:00Z',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999999999+15:59',
  '-271821-04-20T00:00:00Z',
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  -0,
  0.1,
  2147483648,
  -2147483649,
  '1e309',
  'NaN',
  '',
  ' ',
  'x'.repeat(100_000),
  '\u0000',
  '💥🎣 ḟíśḧ',
  '\uD800',
  "'; DROP TABLE users; --",
  '../../etc/passwd',
  '%00',
  null,
  true,
  [],
  [null],
  {},
  { $ref: '#' },
  deep,
  MISSING_ID,
  '00000000-0000-0000-0000-000000000000',
  'not-a-uuid',
  -1,
  0,
];

type Schema = Record<string, unknown>;

interface Operation {
  method: string;
  path: string;
  params: { name: string; in: string }[];
  bodyProps: string[];
  hasBody: boolean;
  /** The JSON body's schema, its `$ref`s resolved on demand (`resolve`). */
  bodySchema: Schema | undefined;
  /** Who may call it (`x-access` as JSON: `"public"`, `{"roles":["DNR"]}`, a permission …). */
  access: string;
}

let resolve: (schema: Schema | undefined) => Schema | undefined = (schema) => schema;

/**
 * Every place a body can hold a value: the JSON Pointer of each property (nested objects, the
 * first item of arrays, each branch of a union), as the path of keys to write a value at.
 */
function bodyPaths(schema: Schema | undefined, prefix: string[] = [], depth = 0): string[][] {
  schema = resolve(schema);
  if (!schema || depth > 6) return [];
  const branches = [...((schema.anyOf as Schema[]) ?? []), ...((schema.oneOf as Schema[]) ?? []), ...((schema.allOf as Schema[]) ?? [])];
  if (branches.length > 0) {
    const seen = new Set<string>();
    return branches.flatMap((branch) => bodyPaths(branch, prefix, depth + 1)).filter((path) => !seen.has(path.join('/')) && seen.add(path.join('/')));
  }
  if (schema.type === 'array' || schema.items) return bodyPaths(schema.items as Schema, [...prefix, '0'], depth + 1);
  const properties = schema.properties as Record<string, Schema> | undefined;
  if (!properties) return prefix.length > 0 ? [prefix] : [];
  return Object.entries(properties).flatMap(([name, child]) => [[...prefix, name], ...bodyPaths(child, [...prefix, name], depth + 1).filter((p) => p.length > prefix.length + 1)]);
}

/** A value with `leaf` at `path` (arrays where the path has an index). */
function placed(path: string[], leaf: unknown): unknown {
  if (path.length === 0) return leaf;
  const [head, ...rest] = path;
  return /^\d+$/.test(head!) ? [placed(rest, leaf)] : { [head!]: placed(rest, leaf) };
}

let t: TestApp;
let owner: TestUser;
let dnr: TestUser;
let operations: Operation[] = [];

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_USER_PER_MINUTE: '1000000' } });
  owner = await createUser(t, { role: 'Owner' });
  dnr = await createUser(t, { role: 'DNR' });
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
    paths: Record<string, Record<string, { 'x-access'?: unknown; parameters?: { name: string; in: string }[]; requestBody?: { content: Record<string, { schema: Record<string, unknown> }> } }>>;
    components?: { schemas?: Record<string, Record<string, unknown>> };
  };
  resolve = (schema) => {
    const ref = schema?.$ref as string | undefined;
    return ref ? doc.components?.schemas?.[ref.split('/').pop()!] : schema;
  };
  operations = Object.entries(doc.paths).flatMap(([p, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const schema = resolve(op.requestBody?.content['application/json']?.schema);
      return {
        method: method.toUpperCase(),
        path: p,
        params: op.parameters ?? [],
        bodyProps: Object.keys((schema?.properties as Record<string, unknown> | undefined) ?? {}),
        hasBody: Boolean(op.requestBody),
        bodySchema: op.requestBody?.content['application/json']?.schema,
        access: JSON.stringify(op['x-access'] ?? ''),
      };
    }),
  );
});
afterAll(async () => {
  await t?.close();
});

describe('fuzzing every OpenAPI operation', { timeout: 600_000 }, () => {
  it(`answers no 5xx to ${ITERATIONS} boundary and malformed requests (seed ${SEED})`, async () => {
    expect(operations.length).toBeGreaterThan(40);
    const random = prng(SEED);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    const failures: string[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < ITERATIONS; i++) {
      const op = operations[i % operations.length]!;
      seen.add(`${op.method} ${op.path}`);
      const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v) ?? '');
      // A lone surrogate cannot be URI-encoded: send the raw invalid UTF-8 bytes instead.
      const encodeURIComponent = (v: string) => {
        try {
          return globalThis.encodeURIComponent(v);
        } catch {
          return '%ED%A0%80';
        }
      };
      const url = op.path.replace(/\{(\w+)\}/g, () => encodeURIComponent(random() < 0.5 ? MISSING_ID : text(pick(NASTY)).slice(0, 200)));
      const query = op.params
        .filter((p) => p.in === 'query' && random() < 0.7)
        .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(text(pick(NASTY)).slice(0, 2000))}`)
        .join('&');
      let payload: unknown;
      if (op.hasBody) {
        const r = random();
        if (r < 0.1) payload = pick(NASTY);
        else {
          const body: Record<string, unknown> = {};
          for (const prop of op.bodyProps) if (random() < 0.8) body[prop] = pick(NASTY);
          if (r > 0.9) body[`unknown_${i}`] = pick(NASTY);
          payload = body;
        }
      }
      const res = await t.app.inject({
        method: op.method as 'GET',
        url: query ? `${url}?${query}` : url,
        headers: { ...owner.headers, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(payload === undefined ? {} : { payload: JSON.stringify(payload) ?? 'null' }),
      });
      if (res.statusCode >= 500) failures.push(`${op.method} ${url}${query ? `?${query.slice(0, 200)}` : ''} → ${res.statusCode} ${res.body.slice(0, 300)} body=${(JSON.stringify(payload) ?? '').slice(0, 300)}`);
    }
    expect(seen.size).toBe(Math.min(operations.length, ITERATIONS));
    expect(failures).toEqual([]);
  });
});

describe('NUL and lone surrogates in every string a request sends', { timeout: 600_000 }, () => {
  const unstorable = [
    ['jig\u0000minnow', NUL_RULE],
    ['jig\uD83Dminnow', SURROGATE_RULE],
  ] as const;

  // The Owner passes every permission; a route for the DNR role is called as a DNR user.
  const caller = (op: Operation) => (/"DNR"/.test(op.access) ? dnr : owner);

  it('every body field of every operation: 400 naming the field, before any handler runs', async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const op of operations.filter((o) => o.bodySchema)) {
      const url = op.path.replace(/\{(\w+)\}/g, MISSING_ID);
      for (const path of bodyPaths(op.bodySchema)) {
        for (const [text, rule] of unstorable) {
          const res = await t.app.inject({ method: op.method as 'POST', url, headers: { ...caller(op).headers, 'content-type': 'application/json' }, payload: JSON.stringify(placed(path, text)) });
          sent++;
          const pointer = `/${path.join('/')}`;
          const named = res.statusCode === 400 && (res.json() as { errors?: { pointer: string; detail: string }[] }).errors?.some((e) => e.pointer === pointer && e.detail === rule);
          if (!named) failures.push(`${op.method} ${op.path} ${pointer} → ${res.statusCode} ${res.body.slice(0, 200)}`);
        }
      }
    }
    expect(sent).toBeGreaterThan(500);
    expect(failures).toEqual([]);
  });

  it('every path and query parameter of every operation: 400 naming the parameter', async () => {
    const failures: string[] = [];
    for (const op of operations) {
      for (const param of op.params.filter((p) => p.in === 'path' || p.in === 'query')) {
        for (const [text, rule] of unstorable) {
          // A lone surrogate has no UTF-8 form: a URL cannot carry one (its bytes decode to U+FFFD), only
          // a JSON escape can. NUL (%00) can.
          if (rule === SURROGATE_RULE) continue;
          const value = encodeURIComponent(text);
          const url = op.path.replace(/\{(\w+)\}/g, (_, name: string) => (name === param.name ? value : MISSING_ID));
          const res = await t.app.inject({ method: op.method as 'GET', url: param.in === 'query' ? `${url}?${param.name}=${value}` : url, headers: caller(op).headers, ...(op.hasBody ? { payload: {} } : {}) });
          const errors = res.statusCode === 400 ? ((res.json() as { errors?: { pointer: string; in: string; detail: string }[] }).errors ?? []) : [];
          // Fastify validates the body before the query: with an empty body the refusal may name only
          // the body's fields — refused all the same before any handler runs.
          const named = errors.some((e) => e.pointer === `/${param.name}` && e.detail === rule) || (param.in === 'query' && op.hasBody && errors.length > 0 && errors.every((e) => e.in === 'body'));
          if (!named) failures.push(`${op.method} ${op.path} ${param.in} ${param.name} → ${res.statusCode} ${res.body.slice(0, 200)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
