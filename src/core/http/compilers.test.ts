import { Ajv } from 'ajv';
import { describe, expect, it, vi } from 'vitest';
import { compiledSerializerCount, serializerFactory, validatorFactory } from './compilers.js';

/** A route validator as Fastify asks for it. */
function validatorOf(factory: ReturnType<typeof validatorFactory>, shared: Record<string, object>, schema: object, httpPart = 'body') {
  return factory.build(shared)({ schema, httpPart, method: 'POST', url: '/x' }) as ((data: unknown) => boolean) & { errors?: Array<{ message?: string }> | null };
}

describe('the schema compilers', () => {
  const shared = { CompilersTestPoint: { $id: 'CompilersTestPoint', type: 'object', properties: { lat: { type: 'number', minimum: -90, maximum: 90 } }, required: ['lat'], additionalProperties: false } };
  const route = () => ({ type: 'object', properties: { at: { $ref: 'CompilersTestPoint' }, note: { type: 'string', maxLength: 5 } }, required: ['at'], additionalProperties: false });

  it('compile a route validator once per process: an app built after another (its own copies of the schemas) reuses it, and both validate', () => {
    const compile = vi.spyOn(Ajv.prototype, 'compile');
    const first = validatorOf(validatorFactory(), structuredClone(shared), route());
    expect(first({ at: { lat: 45 }, note: 'dawn' })).toBe(true);
    expect(compile).toHaveBeenCalledTimes(1);

    const second = validatorOf(validatorFactory(), structuredClone(shared), route());
    expect(second({ at: { lat: 91 } })).toBe(false);
    expect(second.errors?.[0]).toMatchObject({ instancePath: '/at/lat', message: 'must be <= 90' });
    expect(second({ at: { lat: 45 }, note: 'sunrise' })).toBe(false);
    expect(second({ at: { lat: -45 } })).toBe(true);
    expect(compile).toHaveBeenCalledTimes(1);

    // Query strings are coerced, bodies are not: the same schema has a validator for each.
    const query = validatorOf(validatorFactory(), shared, { type: 'object', properties: { n: { type: 'integer' } } }, 'querystring');
    const body = validatorOf(validatorFactory(), shared, { type: 'object', properties: { n: { type: 'integer' } } }, 'body');
    expect([query({ n: '7' }), body({ n: '7' })]).toEqual([true, false]);
  });

  it('refuse two different shared schemas of one name in a process (a validator compiled against the first would be wrong for the second)', () => {
    validatorFactory().build({ CompilersTestName: { $id: 'CompilersTestName', type: 'string' } });
    // The same schema again (another app's copy) is fine.
    expect(() => validatorFactory().build({ CompilersTestName: { $id: 'CompilersTestName', type: 'string' } })).not.toThrow();
    expect(() => validatorFactory().build({ CompilersTestName: { $id: 'CompilersTestName', type: 'integer' } })).toThrow('two different shared schemas are named CompilersTestName');
  });

  it('compile a response serializer once per process and schema', () => {
    const schema = { type: 'object', properties: { name: { type: 'string' }, weight: { anyOf: [{ type: 'number' }, { type: 'null' }] } } };
    const routeOf = () => ({ schema: structuredClone(schema), method: 'GET', url: '/fish', httpStatus: '200' });
    const before = compiledSerializerCount();
    const first = serializerFactory()({}, {})(routeOf() as never) as (data: unknown) => string;
    const second = serializerFactory()({}, {})(routeOf() as never) as (data: unknown) => string;
    // Compiled on first use, once: the second app's serializer is the first's.
    expect(compiledSerializerCount()).toBe(before);
    expect(first({ name: 'walleye', weight: 2.5, extra: 1 })).toBe('{"name":"walleye","weight":2.5}');
    expect(compiledSerializerCount()).toBe(before + 1);
    expect(second({ name: 'pike', weight: null })).toBe('{"name":"pike","weight":null}');
    expect(compiledSerializerCount()).toBe(before + 1);
  });
});
