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

/** The shared schemas (`$ref` targets) among a context's external schemas. */
function sharedSchemas(externalSchemas: unknown): Array<{ $id: string }> {
  return Object.values((externalSchemas ?? {}) as Record<string, { $id?: string }>).filter((schema): schema is { $id: string } => typeof schema.$id === 'string');
}

/**
 * Adds the shared schemas Ajv does not know yet (without compiling them: Ajv compiles on first
 * use). One known under the same `$id` must be the same schema: the validators compiled against
 * the first are reused for every app of the process.
 */
function addSchemas(ajv: Ajv, schemas: Array<{ $id: string }>): void {
  for (const schema of schemas) {
    const known = ajv.schemas[schema.$id];
    if (!known && !ajv.refs[schema.$id]) ajv.addSchema(schema);
    else if (known && known.schema !== schema && JSON.stringify(known.schema) !== JSON.stringify(schema)) throw new Error(`two different shared schemas are named ${schema.$id}`);
  }
}

/** Throws when `schema` is not a valid JSON Schema (Ajv's meta-schema), naming what is wrong. */
function assertValidSchema(ajv: Ajv, schema: object): void {
  if (!ajv.validateSchema(schema)) throw new Error(`invalid JSON Schema ${JSON.stringify(schema).slice(0, 200)}: ${ajv.errorsText(ajv.errors)}`);
}

type Validate = ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null };

/**
 * The process's pair of Ajv instances and the validators they compiled, by body-or-not and the
 * schema's JSON. Every app of the process uses them: the API's schemas are the code's own, so an
 * app built after another (the test suite builds one per test file in each worker) finds its
 * routes' validators compiled already (Ajv's compile was ~8% of the CPU of the module tests).
 */
let processValidators: { coercing: Ajv; strict: Ajv; compiled: Map<string, Validate> } | undefined;

/**
 * Fastify asks for a validator compiler per plugin context; one pair of Ajv instances serves
 * them all (a new Ajv per context recompiled every shared schema: seconds of start-up), and
 * every app of the process (`processValidators`).
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
  const validators = (processValidators ??= { coercing: createAjv(true, { validateSchema: false }), strict: createAjv(false, { validateSchema: false }), compiled: new Map() });
  const pending = new Set<() => Validate>();
  // The shared and route schemas of this app not checked against the meta-schema yet (by `compileAll`).
  const unchecked = new Set<object>();
  const seen = new Set<string>();
  const compile = (schema: object, body: boolean): Validate => {
    const key = `${body ? 'body' : 'coerced'} ${JSON.stringify(schema)}`;
    let compiled = validators.compiled.get(key);
    if (!compiled) {
      compiled = (body ? validators.strict : validators.coercing).compile(schema) as Validate;
      validators.compiled.set(key, compiled);
    }
    return compiled;
  };
  const lazy = (schema: object, body: boolean): Validate => {
    let compiled: Validate | undefined;
    unchecked.add(schema);
    const ensure = () => {
      pending.delete(ensure);
      return (compiled ??= compile(schema, body));
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
      // Each plugin context passes every shared schema it knows (Fastify's copies): each name is looked at once per app.
      const added = sharedSchemas(externalSchemas).filter((schema) => !seen.has(schema.$id));
      addSchemas(validators.coercing, added);
      addSchemas(validators.strict, added);
      for (const schema of added) {
        seen.add(schema.$id);
        unchecked.add(schema);
      }
      return ({ schema, httpPart }) => lazy(schema, httpPart === 'body');
    },
    compileAll: () => {
      for (const schema of unchecked) assertValidSchema(validators.strict, schema);
      unchecked.clear();
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

/** The process's response serializers, by the serializer options and the response schema's JSON (`serializerFactory`). */
const processSerializers = new Map<string, (data: unknown) => string>();

/** How many response serializers the process has compiled (its tests). */
export function compiledSerializerCount(): number {
  return processSerializers.size;
}

/**
 * Response serializers are compiled on first use, and each distinct schema once per process
 * (every problem response is the same `$ref`; an app built after another finds them compiled):
 * compiling all of them up front took most of the start-up time. The shared schemas they refer to
 * are the same in every app of the process (`addSchemas` refuses two different ones of one name).
 */
export function serializerFactory() {
  const build = SerializerSelector();
  return (externalSchemas: unknown, options: unknown) => {
    type Compile = ReturnType<typeof build>;
    let compile: Compile | undefined;
    const shared = (externalSchemas ?? {}) as Record<string, unknown>;
    // Shared schemas (`$ref` targets) are given to the serializer in its form too (on first use).
    const compiler = () =>
      (compile ??= build(Object.fromEntries(Object.entries(shared).map(([id, schema]) => [id, serializerSchema(schema, shared)])) as never, options as never));
    const optionsKey = JSON.stringify(options ?? {});
    return (route: Parameters<Compile>[0]) => {
      const key = `${optionsKey} ${JSON.stringify(route.schema)}`;
      let compiled = processSerializers.get(key);
      return (data: unknown) => {
        if (!compiled) {
          compiled = processSerializers.get(key) ?? (compiler()({ ...route, schema: serializerSchema(route.schema, shared) }) as (data: unknown) => string);
          processSerializers.set(key, compiled);
        }
        return compiled(data);
      };
    };
  };
}
