/**
 * Shared pieces of the benches (`npm run bench -- <name>`, see bench/run.ts).
 *
 * - One embedded PostgreSQL cluster for all benches (its own data folder, not the tests'), one
 *   throw-away database per data set and run (`BENCH_RUN_ID`); the 1M set is seeded once per run.
 * - The service runs in a child process from the build (bench/server.js under plain `node`, on
 *   `dist/`: `npm run build` once per run; `buildApp` in-process there, behind a real HTTP
 *   listener); a bare Fastify reference route per target runs the SQL the service ran for that
 *   request (captured from `pg`, not re-typed) in another child (bench/bare.js), so the service's
 *   RSS is its own. autocannon runs here.
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { acquireEmbeddedCluster, type EmbeddedCluster } from '../src/core/db/embedded.js';
import { prepareDatabase } from '../src/core/db/prepare.js';

export interface Figure {
  /** What is measured, e.g. "feed throughput, service ÷ bare". */
  name: string;
  value: number;
  /** The goal as written, e.g. "≥ 0.9". */
  goal: string;
  ok: boolean;
  unit?: string;
}

export interface BenchResult {
  name: string;
  figures: Figure[];
  /** Raw measurements (throughput, latencies, RSS) behind the figures. */
  details?: Record<string, unknown>;
}

export function atLeast(name: string, value: number, goal: number, unit = ''): Figure {
  return { name, value: round(value), goal: `≥ ${goal}${unit ? ` ${unit}` : ''}`, ok: value >= goal, ...(unit ? { unit } : {}) };
}

export function atMost(name: string, value: number, goal: number, unit = ''): Figure {
  return { name, value: round(value), goal: `≤ ${goal}${unit ? ` ${unit}` : ''}`, ok: value <= goal, ...(unit ? { unit } : {}) };
}

export function round(value: number): number {
  return Math.abs(value) >= 100 ? Math.round(value) : Math.round(value * 1000) / 1000;
}

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
export const here = path.dirname(fileURLToPath(import.meta.url));
export const RUN_ID = (process.env.BENCH_RUN_ID ??= `${process.pid}`);

let cluster: EmbeddedCluster | undefined;

/** The benches' embedded cluster (started once, in its own data folder). */
export async function benchCluster(): Promise<EmbeddedCluster> {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  cluster ??= await acquireEmbeddedCluster({ dataDir: path.join(os.tmpdir(), `fishlog-bench-${uid}`), processName: 'fishlog-bench' });
  return cluster;
}

export async function releaseCluster(): Promise<void> {
  await cluster?.release();
  cluster = undefined;
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: (await benchCluster()).url('postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh migrated database `fishlog_bench_<label>_<run>`, or the existing one of this run. */
export async function benchDatabase(label: string, seed: (pool: pg.Pool) => Promise<void>): Promise<string> {
  const name = `fishlog_bench_${label}_${RUN_ID}`;
  const url = (await benchCluster()).url(name);
  const exists = await admin(async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1);
  if (exists && (await isSeeded(url))) {
    // Reused (same BENCH_RUN_ID): bring it to the current migrations (new indexes build on the data).
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    await prepareDatabase(pool, () => undefined).finally(() => pool.end());
    return url;
  }
  if (exists) await admin((c) => c.query(`DROP DATABASE ${name} WITH (FORCE)`));
  await admin(async (c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${await templateDatabase()}`));
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  try {
    const started = Date.now();
    await seed(pool);
    await pool.query(`CREATE TABLE bench_seeded (at timestamptz NOT NULL DEFAULT now())`);
    await pool.query(`INSERT INTO bench_seeded DEFAULT VALUES`);
    log(`seeded ${name} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await pool.end();
  }
  return url;
}

/** A migrated, reference-seeded database kept between runs (migrations applied when new). */
async function templateDatabase(): Promise<string> {
  const name = 'fishlog_bench_template';
  const started = Date.now();
  await admin(async (c) => {
    if ((await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 0) await c.query(`CREATE DATABASE ${name}`);
  });
  const pool = new pg.Pool({ connectionString: (await benchCluster()).url(name), max: 2 });
  try {
    await prepareDatabase(pool, () => undefined);
  } finally {
    await pool.end();
  }
  log(`template ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return name;
}

async function isSeeded(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(`SELECT to_regclass('bench_seeded') IS NOT NULL AS ok`)).rows[0].ok as boolean;
  } finally {
    await client.end();
  }
}

/** Drops this run's databases (run.ts calls it once at the end). */
export async function dropRunDatabases(): Promise<void> {
  await admin(async (c) => {
    const { rows } = await c.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`fishlog_bench_%_${RUN_ID}`]);
    for (const row of rows) await c.query(`DROP DATABASE ${pg.escapeIdentifier(row.datname)} WITH (FORCE)`);
  });
}

export function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

/** Fixed uuids for the seeded viewers (log in as `bench_viewer_<friends>` / `bench-password-1`). */
export const PASSWORD = 'bench-password-1';

/**
 * The feed data set: `anglers` anglers (10,000 unless said), `entries` log entries spread over them (10% Public,
 * 10% Friends, 10% Circle, the rest Private), one catch per 4 entries, posts (one per 10
 * entries), and three viewers with 0, 50 and 500 friends (each also in 10 circles).
 * Everything by `INSERT … SELECT generate_series` in a handful of statements.
 */
export async function seedFeed(pool: pg.Pool, entries: number, createViewer: (username: string) => Promise<void>, anglers = 10_000): Promise<void> {
  for (const friends of [0, 50, 500]) await createViewer(`bench_viewer_${friends}`);
  await pool.query(`INSERT INTO users (id, sub, username) SELECT gen_random_uuid(), 'bench-' || g, 'bench_angler_' || lpad(g::text, 5, '0') FROM generate_series(1, ${anglers}) g`);
  for (const friends of [0, 50, 500]) {
    const viewer = `bench_viewer_${friends}`;
    await pool.query(
      `WITH v AS (SELECT id FROM users WHERE username = $1),
            f AS (SELECT id FROM users WHERE username LIKE 'bench_angler_%' ORDER BY md5(username || $1) LIMIT $2)
       INSERT INTO friend_links (user_id, friend_id) SELECT v.id, f.id FROM v, f UNION ALL SELECT f.id, v.id FROM v, f`,
      [viewer, friends],
    );
    await pool.query(
      `INSERT INTO circle_members (owner_id, member_id)
       SELECT u.id, v.id FROM users u, (SELECT id FROM users WHERE username = $1) v WHERE u.username LIKE 'bench_angler_%' ORDER BY md5(u.username) LIMIT 10`,
      [viewer],
    );
  }
  await pool.query(`
    CREATE TEMP TABLE bench_anglers AS SELECT array_agg(id ORDER BY username) AS ids FROM users WHERE username LIKE 'bench_angler_%'`);
  await pool.query(`
    INSERT INTO fishing_log_entries (id, owner_id, title, occurred_at, time_zone, latitude, longitude, water_body, visibility, created_at, updated_at)
    SELECT gen_random_uuid(), a.ids[1 + (g::bigint * 7919) % ${anglers}], 'trip ' || g, now() - (g * 37 || ' seconds')::interval, 'America/Chicago',
           44 + random() * 5, -95 + random() * 5, 'Lake ' || (g % 500),
           CASE g % 10 WHEN 0 THEN 'Public' WHEN 1 THEN 'Friends' WHEN 2 THEN 'Circle' ELSE 'Private' END, now(), now()
    FROM generate_series(1, ${entries}) g, bench_anglers a`);
  await pool.query(`
    INSERT INTO catches (id, entry_id, owner_id, species_id, length_cm, released, caught_at)
    SELECT gen_random_uuid(), e.id, e.owner_id, (SELECT id FROM fish_species ORDER BY id LIMIT 1), 30 + random() * 40, true, e.occurred_at
    FROM fishing_log_entries e WHERE e.title LIKE '%0' OR e.title LIKE '%4'`);
  await pool.query(`
    INSERT INTO posts (id, author_id, text, visibility, status, created_at, updated_at)
    SELECT gen_random_uuid(), a.ids[1 + (g::bigint * 7919) % ${anglers}], 'post ' || g, CASE g % 4 WHEN 0 THEN 'Public' WHEN 1 THEN 'Friends' WHEN 2 THEN 'Circle' ELSE 'Private' END,
           'Published', now() - (g * 370 || ' seconds')::interval, now()
    FROM generate_series(1, ${Math.max(1000, Math.floor(entries / 10))}) g, bench_anglers a`);
  // Steady state: autovacuum keeps the visibility map current, which index-only scans rely on.
  await pool.query('VACUUM ANALYZE');
}

let built = false;

/** `npm run build` once per bench run: the server child runs the compiled service (dist/). */
export function buildOnce(): void {
  if (built || process.env.BENCH_SKIP_BUILD) return;
  const started = Date.now();
  execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '--silent', 'build'], { cwd: path.join(here, '..'), stdio: ['ignore', 'ignore', 'inherit'] });
  built = true;
  log(`built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

type Child = ChildProcess;

/** Starts a bench child and waits for its first message (its port). */
async function startChild<T>(file: string, databaseUrl: string, env: Record<string, string>, execArgv: string[]): Promise<{ child: Child; ready: T }> {
  const child = fork(path.join(here, file), [], {
    execArgv,
    env: { ...process.env, DATABASE_URL: databaseUrl, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    serialization: 'advanced', // captured parameter values keep their types (dates, buffers)
  });
  const ready = await new Promise<T>((resolve, reject) => {
    child.once('message', (m) => resolve(m as T));
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
  });
  return { child, ready };
}

let seq = 0;
function call<T>(child: Child, command: Record<string, unknown>): Promise<T> {
  const id = ++seq;
  return new Promise<T>((resolve, reject) => {
    const onMessage = (m: { id?: number; result?: T; error?: string }) => {
      if (m.id !== id) return;
      child.off('message', onMessage);
      if (m.error) reject(new Error(m.error));
      else resolve(m.result as T);
    };
    child.on('message', onMessage);
    child.send({ ...command, id });
  });
}

async function stopChild(child: Child): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * The service (bench/server.js on the build) and its bare reference (bench/bare.js), each in its
 * own process, and what they can do.
 */
export class BenchServer {
  private constructor(
    private readonly child: Child,
    private readonly bare: Child,
    readonly servicePort: number,
    readonly barePort: number,
  ) {}

  static async start(databaseUrl: string, env: Record<string, string> = {}): Promise<BenchServer> {
    buildOnce();
    // BENCH_NODE_ARGS: node options of the service, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it.
    const service = await startChild<{ servicePort: number }>('server.js', databaseUrl, env, process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(/\s+/) : []);
    // BENCH_BARE_NODE_ARGS: the same for the bare reference.
    const bare = await startChild<{ barePort: number }>('bare.js', databaseUrl, {}, process.env.BENCH_BARE_NODE_ARGS ? process.env.BENCH_BARE_NODE_ARGS.split(/\s+/) : []).catch(async (error: unknown) => {
      await stopChild(service.child);
      throw error;
    });
    return new BenchServer(service.child, bare.child, service.ready.servicePort, bare.ready.barePort);
  }

  private call<T>(command: Record<string, unknown>): Promise<T> {
    return call<T>(this.child, command);
  }

  /** Sets the service's log level (e.g. `warn`: no request lines) without restarting it. */
  async setLogLevel(level: string): Promise<void> {
    await this.call<boolean>({ kind: 'logLevel', level });
  }

  /** Logs in through the service; returns the Authorization header. */
  async login(username: string): Promise<Record<string, string>> {
    const token = await this.call<string>({ kind: 'login', username, password: PASSWORD });
    return { authorization: `Bearer ${token}` };
  }

  /**
   * Sends one request to the service while recording the SQL it runs, and mounts a bare route
   * `/bare/<key>` running exactly that SQL (concurrent queries stay concurrent). Returns the
   * captured statements (for the report).
   */
  async capture(key: string, request: { url: string; headers?: Record<string, string> }): Promise<{ statements: string[]; status: number }> {
    const { groups, ...captured } = await this.call<{ statements: string[]; status: number; groups: unknown[] }>({ kind: 'capture', key, ...request });
    await call(this.bare, { kind: 'route', key, groups });
    return captured;
  }

  /** Resident set size of the service's process, in MB. */
  async rssMb(): Promise<number> {
    const status = await fs.readFile(`/proc/${this.child.pid}/status`, 'utf8').catch(() => '');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return kb / 1024;
  }

  get pid(): number {
    return this.child.pid!;
  }

  get barePid(): number {
    return this.bare.pid!;
  }

  async stop(): Promise<void> {
    await Promise.all([stopChild(this.child), stopChild(this.bare)]);
  }
}

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  maxRssMb: number;
  non2xx: number;
  /** Answered requests in all. */
  requests: number;
  /**
   * CPU milliseconds per answered request, by process: the service, the bare reference, all
   * PostgreSQL processes, and this process (autocannon). On a machine whose cores are all busy
   * the throughput ratio follows these, and they move less between runs than throughput does.
   */
  cpuMsPerRequest: { service: number; bare: number; postgres: number; loadGenerator: number };
}

/** CPU time (ms) used so far by a process (utime + stime of /proc/<pid>/stat), 0 when unknown. */
async function cpuMs(pid: number): Promise<number> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? (ticks * 1000) / CLOCK_TICKS : 0;
}
const CLOCK_TICKS = 100;

/** The bench cluster's PostgreSQL processes: its postmaster (data folder fishlog-bench-*) and its children. */
async function postgresPids(): Promise<number[]> {
  const processes: { pid: number; ppid: number; bench: boolean }[] = [];
  for (const entry of await fs.readdir('/proc').catch(() => [])) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    if (!stat.includes('(postgres)')) continue;
    const cmdline = await fs.readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    processes.push({ pid: Number(entry), ppid: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]), bench: cmdline.includes('fishlog-bench-') });
  }
  const postmasters = new Set(processes.filter((p) => p.bench).map((p) => p.pid));
  return processes.filter((p) => postmasters.has(p.pid) || postmasters.has(p.ppid)).map((p) => p.pid);
}

/** CPU milliseconds used so far by the service, the bare route, PostgreSQL and this process. */
export async function cpuSnapshot(server: BenchServer) {
  const pg = await postgresPids();
  const own = process.cpuUsage();
  return {
    service: await cpuMs(server.pid),
    bare: await cpuMs(server.barePid),
    postgres: (await Promise.all(pg.map(cpuMs))).reduce((a, b) => a + b, 0),
    loadGenerator: (own.user + own.system) / 1000,
  };
}

/** autocannon against one URL, sampling the server's RSS meanwhile. */
export async function load(server: BenchServer, url: string, options: { connections?: number; seconds?: number; headers?: Record<string, string>; method?: string; body?: string; allowNon2xx?: boolean } = {}): Promise<Load> {
  let maxRss = await server.rssMb();
  const sampler = setInterval(() => void server.rssMb().then((mb) => (maxRss = Math.max(maxRss, mb))), 200);
  const before = await cpuSnapshot(server);
  try {
    const result = await autocannon({
      url,
      connections: options.connections ?? 50,
      duration: options.seconds ?? SECONDS,
      headers: { 'content-type': 'application/json', ...options.headers },
      ...(options.method ? { method: options.method as 'POST' } : {}),
      ...(options.body ? { body: options.body } : {}),
    });
    if (!options.allowNon2xx && (result.non2xx > 0 || result.errors > 0)) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    const after = await cpuSnapshot(server);
    const answered = Math.max(1, result.requests.total);
    const per = (key: keyof typeof after) => Math.round(((after[key] - before[key]) / answered) * 1000) / 1000;
    return {
      rps: Math.round(result.requests.average),
      p50: result.latency.p50,
      p99: result.latency.p99,
      maxRssMb: round(maxRss),
      non2xx: result.non2xx,
      requests: result.requests.total,
      cpuMsPerRequest: { service: per('service'), bare: per('bare'), postgres: per('postgres'), loadGenerator: per('loadGenerator') },
    };
  } finally {
    clearInterval(sampler);
  }
}

/**
 * The median latency in milliseconds, to the microsecond: `connections` clients each sending the
 * next request when the previous answer arrived, for `seconds` (autocannon reports whole
 * milliseconds, too coarse for a 3 ms median).
 */
export async function medianLatencyMs(url: string, headers: Record<string, string>, options: { connections?: number; seconds?: number } = {}): Promise<number> {
  const until = performance.now() + (options.seconds ?? SECONDS) * 1000;
  const samples: number[] = [];
  const client = async () => {
    while (performance.now() < until) {
      const started = performance.now();
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
      samples.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: options.connections ?? 4 }, client));
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] ?? Number.NaN;
}

/** A URL to load, with its request headers. */
export interface Target {
  url: string;
  headers?: Record<string, string>;
}

/**
 * Loads of several targets in alternating windows of `windowSeconds`, `windows` windows each,
 * after a warm-up of each: round r runs the targets in order, round r+1 in reverse (a, b, b, a,
 * a, b, …), so a machine whose speed drifts (shared cores) weighs on every target alike. Two
 * back-to-back loads of six seconds each moved the same ratio by ±15% between runs on this
 * machine. Each target's figures are over all its windows: throughput is its answered requests
 * over its loaded seconds, CPU per request over all its requests, RSS the maximum, and p50 / p99
 * the median of its windows' values (percentiles of separate windows cannot be merged exactly).
 */
export async function alternate(server: BenchServer, targets: Target[], options: { connections?: number; windows?: number; windowSeconds?: number } = {}): Promise<Load[]> {
  const { connections = 50, windows = SECONDS, windowSeconds = 1 } = options;
  for (const target of targets) await load(server, target.url, { headers: target.headers, seconds: 2, connections });
  const runs: Load[][] = targets.map(() => []);
  for (let round = 0; round < windows; round++) {
    const order = targets.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const i of order) runs[i]!.push(await load(server, targets[i]!.url, { headers: targets[i]!.headers, seconds: windowSeconds, connections }));
  }
  return runs.map((windowsOfTarget) => combine(windowsOfTarget, windowSeconds));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** One target's windows as one load (see `alternate`). */
function combine(runs: Load[], windowSeconds: number): Load {
  const requests = runs.reduce((sum, run) => sum + run.requests, 0);
  const cpu = (key: keyof Load['cpuMsPerRequest']) => round(runs.reduce((sum, run) => sum + run.cpuMsPerRequest[key] * run.requests, 0) / Math.max(1, requests));
  return {
    rps: Math.round(requests / (runs.length * windowSeconds)),
    p50: median(runs.map((run) => run.p50)),
    p99: median(runs.map((run) => run.p99)),
    maxRssMb: Math.max(...runs.map((run) => run.maxRssMb)),
    non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
    requests,
    cpuMsPerRequest: { service: cpu('service'), bare: cpu('bare'), postgres: cpu('postgres'), loadGenerator: cpu('loadGenerator') },
  };
}

/**
 * Service and its bare reference for one target, in alternating windows (`alternate`): the
 * throughput ratio and both latency distributions. `others` are loaded in the same rotation
 * (e.g. /health for the /me figure) and returned beside them.
 */
export async function compare(server: BenchServer, key: string, path: string, headers: Record<string, string>, connections = 50, others: Target[] = []) {
  const captured = await server.capture(key, { url: path, headers });
  if (captured.status !== 200) throw new Error(`${path}: ${captured.status}`);
  const [s, b, ...rest] = await alternate(
    server,
    [{ url: `http://127.0.0.1:${server.servicePort}${path}`, headers }, { url: `http://127.0.0.1:${server.barePort}/bare/${key}` }, ...others],
    { connections },
  );
  if (b!.rps === 0) throw new Error(`${path}: the bare route answered nothing`);
  return { service: s!, bare: b!, ratio: s!.rps / b!.rps, p99Ratio: s!.p99 / Math.max(1, b!.p99), others: rest, statements: captured.statements };
}

export function printResult(result: BenchResult): void {
  console.log(`\n${result.name}`);
  console.table(result.figures.map((f) => ({ figure: f.name, value: f.value, goal: f.goal, ok: f.ok ? 'yes' : 'NO' })));
}

export async function writeResult(result: BenchResult): Promise<void> {
  const dir = path.join(here, 'results');
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, `${result.name}.json`), `${JSON.stringify({ ...result, at: new Date().toISOString(), cpus: os.cpus().length, node: process.version }, null, 2)}\n`);
}

/** A user of the embedded identity provider with its User row (the default, OWASP hashing cost). */
export function viewerCreator(pool: pg.Pool): (username: string) => Promise<void> {
  return async (username) => {
    const { createDb } = await import('../src/core/db/client.js');
    const { createIdpUser } = await import('../src/core/auth/idp/local/local-users.js');
    const { upsertFromClaims } = await import('../src/modules/users/users.repository.js');
    const db = createDb(pool);
    const { DEFAULT_SCRYPT_COST } = await import('../src/config.js');
    const idp = await createIdpUser(db, DEFAULT_SCRYPT_COST, { username, email: `${username}@example.com`, password: PASSWORD });
    await upsertFromClaims(db, { sub: idp.sub, username, email: `${username}@example.com` });
  };
}

/** The 1M-entry and 10k-entry feed data sets of this run (each seeded once per run); `anglers`: over how many anglers (10,000 unless said). */
export const feedDatabase = (size: '1m' | '10k', anglers = 10_000) =>
  benchDatabase(`feed_${size}${anglers === 10_000 ? '' : `_${anglers}a`}`, (pool) => seedFeed(pool, size === '1m' ? Number(process.env.BENCH_ENTRIES ?? 1_000_000) : 10_000, viewerCreator(pool), anglers));
