/**
 * P6: `node dist/main.js` (built once here) on an existing data folder, from spawn to the first
 * 200 of GET /health, including starting the embedded PostgreSQL; the best and worst of 3.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { atMost, buildOnce, here, type BenchResult } from './lib.js';

async function startOnce(dataDir: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ['dist/main.js'], { cwd: path.join(here, '..'), env: { ...process.env, FISHLOG_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info', DATABASE_URL: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
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
    return performance.now() - started;
  } finally {
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

export default async function run(): Promise<BenchResult> {
  buildOnce();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'fishlog-restart-'));
  try {
    const fresh = await startOnce(dataDir);
    const runs = [await startOnce(dataDir), await startOnce(dataDir), await startOnce(dataDir)];
    return { name: 'restart', figures: [atMost('P6 restart to first 200 (s, worst of 3)', Math.max(...runs) / 1000, 2, 's')], details: { freshMs: Math.round(fresh), restartsMs: runs.map(Math.round) } };
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
