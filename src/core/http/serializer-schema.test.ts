import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { literals, Nullable } from './schemas.js';
import { serializerSchema } from './serializer-schema.js';

describe('serializerSchema (the response schema as the serializer gets it)', () => {
  const View = Type.Object({
    location: Nullable(Type.Object({ latitude: Type.Number(), precision: literals(['Exact', 'Approximate']) }), { description: 'where' }),
    sky: Nullable(literals(['Clear', 'Cloudy'])),
    note: Nullable(Type.String()),
    kind: literals(['A', 'B']),
    shape: Type.Union([Type.Object({ a: Type.String() }), Type.Object({ b: Type.Number() })]),
  });

  it('turns "X or null" and unions of literals into plain (nullable) types, and leaves other unions', () => {
    const out = serializerSchema(View) as unknown as { properties: Record<string, Record<string, unknown>> };
    expect(out.properties.location).toMatchObject({ type: 'object', nullable: true, description: 'where' });
    expect(out.properties.location).not.toHaveProperty('anyOf');
    expect((out.properties.location!.properties as Record<string, unknown>).precision).toEqual({ type: 'string' });
    expect(out.properties.sky).toEqual({ type: 'string', nullable: true });
    expect(out.properties.note).toEqual({ type: 'string', nullable: true });
    expect(out.properties.kind).toEqual({ type: 'string' });
    expect(out.properties.shape).toHaveProperty('anyOf');
  });

  it('serializes the same JSON as the union schema does', () => {
    const values = [
      { location: { latitude: 45.1, precision: 'Exact' }, sky: 'Clear', note: 'x', kind: 'A', shape: { a: 'y' } },
      { location: null, sky: null, note: null, kind: 'B', shape: { b: 2 } },
    ];
    const compile = SerializerSelector()({}, {});
    const fastJson = (schema: unknown) => compile({ schema, method: 'GET', url: '/', httpStatus: '200' } as never);
    const plain = fastJson(serializerSchema(View));
    const union = fastJson(View);
    for (const value of values) expect(plain(value)).toBe(union(value));
  });

  it('leaves the given schema unchanged', () => {
    const before = JSON.stringify(View);
    serializerSchema(View);
    expect(JSON.stringify(View)).toBe(before);
  });
});
