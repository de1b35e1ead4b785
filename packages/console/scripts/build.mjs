// Builds the console with Vite into dist/, unless its inputs are unchanged since the last build
// (`npm start` runs the root build each time: a start must stay quick). Prints the initial
// JavaScript (the entry script and the chunks index.html preloads) gzipped, and fails above the
// budget of 350 KB. FISHLOG_CONSOLE_FORCE_BUILD=1 builds anyway.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 350;
const here = path.dirname(fileURLToPath(import.meta.url));
const consoleDir = path.resolve(here, '..');
const root = path.resolve(consoleDir, '../..');
const dist = path.join(consoleDir, 'dist');
const stamp = path.join(dist, '.build-inputs');

function files(entry) {
  if (!existsSync(entry)) return [];
  if (statSync(entry).isFile()) return [entry];
  return readdirSync(entry)
    .sort()
    .flatMap((name) => files(path.join(entry, name)));
}

function inputsHash() {
  const hash = createHash('sha256');
  const inputs = [
    ...['index.html', 'vite.config.ts', 'package.json', 'src'].map((p) => path.join(consoleDir, p)),
    path.join(root, 'packages/client/src'),
    path.join(root, 'package-lock.json'),
  ].flatMap(files);
  for (const file of inputs) hash.update(path.relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

/** The gzipped size of the JavaScript a first visit loads: index.html's module script and its preloads. */
export function initialJavaScript(distDir = dist) {
  const html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const urls = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+\.js)"/g)].map((m) => m[1]);
  const chunks = [...new Set(urls)].map((url) => {
    const file = path.join(distDir, url.replace(/^\/console\//, ''));
    return { file: path.relative(distDir, file), gzip: gzipSync(readFileSync(file), { level: 9 }).length };
  });
  return { chunks, totalKb: chunks.reduce((sum, c) => sum + c.gzip, 0) / 1024 };
}

function report() {
  const { chunks, totalKb } = initialJavaScript();
  console.log(`console: initial JavaScript ${totalKb.toFixed(1)} KB gzipped (budget ${BUDGET_KB} KB) in ${chunks.length} file(s)`);
  if (totalKb > BUDGET_KB) {
    for (const c of chunks) console.log(`  ${c.file} ${(c.gzip / 1024).toFixed(1)} KB`);
    console.error(`console: the initial JavaScript is over its budget of ${BUDGET_KB} KB gzipped: split routes (React.lazy) or drop a dependency`);
    process.exit(1);
  }
}

/**
 * One build at a time in this folder: two test files (or a test run and `npm start`) starting at
 * once would otherwise both write dist/ while the other reads it. The second waits for the first,
 * then finds the inputs unchanged. A lock left by a process that died is taken over.
 */
async function withBuildLock(fn) {
  const lock = path.join(consoleDir, '.build.lock');
  for (const started = Date.now(); ; ) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(lock, 'utf8'));
      let alive = false;
      try {
        process.kill(holder, 0);
        alive = true;
      } catch {
        // the holder is gone: its lock is stale
      }
      if (!alive || Date.now() - started > 300_000) rmSync(lock, { force: true });
      else await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await withBuildLock(async () => {
    const hash = inputsHash();
    if (!process.env.FISHLOG_CONSOLE_FORCE_BUILD && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash && existsSync(path.join(dist, 'index.html'))) {
      console.log('console: inputs unchanged, build skipped');
      report();
    } else {
      const started = Date.now();
      // A production build even when started from a test run (vitest sets NODE_ENV=test, which would bundle React's development build).
      process.env.NODE_ENV = 'production';
      const { build } = await import('vite');
      await build({ root: consoleDir, configFile: path.join(consoleDir, 'vite.config.ts'), logLevel: 'warn' });
      writeFileSync(stamp, hash);
      console.log(`console: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      report();
    }
  });
}
