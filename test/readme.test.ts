import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli/index.js';
import { createTestApp, type TestApp } from './harness.js';

/**
 * The README and the guides it links tell the truth: every ```sh example in them is run here —
 * `npm run fishlog -- …` through the CLI, `curl …` against a test app — file after file in the order of
 * `documents`, and each `# → STATUS { fields }` line is checked against the answer (`NAME=.field` keeps a
 * value for the next commands, in that file and the later ones, as a reader following them would). The
 * quick start (`npm ci && npm start`, `npm test`) is what CI runs on a fresh clone (scripts/smoke.sh, .ci/run).
 */

const root = path.resolve(import.meta.dirname, '..');

/**
 * The files read, in this order (repository paths): the README, then its guides as the README lists them — a guide's
 * examples may use what an earlier one made (`$ENTRY_ID` of the fishing log, in photos) — then the other docs.
 */
const documents = [
  'README.md',
  'docs/guide/api-conventions.md',
  'docs/guide/accounts-and-access.md',
  'docs/guide/fishing-log.md',
  'docs/guide/photos.md',
  'docs/guide/profiles-and-personal-bests.md',
  'docs/guide/catalog.md',
  'docs/guide/social.md',
  'docs/guide/moderation.md',
  'docs/guide/tournaments.md',
  'docs/guide/charters-and-payments.md',
  'docs/guide/notifications.md',
  'docs/guide/regulations.md',
  'docs/guide/community.md',
  'docs/guide/administration.md',
  'docs/guide/offline-sync.md',
  'docs/configuration.md',
  'docs/deployment.md',
  'docs/backups.md',
  'docs/cli.md',
  'docs/development.md',
  'docs/console.md',
  'docs/architecture.md',
  'docs/scaling.md',
];

/** Examples run today: adding a file or an example raises it, moving one keeps it. */
const EXAMPLES = 15;

const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const readme = read('README.md');

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
    if (!(m[1]! in vars)) throw new Error(`$${m[1]} is used before a "# →" line sets it`);
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

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchors(text: string): Set<string> {
  const inFence = fencedBlocks(text).flatMap((b) => Array.from({ length: b.lines.length + 2 }, (_, k) => b.line + k));
  return new Set(
    text
      .split('\n')
      .filter((_, i) => !inFence.includes(i + 1))
      .map((line) => /^#{1,6}\s+(.*)$/.exec(line)?.[1])
      .filter((h): h is string => h !== undefined)
      .map(slug),
  );
}

/** The CLI's arguments of `npm run fishlog -- …` (the project's own CLI: no install, no registry). */
function cliArguments(argv: string[]): string[] | undefined {
  if (argv[0] === 'npm' && argv[1] === 'run' && argv[2] === 'fishlog') return argv[3] === '--' ? argv.slice(4) : argv.slice(3);
  return undefined;
}

describe.each(documents)('%s', (file) => {
  const text = read(file);

  it('references no file outside the repository, and every repository path and link it names exists', () => {
    expect(text).not.toMatch(/shared\/|ARCHITECTURE\.md|fishing-log-service\.md/);
    // The project's own CLI is `npm run fishlog -- …`; docs/cli.md says once that `npx fishlog` works too.
    if (file !== 'docs/cli.md') expect(text).not.toMatch(/npx fishlog/);
    const paths = [...text.matchAll(/`((?:src|test|scripts|docs|drizzle|bench|reference-data|bin|packages)\/[^`\s]*|\.env\.example)`/g)].map((m) => m[1]!);
    const missing = paths.filter((p) => !/[<{*]/.test(p) && !existsSync(path.join(root, p)));
    expect(missing).toEqual([]);
    // Markdown links to the repository's files (relative to this file), and their #anchors.
    const broken: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      const [where, anchor] = target!.split('#');
      const linked = where ? path.join(path.dirname(path.join(root, file)), where) : path.join(root, file);
      if (!existsSync(linked)) broken.push(target!);
      else if (anchor && linked.endsWith('.md') && !anchors(readFileSync(linked, 'utf8')).has(anchor)) broken.push(target!);
    }
    expect(broken).toEqual([]);
  });

  it('has only ```sh examples (run below) and ```text listings', () => {
    const blocks = fencedBlocks(text);
    expect(blocks.filter((b) => b.lang !== 'sh' && b.lang !== 'text').map((b) => `line ${b.line}: ${b.lang || '(no language)'}`)).toEqual([]);
  });
});

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

  it('names the repository paths it describes, links every file of docs/, and is a front page (250 lines at most)', () => {
    expect([...readme.matchAll(/`(?:src|test|scripts|docs|bench|reference-data)\/[^`\s]*`/g)].length).toBeGreaterThanOrEqual(3);
    const docs = readdirSync(path.join(root, 'docs'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f.split(path.sep).join('/')}`);
    expect(docs.filter((f) => !documents.includes(f)), 'every file of docs/ is in documents').toEqual([]);
    for (const file of documents.slice(1)) expect(readme, `README links ${file}`).toContain(`](${file})`);
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(250);
  });

  it('starts with the commands CI runs on a fresh clone', () => {
    const [quickStart] = fencedBlocks(readme);
    expect(steps(quickStart!).map((s) => s.command)).toEqual(['npm ci && npm start', 'npm test']);
    const smoke = read('scripts/smoke.sh');
    expect(smoke).toMatch(/^npm start /m);
    expect(smoke).toMatch(/^npm run fishlog -- idp users create jo /m);
    for (const file of ['scripts/smoke.sh', 'reference-data/README.md']) expect(read(file), file).not.toMatch(/npx fishlog/);
    const ci = read('.ci/run');
    expect(ci).toMatch(/^npm ci\b/m);
    expect(ci).toMatch(/^bash scripts\/smoke\.sh$/m);
    expect(ci).toMatch(/^npm test$/m);
  });

  it('runs every other example of the README and its guides as written, in order, and gets the answers they show', async () => {
    const vars: Record<string, string> = {};
    let ran = 0;
    for (const file of documents) {
      const blocks = fencedBlocks(read(file)).filter((b) => b.lang === 'sh');
      for (const block of file === 'README.md' ? blocks.slice(1) : blocks) {
        for (const step of steps(block)) {
          const where = `${file} line ${block.line}: ${step.command}`;
          const argv = words(step.command, vars);
          ran++;
          expect(`${argv[0]} ${argv[1]}`, `${where}: the project's own CLI is \`npm run fishlog -- …\` (no install, no registry)`).not.toBe('npx fishlog');
          const cli = cliArguments(argv);
          if (cli) {
            let err = '';
            const code = await main(cli, {
              out: () => undefined,
              err: (text) => (err += text),
              env: { DATABASE_URL: t.testDatabase.url, FISHLOG_SCRYPT_COST: '10', LOG_LEVEL: 'silent' },
            });
            expect(code, `${where}\n${err}`).toBe(0);
            continue;
          }
          expect(argv[0], where).toBe('curl');
          await curl(t, argv, step, where, vars);
        }
      }
    }
    // eslint-disable-next-line no-console -- the count shows that moving an example did not lose it
    console.info(`${ran} examples run from ${documents.length} files`);
    expect(ran).toBeGreaterThanOrEqual(EXAMPLES);
  });
});

/** One `curl …` example against the test app, checked against its `# →` line. */
async function curl(t: TestApp, argv: string[], step: Step, where: string, vars: Record<string, string>): Promise<void> {
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
    return;
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
