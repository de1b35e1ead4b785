/**
 * A person's copy of their data is written as a stream (issue 44): an angler with 10,000 log
 * entries (BENCH_EXPORT_ENTRIES; a catch on every fourth) and 1,000 photos (BENCH_EXPORT_PHOTOS,
 * each a ~250 kB display file on disk) asks for their export; the service (bench/server.js on the
 * build, MALLOC_ARENA_MAX=2 as the Dockerfile runs it) writes it on its job queue and the person
 * downloads it. The service's resident set size is sampled every 20 ms from the request until the
 * archive is ready, then during the download. The reference: the bare process of the other benches
 * (bench/bare.js: Fastify and a pg pool, idle), and a bare export (bench/bare-export.js: the same
 * rows and photo files into a tar.gz with pg, tar-stream and zlib, nothing else in the process),
 * sampled the same way. Goals: the service's RSS grows by at most 64 MB while it writes a 336 MB
 * archive (streamed: no more than a batch of rows and a file's buffers at a time), at most 1.5×
 * what the bare export grows by, and peaks under 250 MB (the bound of its other single operations,
 * P5 in docs/scaling.md) while it writes and serves it.
 *
 *   npm run bench:export          (= npm run bench -- export; bench/results/export.json)
 *   BENCH_EXPORT_PHOTOS=200 npm run bench:export
 *
 * Not part of `npm test`.
 */
import { fork } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { atMost, benchDatabase, BenchServer, here, log, round, viewerCreator, type BenchResult } from './lib.js';

const ENTRIES = Number(process.env.BENCH_EXPORT_ENTRIES ?? 10_000);
const PHOTOS = Number(process.env.BENCH_EXPORT_PHOTOS ?? 1_000);
/** The peak's bound: the one of the service's other single operations (8 concurrent logins, P5 in docs/scaling.md). */
const GOAL_MB = 250;
/** Streaming: the archive's size must not show in the RSS (a 336 MB archive here). */
const GROWTH_GOAL_MB = 64;
const USERNAME = 'bench_exporter';

async function rssMbOf(pid: number): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** Samples a process's RSS every 20 ms until `stop()`; answers the peak in MB. */
function sampler(pid: number) {
  let peak = 0;
  const timer = setInterval(() => void rssMbOf(pid).then((mb) => (peak = Math.max(peak, mb))), 20);
  return {
    async stop() {
      clearInterval(timer);
      return Math.max(peak, await rssMbOf(pid));
    },
  };
}

/** A display-size JPEG of ~250 kB (noise at 1000×750 does not compress much). */
async function displayJpeg(): Promise<Buffer> {
  return sharp(randomBytes(1000 * 750 * 3), { raw: { width: 1000, height: 750, channels: 3 } })
    .jpeg({ quality: 60 })
    .toBuffer();
}

export default async function run(): Promise<BenchResult> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'fishlog-bench-export-'));
  const mediaDir = path.join(dataDir, 'media');
  const url = await benchDatabase('export', async (pool) => {
    await viewerCreator(pool)(USERNAME);
    const userId = (await pool.query<{ id: string }>('SELECT id FROM users WHERE username = $1', [USERNAME])).rows[0]!.id;
    await pool.query(
      `INSERT INTO fishing_log_entries (id, owner_id, title, occurred_at, time_zone, latitude, longitude, water_body, visibility, created_at, updated_at)
       SELECT gen_random_uuid(), $1, 'trip ' || g, now() - (g * 3700 || ' seconds')::interval, 'America/Chicago', 44 + random() * 5, -95 + random() * 5,
              'Lake ' || (g % 50), CASE g % 4 WHEN 0 THEN 'Public' ELSE 'Private' END, now(), now()
       FROM generate_series(1, ${ENTRIES}) g`,
      [userId],
    );
    await pool.query(
      `INSERT INTO catches (id, entry_id, owner_id, species_id, length_cm, released, caught_at)
       SELECT gen_random_uuid(), e.id, e.owner_id, (SELECT id FROM fish_species ORDER BY id LIMIT 1), 30 + random() * 40, true, e.occurred_at
       FROM fishing_log_entries e WHERE e.owner_id = $1 AND e.title ~ '[048]$'`,
      [userId],
    );
    await pool.query(
      `INSERT INTO photos (id, owner_id, kind, record_id, entry_id, position, width, height, thumbnail_width, thumbnail_height, bytes)
       SELECT gen_random_uuid(), $1, 'Entry', e.id, e.id, 1, 1000, 750, 320, 240, 260000
       FROM (SELECT id FROM fishing_log_entries WHERE owner_id = $1 ORDER BY occurred_at DESC LIMIT ${PHOTOS}) e`,
      [userId],
    );
    await pool.query('VACUUM ANALYZE');
  });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const userId = (await client.query<{ id: string }>('SELECT id FROM users WHERE username = $1', [USERNAME])).rows[0]!.id;
  const photoIds = (await client.query<{ id: string }>('SELECT id FROM photos WHERE owner_id = $1', [userId])).rows.map((row) => row.id);
  await client.end();
  // The photos' files, on the local media storage the service reads (each a little different).
  const jpeg = await displayJpeg();
  for (const [i, id] of photoIds.entries()) {
    await fs.mkdir(path.join(mediaDir, 'photos', id), { recursive: true });
    const file = Buffer.from(jpeg);
    file.writeUInt32BE(i, file.length - 8);
    await fs.writeFile(path.join(mediaDir, 'photos', id, 'display.jpg'), file);
  }
  log(`seeded ${ENTRIES} entries and ${photoIds.length} photos of ${(jpeg.length / 1024).toFixed(0)} kB`);

  const server = await BenchServer.start(url, { FISHLOG_DATA_DIR: dataDir, FISHLOG_JOBS: 'true', FISHLOG_JOBS_POLL_SECONDS: '1', MALLOC_ARENA_MAX: process.env.BENCH_MALLOC_ARENA_MAX ?? '2' });
  try {
    const headers = await server.login(USERNAME);
    const base = `http://127.0.0.1:${server.servicePort}`;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const idle = await server.rssMb();
    const bareIdle = await rssMbOf(server.barePid);

    // Writing: from the request until the job has made it Ready.
    const writing = sampler(server.pid);
    const started = Date.now();
    const asked = await fetch(`${base}/api/account/export`, { method: 'POST', headers });
    if (asked.status !== 202) throw new Error(`export request answered ${asked.status}: ${await asked.text()}`);
    let status: { status: string; size: number | null } = { status: 'Pending', size: null };
    while (status.status === 'Pending') {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = (await (await fetch(`${base}/api/account/export`, { headers })).json()) as typeof status;
    }
    if (status.status !== 'Ready') throw new Error(`export ended ${status.status}`);
    const writeSeconds = (Date.now() - started) / 1000;
    const writePeak = await writing.stop();

    // Serving: the download, read to its end (hashed, never held).
    const serving = sampler(server.pid);
    const download = await fetch(`${base}/api/account/export/download`, { headers });
    const hash = createHash('sha256');
    let downloaded = 0;
    for await (const chunk of download.body as unknown as AsyncIterable<Uint8Array>) {
      downloaded += chunk.length;
      hash.update(chunk);
    }
    const servePeak = await serving.stop();
    if (downloaded !== status.size) throw new Error(`downloaded ${downloaded} bytes of ${status.size}`);

    // The bare export of the same person, in a process of its own.
    const bareOut = path.join(dataDir, 'bare-export.tar.gz');
    const child = fork(path.join(here, 'bare-export.js'), [], {
      env: { ...process.env, DATABASE_URL: url, BARE_USER_ID: userId, BARE_MEDIA_DIR: mediaDir, BARE_OUT: bareOut, MALLOC_ARENA_MAX: process.env.BENCH_MALLOC_ARENA_MAX ?? '2' },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const exited = new Promise<never>((_resolve, reject) => child.once('exit', (code) => reject(new Error(`bare-export.js exited with ${code}`))));
    const next = <T>() => Promise.race([new Promise<T>((resolve) => child.once('message', (message) => resolve(message as T))), exited]);
    await next<{ ready: true }>();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const bareExportIdle = await rssMbOf(child.pid!);
    const bareSampler = sampler(child.pid!);
    const bareStarted = Date.now();
    const answer = next<{ bytes: number; rows: number; photos: number }>();
    child.send('go');
    const bare = await answer;
    const bareSeconds = (Date.now() - bareStarted) / 1000;
    const barePeak = await bareSampler.stop();

    return {
      name: 'export',
      figures: [
        atMost(`RSS growth while writing the archive of ${ENTRIES} entries and ${photoIds.length} photos (peak − idle)`, writePeak - idle, GROWTH_GOAL_MB, 'MB'),
        atMost('… over the bare export’s growth (service ÷ bare)', (writePeak - idle) / Math.max(1, barePeak - bareExportIdle), 1.5),
        atMost('peak RSS while writing the archive', writePeak, GOAL_MB, 'MB'),
        atMost('peak RSS while serving its download', servePeak, GOAL_MB, 'MB'),
      ],
      details: {
        entries: ENTRIES,
        photos: photoIds.length,
        photoFileBytes: jpeg.length,
        archiveBytes: status.size,
        archiveSha256: hash.digest('hex'),
        mallocArenaMax: process.env.BENCH_MALLOC_ARENA_MAX ?? '2',
        service: { idleRssMb: round(idle), writePeakRssMb: round(writePeak), servePeakRssMb: round(servePeak), writeGrowthMb: round(writePeak - idle), writeSeconds: round(writeSeconds) },
        bareReference: { idleRssMb: round(bareIdle), note: 'bench/bare.js: Fastify and a pg pool, idle' },
        bareExport: { idleRssMb: round(bareExportIdle), peakRssMb: round(barePeak), growthMb: round(barePeak - bareExportIdle), seconds: round(bareSeconds), archiveBytes: bare.bytes, rows: bare.rows, photos: bare.photos, note: 'bench/bare-export.js: the same rows and files, pg + tar-stream + zlib only' },
      },
    };
  } finally {
    await server.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
