/**
 * Photo uploads keep the server's memory flat: 8 uploads of a 10 MB JPEG at once (each to its own
 * log entry), the service's resident set size sampled every 20 ms from before the first request to
 * after the last answer. The file is streamed to a temp file, decoded two at a time by sharp
 * without its cache, one at a time, and only the re-encoded sizes are held (src/modules/photos).
 * Goal: < 300 MB. Measured on 2 cores: 246 MB peak (156 idle), 9.8 s; with glibc's default
 * malloc arenas (BENCH_MALLOC_ARENA_MAX unset in the service) 357 MB: the libvips and libuv
 * threads each grow an arena, which is why the Dockerfile sets MALLOC_ARENA_MAX=2 (and the README
 * says to set it wherever the service runs).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { atMost, benchDatabase, BenchServer, log, round, viewerCreator, type BenchResult } from './lib.js';

const UPLOADS = 8;
const TARGET_BYTES = 10 * 1024 * 1024;

/** A JPEG of random pixels just under 10 MB (noise does not compress: about 1.1 bytes a pixel at quality 92). */
async function tenMegabyteJpeg(): Promise<Buffer> {
  let side = 3000;
  for (;;) {
    const jpeg = await sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } }).jpeg({ quality: 92 }).toBuffer();
    if (jpeg.length > TARGET_BYTES) return sharp(randomBytes((side - 100) * (side - 100) * 3), { raw: { width: side - 100, height: side - 100, channels: 3 } }).jpeg({ quality: 92 }).toBuffer();
    side += 100;
  }
}

export default async function run(): Promise<BenchResult> {
  const url = await benchDatabase('photos', (pool) => viewerCreator(pool)('bench_photographer'));
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'fishlog-bench-photos-'));
  const jpeg = await tenMegabyteJpeg();
  log(`upload file: ${(jpeg.length / 1048576).toFixed(1)} MB`);
    // As the Dockerfile runs the service: MALLOC_ARENA_MAX=2 (BENCH_MALLOC_ARENA_MAX=8 shows glibc's usual arenas).
  const arenas = process.env.BENCH_MALLOC_ARENA_MAX ?? '2';
  const server = await BenchServer.start(url, { FISHLOG_DATA_DIR: dataDir, FISHLOG_PHOTO_UPLOADS_PER_MINUTE: '100000', MALLOC_ARENA_MAX: arenas });
  try {
    const headers = await server.login('bench_photographer');
    const base = `http://127.0.0.1:${server.servicePort}`;
    const entryIds: string[] = [];
    for (let i = 0; i < UPLOADS; i++) {
      const res = await fetch(`${base}/api/fishinglog/entries`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Bench ${i}`, occurredAt: '2026-06-01T05:30:00Z', timeZone: 'America/Chicago', visibility: 'Private' }),
      });
      entryIds.push(((await res.json()) as { id: string }).id);
    }
    const idle = await server.rssMb();
    let peak = idle;
    const sampler = setInterval(() => void server.rssMb().then((mb) => (peak = Math.max(peak, mb))), 20);
    const started = Date.now();
    const statuses = await Promise.all(
      entryIds.map(async (id) => {
        const form = new FormData();
        form.set('file', new Blob([jpeg], { type: 'image/jpeg' }), 'big.jpg');
        const res = await fetch(`${base}/api/fishinglog/entries/${id}/photos`, { method: 'POST', headers, body: form });
        await res.arrayBuffer();
        return res.status;
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, await server.rssMb());
    if (statuses.some((status) => status !== 201)) throw new Error(`uploads answered ${statuses.join(', ')}`);
    return {
      name: 'photos',
      figures: [atMost(`peak RSS during ${UPLOADS} parallel ${(jpeg.length / 1048576).toFixed(1)} MB uploads`, peak, 300, 'MB')],
      details: { mallocArenaMax: arenas, idleRssMb: round(idle), peakRssMb: round(peak), seconds: round(seconds), fileBytes: jpeg.length, statuses },
    };
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
