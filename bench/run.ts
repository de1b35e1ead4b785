/**
 * `npm run bench -- <name>|all`: runs bench/<name>.bench.ts (its default export returns a
 * BenchResult), prints its figures with their goals and writes bench/results/<name>.json.
 * `all` runs every bench/*.bench.ts in turn, sharing the seeded data sets of the run. A bench file
 * without a default export (a standalone script that runs when imported) is run for its output;
 * its figures are whatever it prints.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { dropRunDatabases, here, log, printResult, releaseCluster, writeResult, type BenchResult } from './lib.js';

const names = process.argv.slice(2).filter((a) => a !== '--');
if (names.length === 0) {
  console.error('usage: npm run bench -- <name>|all (the bench/<name>.bench.ts files)');
  process.exit(2);
}
const available = (await fs.readdir(here)).filter((f) => f.endsWith('.bench.ts')).map((f) => f.replace(/\.bench\.ts$/, '')).sort();
const wanted = names.includes('all') ? available : names;
const unknown = wanted.filter((n) => !available.includes(n));
if (unknown.length) {
  console.error(`unknown bench: ${unknown.join(', ')} (have: ${available.join(', ')})`);
  process.exit(2);
}

const results: BenchResult[] = [];
let failed = false;
try {
  for (const name of wanted) {
    log(`running ${name}`);
    try {
      const module = (await import(pathToFileURL(path.join(here, `${name}.bench.ts`)).href)) as { default?: () => Promise<BenchResult> };
      if (typeof module.default !== 'function') {
        log(`${name} is a standalone script: it ran on import`);
        continue;
      }
      const result = await module.default();
      printResult(result);
      await writeResult(result);
      results.push(result);
    } catch (error) {
      failed = true;
      console.error(`${name} failed:`, error);
    }
  }
} finally {
  if (!process.env.BENCH_KEEP) await dropRunDatabases().catch((e) => log(`could not drop the run's databases: ${(e as Error).message}`));
  await releaseCluster();
}
if (results.length > 1) {
  console.log('\nall figures');
  console.table(results.flatMap((r) => r.figures.map((f) => ({ bench: r.name, figure: f.name, value: f.value, goal: f.goal, ok: f.ok ? 'yes' : 'NO' }))));
}
process.exit(failed ? 1 : 0);
