import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../harness.js';
import { createUser, type TestUser } from '../factories.js';

/**
 * A typed client compiles against the API's OpenAPI document and works: types generated with
 * openapi-typescript from /openapi.json, client.ts type-checked (strict) with them, then run against
 * the app listening on loopback. A document change that breaks clients fails here.
 */

const COMPILER_OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  types: [],
  skipLibCheck: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
};

function typeErrors(files: string[]): string[] {
  const program = ts.createProgram(files, COMPILER_OPTIONS);
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file ? path.basename(d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('a client typed from /openapi.json', () => {
  let t: TestApp;
  let jo: TestUser;
  let dir: string;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp();
    jo = await createUser(t);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    dir = mkdtempSync(path.join(tmpdir(), 'fishlog-client-'));
    const document = (await (await fetch(`${base}/openapi.json`)).json()) as Parameters<typeof openapiTS>[0];
    writeFileSync(path.join(dir, 'schema.d.ts'), astToString(await openapiTS(document)));
    writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(path.join(dir, 'client.ts'), readFileSync(new URL('./client.ts', import.meta.url), 'utf8'));
  });
  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('type-checks (strict) against the generated types', () => {
    expect(typeErrors([path.join(dir, 'client.ts')])).toEqual([]);
  }, 120_000);

  it('would not compile a client that uses a field the API does not have', () => {
    writeFileSync(
      path.join(dir, 'wrong.ts'),
      "import type { Entry, EntryInput } from './client.js';\n" +
        "export const input: EntryInput = { title: 'x', occurredAt: '2026-06-01T05:30:00Z', timeZone: 'UTC', visibility: 'Everyone' };\n" +
        'export const nope = (e: Entry) => e.notAField;\n',
    );
    const errors = typeErrors([path.join(dir, 'wrong.ts')]);
    expect(errors.join('\n')).toContain('"Everyone"');
    expect(errors.join('\n')).toContain('notAField');
  }, 120_000);

  it('logs in, creates an entry and reads it back against the running app', async () => {
    const js = ts.transpileModule(readFileSync(path.join(dir, 'client.ts'), 'utf8'), {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022 },
    }).outputText;
    writeFileSync(path.join(dir, 'client.mjs'), js);
    // client.ts is type-checked above against the generated types (and left out of the project's tsconfig, which has none).
    const client = (await import(pathToFileURL(path.join(dir, 'client.mjs')).href)) as {
      logAndReadBack(base: string, credentials: { username: string; password: string }): Promise<{ created: { id: string; title: string }; read: unknown }>;
    };
    const { created, read } = await client.logAndReadBack(base, { username: jo.username, password: jo.password });
    expect(created).toMatchObject({ title: 'Evening bite on Mille Lacs', visibility: 'Friends', occurredAt: '2026-06-01T19:30:00.000Z' });
    expect(read).toMatchObject({ id: created.id, title: created.title, timeZone: 'America/Chicago', catches: [] });
  });
});
