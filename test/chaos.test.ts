import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../src/paths.js';
import { buildServer } from './build.js';

/**
 * Chaos: the real process (`npm start`, embedded PostgreSQL in a data folder of its own) under a
 * steady write load; the PostgreSQL server is killed with SIGKILL. The API process must stay up,
 * answer 503 + Retry-After meanwhile (never a 500), serve again within 30 s, and every write it
 * acknowledged (201) must still be there.
 */

let dataDir: string;
let server: ChildProcess | undefined;
let output = '';

async function start(): Promise<number> {
  const child = spawn('npm', ['start', '--ignore-scripts', '--silent'], {
    cwd: projectRoot,
    detached: true,
    env: { ...process.env, FISHLOG_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', DATABASE_URL: '', FISHLOG_SCRYPT_COST: '10', RATE_LIMIT_PER_MINUTE: '100000', RATE_LIMIT_USER_PER_MINUTE: '100000' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server = child;
  return new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 150_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
}

beforeAll(async () => {
  await buildServer();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'fishlog-chaos-'));
});
afterAll(async () => {
  if (server?.pid && server.exitCode === null) {
    process.kill(-server.pid, 'SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 3000));
  }
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('chaos: the embedded PostgreSQL is killed under load', { timeout: 300_000 }, () => {
  it('keeps the process up, answers 503 with Retry-After, serves again within 30 s, loses no acknowledged write', async () => {
    const port = await start();
    const base = `http://127.0.0.1:${port}`;
    execFileSync(process.execPath, [path.join(projectRoot, 'bin', 'fishlog.js'), 'idp', 'users', 'create', 'chaos', '--email', 'chaos@example.com', '--password', 'a long password'], {
      cwd: projectRoot,
      env: { ...process.env, FISHLOG_DATA_DIR: dataDir, DATABASE_URL: '', FISHLOG_SCRYPT_COST: '10' },
    });
    const login = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'chaos', password: 'a long password' }) });
    expect(login.status).toBe(200);
    const headers = { authorization: `Bearer ${((await login.json()) as { id_token: string }).id_token}`, 'content-type': 'application/json' };

    const acknowledged: string[] = [];
    const statuses: Record<number, number> = {};
    let unavailableWithoutRetryAfter = 0;
    let running = true;
    const writer = async (n: number) => {
      for (let i = 0; running; i++) {
        try {
          const res = await fetch(`${base}/api/fishinglog/sessions`, { method: 'POST', headers, body: JSON.stringify({ startedAt: new Date().toISOString(), notes: `w${n}-${i}` }) });
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          if (res.status === 201) acknowledged.push(((await res.json()) as { id: string }).id);
          else {
            if (res.status === 503 && !res.headers.get('retry-after')) unavailableWithoutRetryAfter++;
            await res.arrayBuffer();
          }
        } catch {
          statuses[0] = (statuses[0] ?? 0) + 1; // connection refused: would mean the process died
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const writers = [1, 2, 3, 4].map((n) => writer(n));
    await new Promise((resolve) => setTimeout(resolve, 2000));

    const pid = Number((await fs.readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);
    const killedAt = Date.now();
    process.kill(pid, 'SIGKILL');

    // 503 + Retry-After while it is down (or already back), never a crash
    let recoveredAfter = -1;
    let saw503 = false;
    while (Date.now() - killedAt < 30_000) {
      const res = await fetch(`${base}/health/ready`).catch(() => undefined);
      expect(res, 'the API process must stay up').toBeDefined();
      if (res!.status === 503) {
        saw503 = true;
        expect(res!.headers.get('retry-after')).toBe('5');
      }
      if (res!.status === 200 && saw503) {
        recoveredAfter = Date.now() - killedAt;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await new Promise((resolve) => setTimeout(resolve, 1500));
    running = false;
    await Promise.all(writers);
    // eslint-disable-next-line no-console -- the figure is reported in the hardening notes
    console.info(`[measure] recovered ${recoveredAfter} ms after SIGKILL of PostgreSQL; statuses ${JSON.stringify(statuses)}; ${acknowledged.length} acknowledged writes`);

    expect(server!.exitCode).toBeNull();
    expect(recoveredAfter).toBeGreaterThan(0);
    expect(recoveredAfter).toBeLessThan(30_000);
    expect(statuses[500] ?? 0).toBe(0);
    expect(statuses[0] ?? 0).toBe(0);
    expect(unavailableWithoutRetryAfter).toBe(0);
    expect(statuses[201]).toBeGreaterThan(0);

    // every acknowledged write is there
    const missing: string[] = [];
    for (const id of acknowledged) {
      const res = await fetch(`${base}/api/fishinglog/sessions/${id}`, { headers });
      if (res.status !== 200) missing.push(`${id}:${res.status}`);
      await res.arrayBuffer();
    }
    expect(missing).toEqual([]);
    expect(output).toMatch(/exited unexpectedly; restarting it/);
  });
});
