import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireEmbeddedCluster } from './embedded.js';

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'fishlog-embedded-'));

afterAll(async () => {
  await fs.rm(dataDir, { recursive: true, force: true });
});

async function query(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined); // a reset while the cluster restarts reaches the awaited call
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

async function postmasterPid(): Promise<number> {
  return Number((await fs.readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);
}

describe('embedded PostgreSQL', () => {
  it('initialises once, is shared between processes and stopped by the last one out', async () => {
    const first = await acquireEmbeddedCluster({ dataDir });
    expect(first.startedHere).toBe(true);
    const credentials = JSON.parse(await fs.readFile(path.join(dataDir, 'postgres.json'), 'utf8'));
    expect(credentials.password.length).toBeGreaterThanOrEqual(24);
    expect((await fs.stat(path.join(dataDir, 'postgres.json'))).mode & 0o077).toBe(0);

    const second = await acquireEmbeddedCluster({ dataDir });
    expect(second.startedHere).toBe(false);
    expect(second.port).toBe(first.port);
    await query(first.url(), 'CREATE TABLE probe (n int)');
    await query(second.url(), 'INSERT INTO probe VALUES (1)');

    expect(await first.release()).toEqual({ stopped: false });
    expect((await query(second.url(), 'SELECT n FROM probe')).rows).toEqual([{ n: 1 }]);
    expect(await second.release()).toEqual({ stopped: true });
    await expect(fs.access(path.join(dataDir, 'postgres', 'postmaster.pid'))).rejects.toThrow();
  });

  it('recovers after PostgreSQL is killed with SIGKILL, with committed writes intact', async () => {
    const before = await acquireEmbeddedCluster({ dataDir });
    expect(before.startedHere).toBe(true);
    await query(before.url(), 'INSERT INTO probe SELECT generate_series(2, 500)');
    process.kill(await postmasterPid(), 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await before.release(); // the presence connection is gone; nothing to stop

    const after = await acquireEmbeddedCluster({ dataDir });
    expect(after.startedHere).toBe(true);
    expect((await query(after.url(), 'SELECT count(*)::int AS n FROM probe')).rows).toEqual([{ n: 500 }]);
    expect(await after.release()).toEqual({ stopped: true });
  });

  it('lets a process join a running cluster and hands the stop to the last one out', async () => {
    const orphanMaker = await acquireEmbeddedCluster({ dataDir });
    // Simulate a killed owner: its presence is gone, the cluster still runs.
    const port = orphanMaker.port;
    const next = await acquireEmbeddedCluster({ dataDir });
    expect(next.startedHere).toBe(false);
    expect(next.port).toBe(port);
    await orphanMaker.release();
    expect(await next.release()).toEqual({ stopped: true });
  });

  it('restarts PostgreSQL killed while a process uses it, with backoff and a log line, on the same port, data intact', async () => {
    const lines: string[] = [];
    const cluster = await acquireEmbeddedCluster({ dataDir, log: (line) => lines.push(line) });
    const port = cluster.port;
    await query(cluster.url(), 'CREATE TABLE IF NOT EXISTS probe (n int)');
    const { rows } = await query(cluster.url(), 'SELECT count(*)::int AS n FROM probe');
    const killedAt = Date.now();
    process.kill(await postmasterPid(), 'SIGKILL');
    let back = false;
    while (!back && Date.now() - killedAt < 30_000) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      back = await query(cluster.url(), 'SELECT 1').then(
        () => true,
        () => false,
      );
    }
    expect(back).toBe(true);
    expect(cluster.port).toBe(port);
    expect(lines.some((l) => l.includes('exited unexpectedly; restarting it'))).toBe(true);
    expect((await query(cluster.url(), 'SELECT count(*)::int AS n FROM probe')).rows).toEqual(rows);
    expect(await cluster.release()).toEqual({ stopped: true });
  });
});
