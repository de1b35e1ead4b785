import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli/index.js';
import { createTestApp, type TestApp } from './harness.js';

/**
 * The README tells the truth: every ```sh example in it is run here — `npx fishlog …` through the CLI,
 * `curl …` against a test app — in order, and each `# → STATUS { fields }` line is checked against the
 * answer (`NAME=.field` keeps a value for the next commands, as a reader would). The quick start
 * (`npm ci && npm start`, `npm test`) is what CI runs on a fresh clone (scripts/smoke.sh, .ci/run).
 */

const root = path.resolve(import.meta.dirname, '..');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

interface Block {
  lang: string;
  lines: string[];
  line: number;
}

function fencedBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
    blocks.push({ lang: open[1]!, lines: body, line: start + 1 });
  }
  return blocks;
}

interface Step {
  command: string;
  expect?: { status: number; array: boolean; fields: string[]; saves: Array<[string, string]>; contentType?: string };
}

/** The command without a trailing `# comment` (a # outside quotes, after a space). */
function withoutComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && line[i - 1] === ' ') return line.slice(0, i);
  }
  return line;
}

/** Commands of a block (continuation lines joined, trailing comments dropped) with their `# →` expectations. */
function steps(block: Block): Step[] {
  const out: Step[] = [];
  let pending = '';
  for (const raw of block.lines) {
    const line = raw.trimEnd();
    // A download (`curl … -o FILE`) shows the status and the type of the file: `# → 200 image/jpeg`.
    const file = /^#\s*→\s*(\d{3})\s+([a-z]+\/[a-z0-9.+-]+)$/.exec(line.trim());
    if (file) {
      out[out.length - 1]!.expect = { status: Number(file[1]), array: false, fields: [], saves: [], contentType: file[2]! };
      continue;
    }
    const arrow = /^#\s*→\s*(\d{3})\s+(\[?)\s*\{([^}]*)\}\s*\]?\s*(.*)$/.exec(line.trim());
    if (arrow) {
      const saves = [...arrow[4]!.matchAll(/(\w+)=\.(\S+)/g)].map((m) => [m[1]!, m[2]!] as [string, string]);
      out[out.length - 1]!.expect = { status: Number(arrow[1]), array: arrow[2] === '[', fields: arrow[3]!.split(',').map((f) => f.trim()).filter(Boolean), saves };
      continue;
    }
    if (line.trim().startsWith('#') || line.trim() === '') continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    out.push({ command: withoutComment(pending + line).trim() });
    pending = '';
  }
  return out;
}

/** Shell words: single quotes literal, double quotes with \" and $VAR, bare words with $VAR. */
function words(command: string, vars: Record<string, string>): string[] {
  const out: string[] = [];
  let word = '';
  let inWord = false;
  const variable = (text: string, at: number): [string, number] => {
    const m = /^\$([A-Z_][A-Z0-9_]*)/.exec(text.slice(at));
    if (!m) return ['$', at + 1];
    if (!(m[1]! in vars)) throw new Error(`README uses $${m[1]} before a "# →" line sets it`);
    return [vars[m[1]!]!, at + m[0].length];
  };
  for (let i = 0; i < command.length; ) {
    const c = command[i]!;
    if (c === ' ') {
      if (inWord) out.push(word);
      word = '';
      inWord = false;
      i++;
    } else if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unterminated ' in: ${command}`);
      word += command.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      inWord = true;
      for (i++; command[i] !== '"'; ) {
        if (i >= command.length) throw new Error(`unterminated " in: ${command}`);
        if (command[i] === '\\' && command[i + 1] === '"') {
          word += '"';
          i += 2;
        } else if (command[i] === '$') {
          const [value, next] = variable(command, i);
          word += value;
          i = next;
        } else word += command[i++];
      }
      i++;
    } else if (c === '$') {
      const [value, next] = variable(command, i);
      word += value;
      inWord = true;
      i = next;
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  if (inWord) out.push(word);
  return out;
}

function field(value: unknown, pathText: string): unknown {
  return pathText.split('.').reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], value);
}

describe('README', () => {
  let t: TestApp;
  let dataDir: string;
  beforeAll(async () => {
    // Photos the examples upload are stored in a folder of this run, not the checkout's ./data.
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'fishlog-readme-'));
    t = await createTestApp({ env: { FISHLOG_DATA_DIR: dataDir } });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('references no file outside the repository, and every repository path it names exists', () => {
    expect(readme).not.toMatch(/shared\/|ARCHITECTURE\.md|fishing-log-service\.md/);
    const paths = [...readme.matchAll(/`((?:src|test|scripts|docs|drizzle|bench|reference-data|bin)\/[^`\s]*|\.env\.example)`/g)].map((m) => m[1]!);
    expect(paths.length).toBeGreaterThan(3);
    const missing = paths.filter((p) => !/[<{*]/.test(p) && !existsSync(path.join(root, p)));
    expect(missing).toEqual([]);
  });

  it('has only ```sh examples (run below) and ```text listings', () => {
    const blocks = fencedBlocks(readme);
    expect(blocks.filter((b) => b.lang === 'sh').length).toBeGreaterThanOrEqual(4);
    expect(blocks.filter((b) => b.lang !== 'sh' && b.lang !== 'text').map((b) => `line ${b.line}: ${b.lang || '(no language)'}`)).toEqual([]);
  });

  it('starts with the commands CI runs on a fresh clone', () => {
    const [quickStart] = fencedBlocks(readme);
    expect(steps(quickStart!).map((s) => s.command)).toEqual(['npm ci && npm start', 'npm test']);
    expect(readFileSync(path.join(root, 'scripts/smoke.sh'), 'utf8')).toMatch(/^npm start /m);
    const ci = readFileSync(path.join(root, '.ci/run'), 'utf8');
    expect(ci).toMatch(/^npm ci\b/m);
    expect(ci).toMatch(/^bash scripts\/smoke\.sh$/m);
    expect(ci).toMatch(/^npm test$/m);
  });

  it('runs every other example as written, and gets the answers it shows', async () => {
    const vars: Record<string, string> = {};
    let ran = 0;
    for (const block of fencedBlocks(readme).filter((b) => b.lang === 'sh').slice(1)) {
      for (const step of steps(block)) {
        const argv = words(step.command, vars);
        const where = `README line ${block.line}: ${step.command}`;
        ran++;
        if (argv[0] === 'npx' && argv[1] === 'fishlog') {
          let err = '';
          const code = await main(argv.slice(2), {
            out: () => undefined,
            err: (text) => (err += text),
            env: { DATABASE_URL: t.testDatabase.url, FISHLOG_SCRYPT_COST: '10', LOG_LEVEL: 'silent' },
          });
          expect(code, `${where}\n${err}`).toBe(0);
          continue;
        }
        expect(argv[0], where).toBe('curl');
        let method: string | undefined;
        let body: string | undefined;
        let url: string | undefined;
        let output: string | undefined;
        const headers: Record<string, string> = {};
        for (let i = 1; i < argv.length; i++) {
          const arg = argv[i]!;
          if (arg === '-s') continue;
          else if (arg === '-X') method = argv[++i];
          else if (arg === '-H') {
            const [name, ...value] = argv[++i]!.split(':');
            headers[name!.trim().toLowerCase()] = value.join(':').trim();
          } else if (arg === '-d') body = argv[++i];
          else if (arg === '-F') {
            // One file part (`-F 'file=@path'`, a path in the repository), as curl sends it.
            const [name, at] = argv[++i]!.split('=');
            const boundary = '----readme';
            const file = readFileSync(path.join(root, at!.replace(/^@/, '')));
            const head = `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${path.basename(at!)}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
            body = Buffer.concat([Buffer.from(head), file, Buffer.from(`\r\n--${boundary}--\r\n`)]) as unknown as string;
            method ??= 'POST';
            headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
          } else if (arg === '-o') output = argv[++i];
          else if (arg.startsWith('-')) throw new Error(`${where}: curl option ${arg} is not understood by this test`);
          else url = arg;
        }
        const target = new URL(url!.startsWith('http') ? url! : `http://${url}`);
        expect(target.host, where).toBe('localhost:3000');
        const res = await t.app.inject({
          method: (method ?? (body === undefined ? 'GET' : 'POST')) as 'GET',
          url: target.pathname + target.search,
          headers,
          ...(body === undefined ? {} : { payload: body }),
        });
        expect(step.expect, `${where}: every curl example shows its answer with a "# →" line`).toBeDefined();
        const expected = step.expect!;
        expect(res.statusCode, `${where}\n${res.body}`).toBe(expected.status);
        if (output !== undefined) {
          expect(expected.contentType, `${where}: a download shows the file's type ("# → 200 image/jpeg")`).toBeDefined();
          expect(res.headers['content-type'], where).toBe(expected.contentType);
          expect(res.rawPayload.length, where).toBeGreaterThan(0);
          continue;
        }
        const answer = res.json();
        if (expected.array) expect(Array.isArray(answer) && answer.length > 0, `${where}: a non-empty array`).toBe(true);
        const shape = expected.array ? answer[0] : answer;
        for (const name of expected.fields) expect(shape, `${where}: field ${name}`).toHaveProperty(name);
        for (const [name, from] of expected.saves) {
          const value = field(answer, from);
          expect(typeof value, `${where}: ${name}=.${from}`).toBe('string');
          vars[name] = value as string;
        }
      }
    }
    expect(ran).toBeGreaterThanOrEqual(10);
  });
});
