import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { generatedFiles, type OpenApiDocument } from './generate.js';

/**
 * The client's generated files (src/schema.ts, src/operations.ts) are what the running service's
 * /openapi.json makes of them: a route, schema or header changed on the server without
 * `npm run client:generate` fails here. The client is versioned with the service.
 */

const REGENERATE = 'the client is out of date with the service: run `npm run client:generate` and commit packages/client/src';

describe('@fishlog/client and the served OpenAPI document', () => {
  let t: TestApp;
  let document: OpenApiDocument;
  beforeAll(async () => {
    t = await createTestApp();
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    document = (await (await fetch(`${base}/openapi.json`)).json()) as OpenApiDocument;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('has the committed types and operations of the document (no drift)', async () => {
    const files = await generatedFiles(document);
    await expect(files.schema, REGENERATE).toMatchFileSnapshot('../src/schema.ts');
    await expect(files.operations, REGENERATE).toMatchFileSnapshot('../src/operations.ts');
  }, 120_000);

  it('has the version of the service, which the document announces', () => {
    const version = (file: string) => (JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8')) as { version: string }).version;
    expect(version('../package.json')).toBe(version('../../../package.json'));
    expect(document.info.version).toBe(version('../package.json'));
  });
});
