import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createEntry, createUser, WALLEYE } from '../../../test/factories.js';
import { catches } from '../../../src/modules/fishing-log/fishing-log.tables.js';

/**
 * The package as an app gets it: built (`npm run build`, as `npm ci` does through `prepare`),
 * imported as `@fishlog/client` through its package.json exports. The README's example is
 * type-checked with `tsc --strict` and run with node, as written, against the listening server;
 * an app (test/app/app.ts) compiles strictly without any value typed `any`.
 */

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const rootDir = path.resolve(packageDir, '../..');

function readmeExample(): string {
  const readme = readFileSync(path.join(packageDir, 'README.md'), 'utf8');
  const block = /```ts\n([\s\S]*?)```/.exec(readme);
  if (!block) throw new Error('packages/client/README.md has no ts example');
  return block[1]!;
}

/** Strict type errors of `files`, and every expression or name in them whose type is `any`. */
function strictCheck(files: string[]): { errors: string[]; anys: string[] } {
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: ['node'],
    typeRoots: [path.join(rootDir, 'node_modules/@types')],
  });
  const errors = ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}` : '';
    return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
  const checker = program.getTypeChecker();
  const anys: string[] = [];
  for (const file of files) {
    const source = program.getSourceFile(file)!;
    const visit = (node: ts.Node) => {
      // Types and module names are not values (the checker answers `any` for them).
      if (ts.isTypeNode(node) || ts.isImportDeclaration(node)) return;
      if ((ts.isIdentifier(node) || ts.isExpression(node)) && checker.getTypeAtLocation(node).flags & ts.TypeFlags.Any) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart());
        anys.push(`${path.basename(file)}:${line + 1}: ${node.getText()}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { errors, anys };
}

const WRONG =
  "import { createFishlogClient } from '@fishlog/client';\n" +
  "const fishlog = createFishlogClient({ baseUrl: 'http://127.0.0.1:3000' });\n" +
  "export const a = fishlog.GET('/api/fishinglog/entrees');\n" +
  "export const b = fishlog.POST('/api/fishinglog/entries', { body: { title: 'x', occurredAt: '2026-06-01T05:30:00Z', timeZone: 'UTC', visibility: 'Everyone' } });\n" +
  "export const c = fishlog.GET('/api/fishinglog/entries/{id}', { params: { path: { id: 'x' } } }).then((r) => r.data?.notAField);\n" +
  "export const d: unknown = JSON.parse('1');\n";

describe('@fishlog/client as an app uses it', () => {
  let t: TestApp;
  let base: string;
  let dir: string;
  let checked: { errors: string[]; anys: string[] };
  beforeAll(async () => {
    await run('npm', ['run', 'build'], { cwd: packageDir });
    // An app folder of its own whose node_modules holds the package, as `npm install @fishlog/client` would.
    dir = mkdtempSync(path.join(tmpdir(), 'fishlog-client-app-'));
    mkdirSync(path.join(dir, 'node_modules/@fishlog'), { recursive: true });
    symlinkSync(packageDir, path.join(dir, 'node_modules/@fishlog/client'), 'dir');
    writeFileSync(path.join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
    writeFileSync(path.join(dir, 'example.ts'), readmeExample());
    writeFileSync(path.join(dir, 'wrong.ts'), WRONG);
    // One program for the three files (a strict check of the package's types takes a while).
    checked = strictCheck([path.join(dir, 'example.ts'), path.join(packageDir, 'test/app/app.ts'), path.join(dir, 'wrong.ts')]);
    t = await createTestApp();
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('compiles the README example and an app with tsc --strict, no value typed any', () => {
    expect(checked.errors.filter((e) => !e.startsWith('wrong.ts:'))).toEqual([]);
    expect(checked.anys.filter((e) => !e.startsWith('wrong.ts:'))).toEqual([]);
    // The search for `any` finds one where there is one.
    expect(checked.anys).toContain("wrong.ts:6: JSON.parse('1')");
  });

  it('would not compile a call to a path, or with a field, the API does not have', () => {
    const errors = checked.errors.filter((e) => e.startsWith('wrong.ts:'));
    expect(errors.filter((e) => e.startsWith('wrong.ts:3:'))).not.toEqual([]);
    expect(errors.find((e) => e.startsWith('wrong.ts:4:'))).toContain('"Everyone"');
    expect(errors.find((e) => e.startsWith('wrong.ts:5:'))).toContain('notAField');
    expect(errors).toHaveLength(3);
  });

  it('runs the README example as written against the server: signs in, lists the entries, adds a catch', async () => {
    const jo = await createUser(t, { username: 'jo', password: 'a long password' });
    const entry = await createEntry(t, jo, { title: 'Dawn on Mille Lacs', occurredAt: new Date('2026-06-01T05:30:00Z') });
    const js = ts.transpileModule(readmeExample(), { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022 } }).outputText;
    writeFileSync(path.join(dir, 'example.mjs'), js);
    const { stdout } = await run(process.execPath, ['example.mjs'], { cwd: dir, env: { ...process.env, FISHLOG_URL: base } });
    expect(stdout).toBe('2026-06-01T05:30:00.000Z Dawn on Mille Lacs\nWalleye, 62 cm, added to "Dawn on Mille Lacs"\n');
    const added = await t.database.db.select().from(catches).where(eq(catches.entryId, entry.id));
    expect(added).toMatchObject([{ lengthCm: 62, released: true, speciesId: WALLEYE }]);
  });
});
