import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { Ajv } from 'ajv';
import type { FastifyInstance, FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import { serializerSchema } from './serializer-schema.js';
import { createAjv, unstorableTextErrors } from './validation.js';

/**
 * The app's schema compilers: request validators (Ajv, with the rule of every string) and
 * response serializers (fast-json-stringify), both compiled on first use and shared across plugin
 * contexts. `buildApp` (src/app.ts) installs them.
 */

/** Adds the shared schemas not known yet (without compiling them: Ajv compiles on first use); returns the ones added. */
function addSchemas(ajv: Ajv, externalSchemas: unknown): object[] {
  const added: object[] = [];
  for (const schema of Object.values((externalSchemas ?? {}) as Record<string, { $id?: string }>)) {
    if (schema.$id && !ajv.schemas[schema.$id] && !ajv.refs[schema.$id]) {
      ajv.addSchema(schema);
      added.push(schema);
    }
  }
  return added;
}

/** Throws when `schema` is not a valid JSON Schema (Ajv's meta-schema), naming what is wrong. */
function assertValidSchema(ajv: Ajv, schema: object): void {
  if (!ajv.validateSchema(schema)) throw new Error(`invalid JSON Schema ${JSON.stringify(schema).slice(0, 200)}: ${ajv.errorsText(ajv.errors)}`);
}

type Validate = ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null };

/**
 * Fastify asks for a validator compiler per plugin context; one pair of Ajv instances serves
 * them all (a new Ajv per context recompiled every shared schema: seconds of start-up).
 *
 * A route's validator is compiled by Ajv when the route is first called: compiling the
 * validators of every route up front took a third of the start-up time, and much of the idle
 * memory, for routes a process may never serve. `compileAll` compiles the ones not compiled yet
 * (the OpenAPI test: every schema of the API compiles).
 *
 * The schemas are the code's own, the same at every start: they are checked against the JSON
 * Schema meta-schema by `compileAll` (the OpenAPI test), not at each start, where compiling the
 * meta-schema and walking every shared schema with it cost ~130 ms of every app's start.
 *
 * Every validator also applies the rule of every string (`unstorableTextErrors`: no NUL, no lone
 * surrogate), listed before the schema's own errors.
 */
export function validatorFactory(): { build: (externalSchemas: unknown) => FastifySchemaCompiler<object>; compileAll: () => number } {
  const validators = { coercing: createAjv(true, { validateSchema: false }), strict: createAjv(false, { validateSchema: false }) };
  const pending = new Set<() => Validate>();
  // The shared and route schemas not checked against the meta-schema yet (by `compileAll`).
  const unchecked: object[] = [];
  const lazy = (compile: () => Validate, schema: object): Validate => {
    let compiled: Validate | undefined;
    unchecked.push(schema);
    const ensure = () => {
      pending.delete(ensure);
      return (compiled ??= compile());
    };
    pending.add(ensure);
    const validate: Validate = (data) => {
      const run = compiled ?? ensure();
      const valid = run(data);
      const text = unstorableTextErrors(data);
      validate.errors = text ? [...(text as FastifySchemaValidationError[]), ...(run.errors ?? [])] : run.errors;
      return valid && !text;
    };
    return validate;
  };
  return {
    build: (externalSchemas) => {
      unchecked.push(...addSchemas(validators.coercing, externalSchemas));
      addSchemas(validators.strict, externalSchemas);
      return ({ schema, httpPart }) => lazy(() => (httpPart === 'body' ? validators.strict : validators.coercing).compile(schema) as Validate, schema);
    },
    compileAll: () => {
      for (const schema of unchecked.splice(0)) assertValidSchema(validators.strict, schema);
      const all = [...pending];
      for (const ensure of all) ensure();
      return all.length;
    },
  };
}

const validatorCompilers = new WeakMap<FastifyInstance, () => number>();

/** Remembers the app's `compileAll` (for `compileAllValidators`). */
export function registerValidatorCompiler(app: FastifyInstance, compileAll: () => number): void {
  validatorCompilers.set(app, compileAll);
}

/** Compiles every route validator of the app not compiled yet; returns how many it compiled. */
export function compileAllValidators(app: FastifyInstance): number {
  return validatorCompilers.get(app)?.() ?? 0;
}

/**
 * Response serializers are compiled on first use, and each distinct schema once per plugin
 * context (every problem response is the same `$ref`): compiling all of them up front took most
 * of the start-up time.
 */
export function serializerFactory() {
  const build = SerializerSelector();
  return (externalSchemas: unknown, options: unknown) => {
    type Compile = ReturnType<typeof build>;
    type Serialize = ReturnType<Compile>;
    let compile: Compile | undefined;
    const shared = (externalSchemas ?? {}) as Record<string, unknown>;
    // Shared schemas (`$ref` targets) are given to the serializer in its form too (on first use).
    const compiler = () =>
      (compile ??= build(Object.fromEntries(Object.entries(shared).map(([id, schema]) => [id, serializerSchema(schema, shared)])) as never, options as never));
    const cache = new Map<string, Serialize>();
    return (route: Parameters<Compile>[0]): Serialize => {
      const key = JSON.stringify(route.schema);
      let compiled = cache.get(key);
      return (data: unknown) => {
        if (!compiled) {
          compiled = cache.get(key) ?? compiler()({ ...route, schema: serializerSchema(route.schema, shared) });
          cache.set(key, compiled);
        }
        return compiled(data);
      };
    };
  };
}
