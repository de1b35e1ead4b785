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

describe('serializerSchema: a shared schema or null', () => {
  const Shared = Type.Object({ id: Type.String(), water: Nullable(Type.String()) }, { additionalProperties: false, $id: 'Shared' });
  const Tree = Type.Object({ name: Type.String(), parent: Nullable(Type.Ref('Tree')) }, { $id: 'Tree' });
  const Holder = Type.Object({ linked: Type.Union([Type.Ref('Shared'), Type.Null()], { description: 'the link' }), tree: Nullable(Type.Ref('Tree')) });
  const refs = { Shared, Tree };
  const compile = (schema: unknown, shared: Record<string, unknown>) =>
    SerializerSelector()(shared as never, {})({ schema, method: 'GET', url: '/', httpStatus: '200' } as never);

  it('becomes a nullable copy of the shared schema (no $id), and a schema that refers to itself keeps its union inside the copy', () => {
    const out = serializerSchema(Holder, refs) as unknown as { properties: Record<string, Record<string, unknown>> };
    expect(out.properties.linked).toMatchObject({ type: 'object', nullable: true, description: 'the link' });
    expect(out.properties.linked).not.toHaveProperty('$id');
    expect(out.properties.linked).not.toHaveProperty('anyOf');
    expect((out.properties.linked!.properties as Record<string, unknown>).water).toEqual({ type: 'string', nullable: true });
    expect(out.properties.tree).toMatchObject({ type: 'object', nullable: true });
    expect((out.properties.tree!.properties as Record<string, Record<string, unknown>>).parent).toHaveProperty('anyOf');
    // Without the shared schemas the union stays.
    expect((serializerSchema(Holder) as unknown as { properties: Record<string, unknown> }).properties.linked).toHaveProperty('anyOf');
  });

  it('serializes the same JSON as the union schema does', () => {
    const values = [
      { linked: { id: 'a', water: 'Lake' }, tree: { name: 'x', parent: { name: 'y', parent: null } } },
      { linked: null, tree: null },
      { linked: { id: 'b', water: null }, tree: { name: 'z', parent: null } },
    ];
    const shared = Object.fromEntries(Object.entries(refs).map(([id, s]) => [id, serializerSchema(s, refs)]));
    const plain = compile(serializerSchema(Holder, refs), shared);
    const union = compile(Holder, refs);
    for (const value of values) expect(plain(value)).toBe(union(value));
  });
});
