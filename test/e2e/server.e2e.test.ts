import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireEmbeddedCluster } from '../../src/core/db/embedded.js';
import { projectRoot } from '../../src/paths.js';
import { buildServer } from '../build.js';

/**
 * End to end: the real process, started with `npm start`, on a temporary data folder, with its
 * own embedded PostgreSQL; killed with SIGKILL and started again.
 */

interface Server {
  child: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * `npm start`, the README's command (its build step ran once in beforeAll: `--ignore-scripts`
 * skips only the `prestart` rebuild). In a process group of its own, so a crash can kill npm and
 * the server together.
 */
function spawnServer(dataDir: string, env: NodeJS.ProcessEnv = {}) {
  const child = spawn('npm', ['start', '--ignore-scripts', '--silent'], {
    cwd: projectRoot,
    detached: true,
    env: { ...process.env, FISHLOG_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function startServer(dataDir: string, env: NodeJS.ProcessEnv = {}): Promise<Server> {
  const server = spawnServer(dataDir, env);
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${server.output()}`)), 90_000);
    const onData = () => {
      const match = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(server.output());
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    server.child.stdout!.on('data', onData);
    server.child.stderr!.on('data', onData);
    void server.exited.then((code) => reject(new Error(`server exited with ${code}:\n${server.output()}`)));
  });
  return { ...server, port };
}

/** A crash: npm and the server it runs die at once. */
function crash(server: Server): void {
  process.kill(-server.child.pid!, 'SIGKILL');
}

async function health(port: number) {
  const res = await fetch(`http://127.0.0.1:${port}/health`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function withCluster<T>(dataDir: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const cluster = await acquireEmbeddedCluster({ dataDir });
  const client = new pg.Client({ connectionString: cluster.url() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
    await cluster.release();
  }
}

let dataDir: string;
beforeAll(async () => {
  // `npm start`'s build step, once for every start below.
  await buildServer();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'fishlog-e2e-'));
});
afterAll(async () => {
  await fs.rm(dataDir, { recursive: true, force: true });
});

// Several real start-ups (initdb, migrations, reference-data seeding) per test: minutes on a busy 2-core machine.
describe('the real server process', { timeout: 240_000 }, () => {
  it('runs the README start command: scripts/smoke.sh (as .ci/run does) serves /health, signs a CLI-created user in, exits cleanly on SIGTERM', async () => {
    let output = '';
    const child = spawn('bash', [path.join(projectRoot, 'scripts', 'smoke.sh')], {
      cwd: projectRoot,
      env: { ...process.env, SMOKE_TIMEOUT: '180' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(output).toContain('smoke: /health 200');
    expect(output).toContain('smoke: signed in as jo and read /api/userprofile/me');
    expect(output).toContain('smoke: SIGTERM → clean exit (0), embedded PostgreSQL stopped');
    expect({ code, output }).toMatchObject({ code: 0 });
  });
  it('starts on a fresh data folder, survives SIGKILL with its data, and shuts down cleanly', async () => {
    const first = await startServer(dataDir);
    expect(await health(first.port)).toMatchObject({ status: 200, body: { status: 'ok', database: 'ok' } });
    expect(first.output()).toContain('initialising the embedded PostgreSQL');

    // A second server on the same data folder shares the running cluster.
    const second = await startServer(dataDir);
    expect(second.output()).toContain('sharing the embedded PostgreSQL');
    expect(await health(second.port)).toMatchObject({ status: 200, body: { database: 'ok' } });
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);

    // A SIGTERM during the start-up (at its first line, while it joins the cluster) stops it cleanly
    // once the step in progress ends: exit code 0, not a death by the signal.
    const early = spawnServer(dataDir);
    await new Promise((resolve) => early.child.stderr!.once('data', resolve));
    early.child.kill('SIGTERM');
    expect({ code: await early.exited, output: early.output() }).toMatchObject({ code: 0, output: expect.stringContaining('SIGTERM while starting') });
    expect(early.output()).toContain('fishlog: stopped');
    expect(await health(first.port)).toMatchObject({ status: 200, body: { database: 'ok' } });

    // Committed writes while the server runs (from another process of the project).
    await withCluster(dataDir, async (client) => {
      await client.query('CREATE TABLE e2e_probe (n int PRIMARY KEY)');
      await client.query('INSERT INTO e2e_probe SELECT generate_series(1, 1000)');
    });

    // Crash: the server and its PostgreSQL die with SIGKILL.
    const postmaster = Number((await fs.readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);
    crash(first);
    process.kill(postmaster, 'SIGKILL');
    await first.exited;

    const restarted = await startServer(dataDir);
    expect(restarted.output()).not.toContain('initialising');
    expect(await health(restarted.port)).toMatchObject({ status: 200, body: { status: 'ok', database: 'ok' } });
    const count = await withCluster(dataDir, async (client) => (await client.query('SELECT count(*)::int AS n FROM e2e_probe')).rows[0].n);
    expect(count).toBe(1000);

    // Graceful shutdown: exit code 0 and the embedded PostgreSQL stopped.
    restarted.child.kill('SIGTERM');
    expect(await restarted.exited).toBe(0);
    expect(restarted.output()).toContain('embedded PostgreSQL stopped');
    await expect(fs.access(path.join(dataDir, 'postgres', 'postmaster.pid'))).rejects.toThrow();
  });

  it('keeps every write answered 2xx when killed with SIGKILL in the middle of writes', async () => {
    // The data folder of the test above (initialised there, or here when that test is not run).
    const dir = dataDir;
    const server = await startServer(dir);
    // Users are managed from the CLI, while the server runs, on the same data folder.
    const cli = (...args: string[]) =>
      execFileSync(process.execPath, [path.join(projectRoot, 'bin', 'fishlog.js'), ...args], {
        env: { ...process.env, FISHLOG_DATA_DIR: dir, DATABASE_URL: '', FISHLOG_SCRYPT_COST: '10' },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    cli('idp', 'users', 'create', 'boss', '--email', 'boss@example.com', '--password', 'boss-password-1');
    cli('idp', 'users', 'create', 'mod', '--email', 'mod@example.com', '--password', 'mod-password-1');
    cli('users', 'set-role', 'boss', 'Owner');
    cli('users', 'set-role', 'mod', 'Moderator');
    const base = `http://127.0.0.1:${server.port}`;
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'boss', password: 'boss-password-1' }),
    });
    const { id_token: token } = (await login.json()) as { id_token: string };
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const employees = (await (await fetch(`${base}/api/admin/employees`, { headers })).json()) as Array<{ id: string }>;
    const modId = employees[0]!.id;

    // Writers keep granting until the server dies; every 201 names a grant that must survive.
    const acknowledged: string[] = [];
    let stop = false;
    const writer = async () => {
      while (!stop) {
        try {
          const res = await fetch(`${base}/api/admin/employees/${modId}/permissions`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ permission: 'AuditLogs.View', isGranted: acknowledged.length % 2 === 0 }),
          });
          if (res.status === 201) acknowledged.push(((await res.json()) as { id: string }).id);
        } catch {
          return; // connection refused or reset: the server is gone
        }
      }
    };
    const writers = Promise.all([writer(), writer(), writer(), writer()]);
    while (acknowledged.length < 40) await new Promise((resolve) => setTimeout(resolve, 20));
    crash(server);
    await server.exited;
    stop = true;
    await writers;

    const restarted = await startServer(dir);
    const stored = await withCluster(dir, async (client) =>
      new Set((await client.query<{ id: string }>('SELECT id FROM permission_grants')).rows.map((r) => r.id)),
    );
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    expect(cli('audit', 'verify')).toMatch(/intact/);
    restarted.child.kill('SIGTERM');
    expect(await restarted.exited).toBe(0);
  });

  it('refuses a bad configuration with one clear line and exit code 2', async () => {
    let stderr = '';
    const child = spawn('npm', ['start', '--ignore-scripts', '--silent'], {
      cwd: projectRoot,
      env: { ...process.env, PORT: 'eighty', FISHLOG_DATA_DIR: dataDir },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(stderr.split('\n').find((line) => line.startsWith('fishlog:'))).toBe('fishlog: invalid configuration: PORT="eighty" is not valid; PORT accepts an integer from 0 to 65535');
  });
});
