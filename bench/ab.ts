/**
 * `npx tsx bench/ab.ts <load> <bench dir> <bench dir> …`: the same load on two (or more) builds of
 * the service at once, in alternating 1 s windows (a, b, b, a, …; AB_ROUNDS rounds, default 10,
 * after a 2 s warm-up of each), so that a change of the machine's speed weighs on every build
 * alike. Each `<bench dir>` is the bench/ folder of a checkout whose `dist/` is built, e.g. the
 * build before a change:
 *
 *   git worktree add /tmp/before <commit> && ln -s "$PWD/node_modules" /tmp/before/node_modules
 *   (cd /tmp/before && npx tsc -p tsconfig.build.json) && npm run build
 *   npx tsx bench/ab.ts write /tmp/before/bench bench
 *
 * `<bench dir>::<node options>` runs that build with node options of its own (instead of
 * BENCH_NODE_ARGS), e.g. `bench bench::--max-semi-space-size=64` compares one build with and
 * without the option.
 * `<load>`: `write` (the write bench's entry + catch pairs, 16 anglers on 16 connections, on the
 * 10k data set) or a GET path on the 1M data set as `bench_viewer_50` (50 connections); `:entry`
 * in the path stands for the Public entry with a catch the byid bench reads. Prints each build's
 * throughput and the CPU milliseconds its process used per request (per pair for `write`). Not a
 * bench with goals: it tells whether a change moved a figure more than the machine's noise.
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { feedDatabase, log, PASSWORD, releaseCluster, viewerCreator } from './lib.js';

const [loadName, ...dirs] = process.argv.slice(2).filter((a) => a !== '--');
if (!loadName || dirs.length < 2) {
  console.error('usage: npx tsx bench/ab.ts write|<GET path> <bench dir> <bench dir> …');
  process.exit(2);
}
const ROUNDS = Number(process.env.AB_ROUNDS ?? 10);
const WRITERS = Array.from({ length: 16 }, (_, i) => `bench_writer_${i + 1}`);

interface Build {
  dir: string;
  child: ChildProcess;
  port: number;
  tokens: Record<string, string>[];
  units: number;
  cpuMs: number;
  seconds: number;
}

async function cpuMs(pid: number): Promise<number> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms
}

async function start(dir: string, url: string, users: string[]): Promise<Build> {
  // `<bench dir>::<node options>`: that build with node options of its own (e.g. `bench::--max-semi-space-size=32`).
  const [folder, own] = dir.split('::') as [string, string | undefined];
  const child = fork(path.resolve(folder, 'server.js'), [], {
    env: { ...process.env, DATABASE_URL: url },
    // As the benches start it (lib.ts): plain node, or BENCH_NODE_ARGS (e.g. --cpu-prof --cpu-prof-dir=/tmp/prof: a profile per build).
    execArgv: own !== undefined ? own.split(/\s+/).filter(Boolean) : process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(/\s+/) : [],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    serialization: 'advanced',
  });
  const ready = await new Promise<{ servicePort: number }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { servicePort: number }));
    child.once('exit', (code) => reject(new Error(`${dir}/server.js exited with ${code}`)));
  });
  const tokens: Record<string, string>[] = [];
  for (const [i, username] of users.entries()) {
    const token = await new Promise<string>((resolve, reject) => {
      const onMessage = (m: { id?: number; result?: string; error?: string }) => {
        if (m.id !== i + 1) return;
        child.off('message', onMessage);
        if (m.error) reject(new Error(m.error));
        else resolve(m.result!);
      };
      child.on('message', onMessage);
      child.send({ kind: 'login', username, password: PASSWORD, id: i + 1 });
    });
    tokens.push({ authorization: `Bearer ${token}` });
  }
  return { dir, child, port: ready.servicePort, tokens, units: 0, cpuMs: 0, seconds: 0 };
}

/** The write bench's load: each connection one angler, POSTing an entry then a catch to it. */
function writeLoad(species: string) {
  const entry = JSON.stringify({ title: 'bench trip', occurredAt: '2024-06-01T10:00:00Z', timeZone: 'America/Chicago', visibility: 'Public' });
  const catchBody = JSON.stringify({ speciesId: species, released: true, caughtAt: '2024-06-01T10:30:00Z', lengthCm: 40 });
  type Context = { entryId?: string; headers?: Record<string, string> };
  return (build: Build): autocannon.Options => {
    let next = 0;
    return {
      url: `http://127.0.0.1:${build.port}`,
      connections: 16,
      requests: [
        {
          method: 'POST',
          path: '/api/fishinglog/entries',
          body: entry,
          setupRequest: (request, context: Context) => {
            context.headers ??= { ...build.tokens[next++ % build.tokens.length]!, 'content-type': 'application/json' };
            return { ...request, headers: context.headers };
          },
          onResponse: (status, body, context: Context) => {
            if (status === 201) context.entryId = (JSON.parse(body) as { id: string }).id;
          },
        },
        { method: 'POST', setupRequest: (request, context: Context) => ({ ...request, headers: context.headers, path: `/api/fishinglog/entries/${context.entryId}/catches`, body: catchBody }) },
      ],
    };
  };
}

const writes = loadName === 'write';
const url = await feedDatabase(writes ? '10k' : '1m');
const pool = new pg.Pool({ connectionString: url, max: 2 });
let options: (build: Build) => autocannon.Options;
let users = ['bench_viewer_50'];
try {
  if (writes) {
    const { rows } = await pool.query<{ username: string }>(`SELECT username FROM users WHERE username = ANY($1)`, [WRITERS]);
    const create = viewerCreator(pool);
    for (const name of WRITERS) if (!rows.some((r) => r.username === name)) await create(name);
    users = WRITERS;
    options = writeLoad((await pool.query<{ id: string }>(`SELECT id FROM fish_species WHERE is_active ORDER BY id LIMIT 1`)).rows[0]!.id);
  } else {
    let target = loadName;
    if (target.includes(':entry')) {
      const { rows } = await pool.query<{ id: string }>(`SELECT e.id FROM fishing_log_entries e JOIN catches c ON c.entry_id = e.id WHERE e.visibility = 'Public' LIMIT 1 OFFSET 5000`);
      target = target.replace(':entry', rows[0]!.id);
    }
    options = (build) => ({ url: `http://127.0.0.1:${build.port}${target}`, connections: 50, headers: build.tokens[0]! });
  }
} finally {
  await pool.end();
}

const builds: Build[] = [];
try {
  for (const dir of dirs) builds.push(await start(dir, url, users));
  const window = async (build: Build, seconds: number) => {
    const before = await cpuMs(build.child.pid!);
    const result = await autocannon({ ...options(build), duration: seconds });
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${build.dir}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    return { units: result.requests.total / (writes ? 2 : 1), cpuMs: (await cpuMs(build.child.pid!)) - before };
  };
  for (const build of builds) await window(build, 2);
  for (let round = 0; round < ROUNDS; round++) {
    for (const build of round % 2 === 1 ? [...builds].reverse() : builds) {
      const measured = await window(build, 1);
      build.units += measured.units;
      build.cpuMs += measured.cpuMs;
      build.seconds += 1;
    }
  }
  const unit = writes ? 'pairs' : 'requests';
  console.table(builds.map((b) => ({ build: b.dir, [`${unit}/s`]: Math.round(b.units / b.seconds), [`service CPU ms per ${unit.slice(0, -1)}`]: Math.round((b.cpuMs / b.units) * 10_000) / 10_000 })));
  log(`${ROUNDS} alternating 1 s windows each; the CPU is the whole service process's`);
} finally {
  for (const build of builds) build.child.kill('SIGTERM');
  await releaseCluster();
}
process.exit(0);
