import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { API_TAGS } from '../../core/http/openapi.js';

/** The module's part of /openapi.json: operation ids, tags, error responses and examples valid against their schemas. */

type Node = Record<string, unknown>;
let t: TestApp;
let doc: { paths: Record<string, Record<string, Node>>; components: { schemas: Record<string, Node> } };

beforeAll(async () => {
  t = await createTestApp();
  doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
});
afterAll(async () => t?.close());

const ours = () =>
  Object.entries(doc.paths)
    .filter(([path]) => path.startsWith('/api/regulations') || path.startsWith('/api/admin/regulations'))
    .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));

/** Every (sub)schema with `examples` under `node`, with where it is. */
function withExamples(node: unknown, at: string, out: Array<{ at: string; schema: Node }> = []) {
  if (Array.isArray(node)) node.forEach((n, i) => withExamples(n, `${at}/${i}`, out));
  else if (node && typeof node === 'object') {
    const schema = node as Node;
    if (Array.isArray(schema.examples) && (schema.type !== undefined || schema.anyOf !== undefined || schema.$ref !== undefined || schema.properties !== undefined)) out.push({ at, schema });
    for (const [key, value] of Object.entries(schema)) if (key !== 'examples') withExamples(value, `${at}/${key}`, out);
  }
  return out;
}

describe('OpenAPI of the regulations module', () => {
  it('every operation has a unique camelCase operationId, known tags, a summary and a description', () => {
    const allIds = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId));
    const operations = ours();
    expect(operations.length).toBeGreaterThanOrEqual(35);
    const known = new Set(API_TAGS.map((tag) => tag.name));
    for (const { path, method, op } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(op.operationId, where).toMatch(/^[a-z][a-zA-Z0-9]+$/);
      expect(allIds.filter((id) => id === op.operationId), where).toHaveLength(1);
      expect((op.tags as string[]).every((tag) => known.has(tag)), `${where} tags ${String(op.tags)}`).toBe(true);
      expect(op.summary, where).toBeTruthy();
      expect(op.description, where).toBeTruthy();
      const responses = Object.keys(op.responses as Node);
      expect(responses, where).toContain('401');
      if (path.startsWith('/api/admin/')) expect(responses, where).toContain('403');
      if (path.includes('{id}')) expect(responses, where).toContain('404');
    }
    for (const tag of ['regulations', 'regulations: master angler', 'admin: regulations']) expect(known.has(tag)).toBe(true);
  });

  it('request bodies of writes carry examples, and every example is valid against its schema', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const problems: string[] = [];
    const operations = ours();
    const nodes = operations.flatMap(({ path, method, op }) => withExamples(op, `${method} ${path}`));
    const referenced = Object.entries(doc.components.schemas)
      .filter(([name]) => /^(Regulations|CatchRegulation|MasterAngler|AdminRegulation|AdminMasterAngler)/.test(name))
      .flatMap(([name, schema]) => withExamples(schema, `#/components/schemas/${name}`));
    for (const { at, schema } of [...nodes, ...referenced]) {
      const validate = ajv.compile({ ...schema, $id: undefined, examples: undefined, components: doc.components });
      for (const example of schema.examples as unknown[]) {
        if (!validate(example)) problems.push(`${at}: ${ajv.errorsText(validate.errors)}`);
      }
    }
    // Fastify's swagger moves a body's own examples to the media type's `example`.
    for (const { path, method, op } of operations) {
      const media = (op.requestBody as { content?: Record<string, { schema: Node; example?: unknown }> } | undefined)?.content?.['application/json'];
      if (!media) continue;
      if (media.example === undefined) problems.push(`${method} ${path}: request body without an example`);
      else {
        const validate = ajv.compile({ ...media.schema, components: doc.components });
        if (!validate(media.example)) problems.push(`${method} ${path} body example: ${ajv.errorsText(validate.errors)}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
