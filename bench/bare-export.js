/**
 * The bare reference of bench/export.bench.ts (a child of it, plain JavaScript under `node`): the
 * same person's archive written the plain way with the libraries the service uses and nothing
 * else in the process: their rows of every table with a column naming them (found in the
 * catalogue, as the service's registry lists them) read through a cursor into NDJSON files, then
 * tar-stream + gzip with their photos' display files streamed from disk one at a time. No app, no
 * job queue, no registry: its peak RSS is what such an export costs at the least.
 *
 * Input (environment): DATABASE_URL, BARE_USER_ID, BARE_MEDIA_DIR, BARE_OUT (the archive's path).
 * Says `{ ready }` over IPC and waits for a message (the parent samples its idle RSS), then
 * answers `{ bytes, rows, photos }` and exits.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import { once } from 'node:events';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import pg from 'pg';
import tar from 'tar-stream';

// Idle first (the parent samples the RSS of a process that has loaded its libraries), then the work.
await new Promise((resolve) => {
  process.once('message', resolve);
  process.send({ ready: true });
});

const userId = process.env.BARE_USER_ID;
const mediaDir = process.env.BARE_MEDIA_DIR;
const out = process.env.BARE_OUT;
const work = await fs.mkdtemp(`${out}.work-`);
const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
await client.connect();

const { rows: columns } = await client.query(
  `SELECT c.conrelid::regclass::text AS tbl, a.attname AS col
   FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
   WHERE c.contype = 'f' AND c.confrelid = 'users'::regclass ORDER BY 1, 2`,
);
const tables = new Map();
for (const { tbl, col } of columns) tables.set(tbl, [...(tables.get(tbl) ?? []), col]);

let rows = 0;
const files = [];
await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
for (const [table, cols] of [['users', ['id']], ...tables]) {
  const file = path.join(work, `${table.replaceAll('"', '')}.ndjson`);
  const stream = createWriteStream(file);
  await client.query(`DECLARE c NO SCROLL CURSOR FOR SELECT * FROM ${table} WHERE ${cols.map((c) => `"${c}" = $1`).join(' OR ')}`, [userId]);
  for (;;) {
    const { rows: batch } = await client.query('FETCH 500 FROM c');
    for (const row of batch) if (!stream.write(`${JSON.stringify(row)}\n`)) await once(stream, 'drain');
    rows += batch.length;
    if (batch.length < 500) break;
  }
  await client.query('CLOSE c');
  stream.end();
  await once(stream, 'close');
  files.push(file);
}
const { rows: photos } = await client.query('SELECT id FROM photos WHERE owner_id = $1 ORDER BY id', [userId]);
await client.query('COMMIT');
await client.end();

const pack = tar.pack();
const written = pipeline(pack, createGzip({ level: 6 }), createWriteStream(out));
const add = async (name, full) => {
  const { size } = await fs.stat(full);
  await pipeline(createReadStream(full), pack.entry({ name, size }));
};
for (const file of files) await add(path.basename(file), file);
for (const { id } of photos) await add(`photos/${id}.jpg`, path.join(mediaDir, 'photos', id, 'display.jpg'));
pack.finalize();
await written;
await fs.rm(work, { recursive: true, force: true });
const { size } = await fs.stat(out);
process.send({ bytes: size, rows, photos: photos.length }, () => process.exit(0));
