/**
 * Start-up time of the real process (what `npm start` runs after its build step): from spawn
 * to the first 200 of GET /health, on a fresh data folder and then on the existing one.
 *
 *   npm run build && npm run bench:startup
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const runs = Number(process.env.BENCH_RUNS ?? 3);
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'fishlog-startup-'));

async function startOnce(): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ['dist/main.js'], { env: { ...process.env, FISHLOG_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info', DATABASE_URL: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
  while ((await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined))?.status !== 200) await new Promise((r) => setTimeout(r, 20));
  const ms = performance.now() - started;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.on('exit', resolve));
  return ms;
}

try {
  console.log(`fresh data folder: ${(await startOnce()).toFixed(0)} ms (initdb, migrations, reference-data seeds)`);
  for (let i = 1; i <= runs; i++) console.log(`existing data folder, run ${i}: ${(await startOnce()).toFixed(0)} ms (includes starting PostgreSQL)`);
} finally {
  await fs.rm(dataDir, { recursive: true, force: true });
}
