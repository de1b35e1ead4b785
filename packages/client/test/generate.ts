import openapiTS, { astToString } from 'openapi-typescript';

/**
 * What `npm run client:generate` writes into packages/client/src from the served /openapi.json
 * (the test generated.test.ts compares and, with `--update`, writes):
 * - schema.ts: the `paths`, `components` and `operations` types of openapi-typescript;
 * - operations.ts: the operations that take an `Idempotency-Key` header, which the client sends
 *   one with.
 */

interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  schema?: { default?: unknown };
}

export interface OpenApiDocument {
  info: { version: string };
  paths: Record<string, Record<string, { parameters?: Parameter[] } | undefined>>;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function banner(what: string): string {
  return `/**\n * ${what}\n * Generated from the fishlog service's /openapi.json by \`npm run client:generate\`: do not edit.\n */\n`;
}

export function idempotentOperations(document: OpenApiDocument): string[] {
  const operations: string[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const parameters = item[method]?.parameters ?? [];
      if (parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key')) operations.push(`${method.toUpperCase()} ${path}`);
    }
  }
  return operations.sort();
}

/**
 * The document marks query parameters that have a default (`page`, `pageSize`, `status` …) as
 * required, though the server fills them in when they are left out: the client's types make them
 * optional, so a call sends only what it means.
 */
function withDefaultsOptional(document: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(document);
  for (const item of Object.values(copy.paths)) {
    for (const method of HTTP_METHODS) {
      for (const parameter of item[method]?.parameters ?? []) {
        if (parameter.in !== 'path' && parameter.required && parameter.schema?.default !== undefined) parameter.required = false;
      }
    }
  }
  return copy;
}

export async function generatedFiles(document: OpenApiDocument): Promise<{ schema: string; operations: string }> {
  const types = astToString(await openapiTS(withDefaultsOptional(document) as unknown as Parameters<typeof openapiTS>[0]));
  const schema = banner('Types of the fishlog API (openapi-typescript; query parameters with a default are optional).') + types;
  const list = idempotentOperations(document)
    .map((operation) => `  '${operation}',\n`)
    .join('');
  const operations =
    banner('The operations that take an `Idempotency-Key` header (`METHOD /path`).') +
    `export const IDEMPOTENT_OPERATIONS: ReadonlySet<string> = new Set([\n${list}]);\n`;
  return { schema, operations };
}
