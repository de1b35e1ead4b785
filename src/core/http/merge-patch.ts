import type { ValidateFunction } from 'ajv';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import jsonMergePatch from 'json-merge-patch';
import { Type, type TObject, type TSchema } from 'typebox';
import { validationFailed, type AjvError } from './error-handler.js';
import { limitInputSchema } from './openapi-document.js';
import { AppError, type FieldError } from './problem.js';
import { addRouteHook, takesBody } from './route-hooks.js';
import { createAjv, unstorableTextErrors } from './validation.js';

/**
 * PATCH with a JSON Merge Patch (RFC 7396), once for every resource that has a PUT:
 * - `registerMergePatch`: the `application/merge-patch+json` body parser (PATCH only; plain
 *   `application/json` is accepted too);
 * - `mergePatchSchema`: the PATCH body schema derived from the PUT schema (every field optional,
 *   `null` allowed: it clears the field), so the OpenAPI document shows what may be sent;
 * - `applyChange`: inside the service's transaction, merges the patch onto the record's current
 *   PUT-shaped representation and validates the result against the PUT schema, so every rule of
 *   PUT applies unchanged. `null` on a required field is a 400 naming it.
 * A service's update takes a `Change`: `{ replace: body }` from PUT, `{ patch: body }` from PATCH.
 */

export const MERGE_PATCH_CONTENT_TYPE = 'application/merge-patch+json';
/** `schema.consumes` of a PATCH route: the OpenAPI document lists both media types. */
export const PATCH_CONSUMES = [MERGE_PATCH_CONTENT_TYPE, 'application/json'];

export type MergePatch = Record<string, unknown>;
/** How an update changes a record: a full replacement (PUT) or a JSON merge patch (PATCH). */
export type Change<T> = { readonly replace: T } | { readonly patch: MergePatch };

export function registerMergePatch(app: FastifyInstance): void {
  const json = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser(MERGE_PATCH_CONTENT_TYPE, { parseAs: 'string' }, (request, body, done) => {
    if (request.method !== 'PATCH') {
      done(new AppError(415, 'request.unsupported_media_type', `${MERGE_PATCH_CONTENT_TYPE} is for PATCH only; send this ${request.method} with Content-Type: application/json.`), undefined);
      return;
    }
    json(request, body as string, done);
  });
  // On the PATCH routes that take a merge patch (registered after this call).
  const refuse = (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    try {
      if (request.method === 'PATCH') refuseClearedRequired(request.body, (request.routeOptions.schema as { body?: unknown }).body);
    } catch (error) {
      return done(error as Error);
    }
    done();
  };
  addRouteHook(app, 'preValidation', refuse, (route) => takesBody(route) && !!(route.schema as { consumes?: string[] } | undefined)?.consumes?.includes(MERGE_PATCH_CONTENT_TYPE));
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isNullSchema = (schema: unknown) => isObject(schema) && schema.type === 'null';

/** The object branch of a property schema (itself, or the object of a nullable union). */
function objectBranch(schema: unknown): Json | undefined {
  if (!isObject(schema)) return undefined;
  if (schema.type === 'object' && isObject(schema.properties)) return schema;
  return Array.isArray(schema.anyOf) ? (schema.anyOf as unknown[]).map(objectBranch).find((b) => b !== undefined) : undefined;
}

function partialObject(schema: Json): Json {
  const { required, ...rest } = schema;
  const needed = new Set(Array.isArray(required) ? (required as string[]) : []);
  const properties = Object.fromEntries(Object.entries(schema.properties as Json).map(([name, property]) => [name, patchable(property as Json, needed.has(name))]));
  return { ...rest, properties };
}

/** A property as a patch may send it: nested objects partial; `null` allowed unless the PUT requires the field. */
function patchable(schema: Json, required: boolean): Json {
  if (Array.isArray(schema.anyOf)) {
    const branches = (schema.anyOf as Json[]).map((b) => (objectBranch(b) === b ? partialObject(b) : b));
    return { ...schema, anyOf: required || branches.some(isNullSchema) ? branches : [...branches, { type: 'null' }] };
  }
  const inner = objectBranch(schema) ? partialObject(schema) : schema;
  if (required) return inner;
  const { description, examples, ...rest } = inner;
  return { anyOf: [rest, { type: 'null' }], ...(description === undefined ? {} : { description }), ...(examples === undefined ? {} : { examples }) };
}

/** The PATCH body schema of a resource whose PUT body is `schema`. */
export function mergePatchSchema(schema: TObject, options: { description?: string; examples: MergePatch[] }) {
  const plain = JSON.parse(JSON.stringify(schema)) as Json;
  const { $id: _id, examples: _examples, ...partial } = partialObject(plain);
  return Type.Unsafe<MergePatch>({
    ...partial,
    minProperties: 1,
    description: options.description ?? 'JSON Merge Patch (RFC 7396): only the fields sent change; null clears an optional field (a 400 for a required one).',
    examples: options.examples,
  });
}

const acceptsNull = (schema: unknown): boolean =>
  !isObject(schema) || isNullSchema(schema) || (Array.isArray(schema.type) && schema.type.includes('null')) || (Array.isArray(schema.anyOf) && schema.anyOf.some(acceptsNull));

/** `null` sent for a field a patch may not clear (the PUT requires it), as field errors. */
function clearedRequired(patch: Json, schema: Json, pointer = ''): FieldError[] {
  const properties = isObject(schema.properties) ? schema.properties : {};
  return Object.entries(patch).flatMap(([name, value]) => {
    if (!(name in properties)) return [];
    const at = `${pointer}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (value === null) return acceptsNull(properties[name]) ? [] : [{ pointer: at, in: 'body' as const, detail: 'is required and cannot be cleared with null' }];
    const nested = objectBranch(properties[name]);
    return isObject(value) && nested ? clearedRequired(value, nested, at) : [];
  });
}

/** Before validation of a PATCH body: a required field sent as null is a 400 that says so. */
function refuseClearedRequired(body: unknown, schema: unknown): void {
  if (!isObject(body) || !isObject(schema)) return;
  const cleared = clearedRequired(body, schema);
  if (cleared.length === 0) return;
  const fields = cleared.map((e) => e.pointer).join(', ');
  throw new AppError(400, 'request.required_field_cleared', `${fields} ${cleared.length === 1 ? 'is' : 'are'} required and cannot be cleared with null; send a value or leave the field out.`, {
    errors: cleared,
  });
}

/** Absent and null mean the same in a PUT body: the representation leaves nulls out (PUT schemas need not accept them). */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined).map(([k, v]) => [k, withoutNulls(v)]));
}

const ajv = createAjv(false);
const validators = new WeakMap<TSchema, ValidateFunction>();

function validatorOf(schema: TSchema): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) {
    const { $id: _id, ...plain } = limitInputSchema(JSON.parse(JSON.stringify(schema)) as Json);
    validate = ajv.compile(plain);
    validators.set(schema, validate);
  }
  return validate;
}

/**
 * Checks `value` as the route would check a body with `schema` (the schema's rules, with the limits
 * of `limitInputSchema`, and the rule of every string: no NUL, no lone surrogate): a 400
 * `request.validation_failed` naming each field. For bodies that arrive inside another request
 * (offline sync's pushed records).
 */
export function assertValidBody(schema: TObject, value: unknown): void {
  const validate = validatorOf(schema);
  const valid = validate(value);
  const text = unstorableTextErrors(value);
  if (valid && !text) return;
  throw validationFailed([...(text ?? []), ...((validate.errors ?? []) as unknown as AjvError[])], 'body');
}

/**
 * The full PUT body a change amounts to: the replacement itself, or the patch merged onto
 * `current()` (the record as a PUT body) and validated against `schema`, the PUT body schema.
 * Call it inside the transaction that holds the record, so concurrent patches do not lose fields.
 */
export function applyChange<T>(change: Change<T>, schema: TObject, current: () => object): T {
  if ('replace' in change) return change.replace;
  const merged = jsonMergePatch.apply(structuredClone(withoutNulls(current())), change.patch) as unknown;
  const validate = validatorOf(schema);
  if (!validate(merged)) throw validationFailed(validate.errors as unknown as AjvError[], 'body');
  return merged as T;
}
