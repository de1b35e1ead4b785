/**
 * The response schema as the JSON serializer (fast-json-stringify) is given it. The API's schemas
 * say "an object or null" and "one of these strings" as unions (`anyOf`), which is right for the
 * OpenAPI document; fast-json-stringify, though, picks a union's branch by running Ajv on the
 * value for every branch in turn, on every response — 200 ms of every 10 s of CPU of a feed.
 * Two shapes mean nothing more than a type, and are rewritten for the serializer only:
 *
 * - `anyOf: [X, {type: 'null'}]` with X a plain typed schema → X with `nullable: true`
 *   (fast-json-stringify writes `null` for null, else X);
 * - `anyOf` of literals of one primitive type (`{type: 'string', const: 'Public'}`, …), maybe
 *   with null → that type (nullable when null is a branch);
 * - `anyOf: [{$ref: 'Shared'}, {type: 'null'}]`, given the shared schemas (`refs`, by `$id`) →
 *   a copy of the shared schema (its serializer form, without its `$id`) with `nullable: true`.
 *   A post's `linkedEntry`/`linkedCatch` were such unions: Ajv ran the whole linked entry's schema
 *   on every post of a feed page to find that it was not null. A schema already being copied
 *   (one that refers to itself) keeps its union.
 *
 * Other unions (objects of different shapes) are left as they are.
 */

type Schema = Record<string, unknown>;

const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions'];
const SCHEMA_VALUES = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const PRIMITIVES = new Set(['string', 'number', 'integer', 'boolean']);

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);
const isNull = (branch: Schema) => branch.type === 'null';
/** A schema with one type of its own (no reference, no union). */
const isPlain = (branch: Schema) => typeof branch.type === 'string' && branch.type !== 'null' && !('$ref' in branch) && !SCHEMA_LISTS.some((k) => k in branch);

/** `refs`: the shared schemas by `$id` (what a `$ref` names), for the `$ref`-or-null rule. */
export function serializerSchema<T>(schema: T, refs: Readonly<Record<string, unknown>> = {}): T {
  return rewrite(schema, refs, new Set()) as T;
}

function rewrite(schema: unknown, refs: Readonly<Record<string, unknown>>, copying: Set<string>): unknown {
  if (!isSchema(schema)) return schema;
  const out: Schema = { ...schema };
  const again = (value: unknown) => rewrite(value, refs, copying);
  for (const key of SCHEMA_MAPS) {
    const map = out[key];
    if (isSchema(map)) out[key] = Object.fromEntries(Object.entries(map).map(([name, value]) => [name, again(value)]));
  }
  for (const key of SCHEMA_VALUES) if (isSchema(out[key])) out[key] = again(out[key]);
  for (const key of SCHEMA_LISTS) if (Array.isArray(out[key])) out[key] = (out[key] as unknown[]).map(again);
  return simplifyUnion(out, refs, copying);
}

/** The shared object schema a `$ref`-only branch names (not one being copied already), else undefined. */
function sharedObject(branch: Schema, refs: Readonly<Record<string, unknown>>, copying: Set<string>): { id: string; schema: Schema } | undefined {
  const id = branch.$ref;
  if (typeof id !== 'string' || Object.keys(branch).length !== 1 || copying.has(id)) return undefined;
  const target = refs[id];
  return isSchema(target) && target.type === 'object' && !SCHEMA_LISTS.some((k) => k in target) ? { id, schema: target } : undefined;
}

function simplifyUnion(schema: Schema, refs: Readonly<Record<string, unknown>>, copying: Set<string>): Schema {
  const key = Array.isArray(schema.anyOf) ? 'anyOf' : Array.isArray(schema.oneOf) ? 'oneOf' : undefined;
  if (!key || 'type' in schema) return schema;
  const branches = schema[key] as unknown[];
  if (!branches.every(isSchema)) return schema;
  const { [key]: _union, ...siblings } = schema;
  const others = branches.filter((b) => !isNull(b));
  const nullable = others.length < branches.length ? { nullable: true } : {};
  const shared = others.length === 1 && nullable.nullable ? sharedObject(others[0]!, refs, copying) : undefined;
  if (shared) {
    copying.add(shared.id);
    const { $id: _id, ...copy } = rewrite(shared.schema, refs, copying) as Schema;
    copying.delete(shared.id);
    return { ...copy, ...siblings, ...nullable };
  }
  if (others.length === 1 && isPlain(others[0]!) && nullable.nullable) {
    const merged: Schema = { ...siblings, ...others[0], ...nullable };
    if (PRIMITIVES.has(merged.type as string)) {
      delete merged.const; // a literal or null: written as the value it is
      delete merged.enum;
    }
    return merged;
  }
  const types = new Set(others.map((b) => b.type));
  if (others.length > 0 && types.size === 1 && others.every(isPlain) && PRIMITIVES.has(others[0]!.type as string)) {
    return { ...siblings, type: others[0]!.type, ...nullable };
  }
  return schema;
}
