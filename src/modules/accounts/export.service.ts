import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import tar from 'tar-stream';
import { uuidv7 } from '../../core/db/ids.js';
import { clientOf } from '../../core/db/prepared.js';
import { transaction } from '../../core/db/pipeline.js';
import type { Jobs } from '../../core/jobs/jobs.js';
import { notify } from '../../core/notifications/outbox.js';
import { personalDataOf, type PersonalData, type PersonalFile } from '../../core/personal-data.js';
import type { ServiceDeps } from '../../core/service-deps.js';
import { AccountErrors } from './accounts.errors.js';
import { ACCOUNTS_EXPORT } from './accounts.jobs.js';
import type { AccountExportRow } from './accounts.tables.js';
import * as repo from './export.repository.js';

/**
 * A person's copy of their data, as Google Takeout, Strava and Garmin Connect make it: they ask
 * (POST /api/account/export), a job on the queue writes a tar.gz archive under
 * FISHLOG_DATA_DIR/exports, they are notified when it is ready (in the app, and by mail as their
 * notification preferences say: the mail's link is the download path, which needs their own token;
 * no signed URL that would work for whoever holds the mail) and download it for 7 days; then the
 * expiry sweep deletes it. What goes in is read from the personal-data
 * registry (core/personal-data.ts): for every registered table, every row whose registered user
 * column names the person (`<table>.ndjson`), with their account row (`users.ndjson`), the files
 * modules keep for them outside the database (`files` of a registration: their photos' display
 * sizes, `photos/<id>.jpg`) and a README listing all of it. No module writes anything for it: a
 * table registered for erasure is exported too.
 *
 * Rules: one export at a time per person (a second request while one is pending: 409
 * `accounts.export_in_progress`), at most one a day counted from the last request that did not
 * fail (429 `accounts.export_too_soon` with Retry-After). Both are checked under a per-person lock.
 */

export interface ExportDeps extends ServiceDeps {
  jobs: Jobs;
  /** FISHLOG_DATA_DIR: archives go into its `exports` folder. */
  dataDir: string;
}

const DAY_MS = 86_400_000;
export const EXPORT_KEEP_DAYS = 7;
/** A pending export older than this lost its job (its retries are long over): the sweep marks it Failed. */
const STALE_PENDING_MS = DAY_MS;
/** Rows fetched from the cursor at a time. */
const FETCH_ROWS = 500;

/** Where the person downloads their archive, with their own token: the link of the "ready" notification and its mail. */
export const DOWNLOAD_PATH = '/api/account/export/download';

export function exportsDir(dataDir: string): string {
  return path.join(dataDir, 'exports');
}

function archivePath(dataDir: string, id: string): string {
  return path.join(exportsDir(dataDir), `${id}.tar.gz`);
}

/** What the person sees of their export: `Expired` as soon as its time is up, whatever the sweep did yet. */
export function exportView(row: AccountExportRow, now: Date) {
  const expired = row.status === 'Expired' || (row.status === 'Ready' && row.expiresAt !== null && row.expiresAt <= now);
  return {
    id: row.id,
    status: expired ? ('Expired' as const) : row.status,
    createdAt: row.requestedAt.toISOString(),
    readyAt: row.readyAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    size: expired ? null : row.size,
  };
}

/**
 * Asks for an export: a Pending row and its job, in one transaction (a committed request cannot
 * lose its job). Two requests at once: the second waits for the first's lock, then sees its row.
 */
export async function requestExport(deps: ExportDeps, userId: string, now: Date) {
  const row = await transaction(deps.db, async (tx) => {
    await repo.lockUser(tx, userId);
    const latest = await repo.latestCountedOf(tx, userId);
    if (latest?.status === 'Pending') throw AccountErrors.exportInProgress();
    if (latest && now.getTime() - latest.requestedAt.getTime() < DAY_MS) {
      const retryAt = new Date(latest.requestedAt.getTime() + DAY_MS);
      throw AccountErrors.exportTooSoon(retryAt, Math.max(1, Math.ceil((retryAt.getTime() - now.getTime()) / 1000)));
    }
    const created = await repo.insertPending(tx, uuidv7(), userId, now);
    await deps.jobs.sendMany(tx, ACCOUNTS_EXPORT, [{ id: created.id, data: { exportId: created.id } }]);
    return created;
  });
  deps.jobs.wake(ACCOUNTS_EXPORT);
  return exportView(row, now);
}

/** The person's newest export (404 when they never asked). */
export async function getExport(deps: ServiceDeps, userId: string, now: Date) {
  const row = await repo.latestOf(deps.db, userId);
  if (!row) throw AccountErrors.noExport();
  return exportView(row, now);
}

/** The file of the person's ready export, to stream (404 when none is ready, or it expired). */
export async function openExport(deps: ExportDeps, userId: string, now: Date): Promise<{ stream: ReadStream; size: number; name: string }> {
  const row = await repo.latestOf(deps.db, userId);
  if (!row || exportView(row, now).status !== 'Ready') throw AccountErrors.exportNotReady();
  const file = archivePath(deps.dataDir, row.id);
  const stat = await fs.stat(file).catch(() => undefined);
  if (!stat) throw AccountErrors.exportNotReady();
  const stream = createReadStream(file);
  await once(stream, 'open');
  return { stream, size: stat.size, name: `fishlog-data-${row.readyAt!.toISOString().slice(0, 10)}.tar.gz` };
}

// The job

interface TableExport {
  table: string;
  module: string;
  columns: string[];
  reasons: string[];
}

/** The registered tables, each once (a table with two user columns: rows naming the person in either). */
function tablesOf(registrations: readonly PersonalData[]): TableExport[] {
  const tables = new Map<string, TableExport>();
  for (const registration of registrations) {
    for (const column of registration.columns) {
      const entry = tables.get(column.table) ?? { table: column.table, module: registration.module, columns: [], reasons: [] };
      entry.columns.push(column.column);
      entry.reasons.push(`\`${column.column}\`: ${column.reason}`);
      tables.set(column.table, entry);
    }
  }
  return [...tables.values()];
}

const quoteIdent = (name: string) => name.split('.').map((part) => `"${part.replaceAll('"', '""')}"`).join('.');

/** A row as JSON: bytes as base64 (dates as ISO strings, numbers beyond 2^53 as the strings PostgreSQL gave). */
function jsonLine(row: Record<string, unknown>): string {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) out[key] = Buffer.isBuffer(value) ? value.toString('base64') : value;
  return `${JSON.stringify(out)}\n`;
}

/** Streams the rows of one query through a cursor into an NDJSON file; answers the row count. */
async function writeQuery(client: ReturnType<typeof clientOf>, query: string, file: string): Promise<number> {
  const out = createWriteStream(file, { mode: 0o600 });
  let rows = 0;
  try {
    await client.query({ text: `DECLARE export_rows NO SCROLL CURSOR FOR ${query}`, values: [] });
    for (;;) {
      const { rows: batch } = await client.query({ text: `FETCH ${FETCH_ROWS} FROM export_rows`, values: [] });
      for (const row of batch as Record<string, unknown>[]) {
        if (!out.write(jsonLine(row))) await once(out, 'drain');
        rows += 1;
      }
      if (batch.length < FETCH_ROWS) break;
    }
    await client.query({ text: 'CLOSE export_rows', values: [] });
  } finally {
    out.end();
    await once(out, 'close');
  }
  return rows;
}

function readme(userId: string, createdAt: Date, files: Array<{ name: string; rows: number; about: string }>, stored: readonly PersonalFile[]): string {
  const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
  const lines = [
    '# Your fishlog data',
    '',
    `Everything fishlog keeps that names your account (${userId}), as of ${createdAt.toISOString()}.`,
    '',
    'Each `.ndjson` file is one database table: one JSON object a line, one line a row, with the table’s columns as they are stored',
    '(times in UTC, ISO 8601; ids are UUIDs; binary values in base64). A row is in a file when one of the columns named below holds',
    'your account’s id: your own records, and others’ records that name you (a friend link, a rating of your spot…).',
    '',
    '| File | Rows | What it holds |',
    '| --- | --- | --- |',
    ...files.map((file) => `| ${file.name} | ${file.rows} | ${cell(file.about)} |`),
    '',
    '## Files',
    '',
    stored.length === 0
      ? 'You had no photos when this archive was written.'
      : `Your photos, ${stored.length}, each at its display size (JPEG, as the app shows it; metadata removed when it was uploaded), named by the photo’s id (its row in photos.ndjson). A photo you deleted while this archive was written may be missing.`,
    '',
    ...(stored.length === 0 ? [] : ['| File | What it is |', '| --- | --- |', ...stored.map((file) => `| ${file.name} | ${cell(file.about)} |`), '']),
  ];
  return lines.join('\n');
}

async function addFile(pack: tar.Pack, name: string, full: string): Promise<void> {
  const { size } = await fs.stat(full);
  const entry = pack.entry({ name, size, mode: 0o600, type: 'file' });
  await pipeline(createReadStream(full), entry);
}

/** Streams a module's file (a photo on disk or S3) into the archive; a file gone since it was listed is left out. */
async function addStored(pack: tar.Pack, file: PersonalFile): Promise<void> {
  const opened = await file.open();
  if (!opened) return;
  const entry = pack.entry({ name: file.name, size: opened.size, mode: 0o600, type: 'file' });
  await pipeline(opened.body, entry);
}

/**
 * Writes the archive of a Pending export and marks it Ready (notifying its person), or does
 * nothing when it is no longer pending. The rows are read in one read-only snapshot through a
 * cursor, 500 at a time, into one NDJSON file a table, then packed and gzipped into
 * `<id>.tar.gz.part` with the modules' files streamed from their storage one at a time, renamed
 * when whole: never more than a batch of rows, or a stream's buffers of one file, in memory.
 */
export async function runExport(deps: ExportDeps, exportId: string, now: () => Date): Promise<AccountExportRow | undefined> {
  const row = await repo.find(deps.db, exportId);
  if (!row || row.status !== 'Pending') return undefined;
  const dir = exportsDir(deps.dataDir);
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const work = await fs.mkdtemp(path.join(dir, `${exportId}.work-`));
  const archive = archivePath(deps.dataDir, exportId);
  try {
    const tables = tablesOf(personalDataOf(deps));
    const files: Array<{ name: string; rows: number; about: string }> = [];
    if (!/^[0-9a-f-]{36}$/i.test(row.userId)) throw new Error(`not a user id: ${row.userId}`);
    const id = `'${row.userId}'::uuid`;
    await transaction(deps.db, async (tx) => {
      const client = clientOf(tx);
      await client.query({ text: 'SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY', values: [] });
      const rows = await writeQuery(client, `SELECT * FROM users WHERE id = ${id}`, path.join(work, 'users.ndjson'));
      files.push({ name: 'users.ndjson', rows, about: 'Your account: user name, e-mail, role, when it was made (module users).' });
      for (const table of tables) {
        const name = `${table.table}.ndjson`;
        const where = table.columns.map((column) => `${quoteIdent(column)} = ${id}`).join(' OR ');
        const count = await writeQuery(client, `SELECT * FROM ${quoteIdent(table.table)} WHERE ${where}`, path.join(work, name));
        files.push({ name, rows: count, about: `Module ${table.module}. ${table.reasons.join(' ')}` });
      }
    });
    // The modules' files (photos), listed now and streamed into the archive one at a time below.
    const stored: PersonalFile[] = [];
    for (const registration of personalDataOf(deps)) if (registration.files) for await (const file of registration.files(row.userId)) stored.push(file);
    await fs.writeFile(path.join(work, 'README.md'), readme(row.userId, row.requestedAt, files, stored), { mode: 0o600 });

    const partial = `${archive}.part`;
    const pack = tar.pack();
    const written = pipeline(pack, createGzip({ level: 6 }), createWriteStream(partial, { mode: 0o600 }));
    await addFile(pack, 'README.md', path.join(work, 'README.md'));
    for (const file of files) await addFile(pack, file.name, path.join(work, file.name));
    for (const file of stored) await addStored(pack, file);
    pack.finalize();
    await written;
    await fs.rename(partial, archive);
    const { size } = await fs.stat(archive);

    const readyAt = now();
    const expiresAt = new Date(readyAt.getTime() + EXPORT_KEEP_DAYS * DAY_MS);
    const ready = await transaction(deps.db, async (tx) => {
      const marked = await repo.markReady(tx, exportId, readyAt, expiresAt, size);
      if (!marked) return undefined;
      await notify(tx, {
        type: 'accounts.export_ready',
        // The mail's link (core/notifications: base URL + path): it needs the person's own sign-in, so a forwarded or leaked mail gives nothing.
        path: DOWNLOAD_PATH,
        payload: exportView(marked, readyAt),
        recipients: [
          {
            userId: row.userId,
            title: 'Your data is ready to download',
            body: `The copy of your data you asked for is ready. Download it before ${expiresAt.toISOString()}, when it is deleted: the link works only when you are signed in to your account.`,
          },
        ],
      });
      return marked;
    });
    // Deleted with its account meanwhile, or failed by the sweep: the file goes too.
    if (!ready) await fs.rm(archive, { force: true });
    return ready;
  } catch (error) {
    await fs.rm(`${archive}.part`, { force: true });
    throw error;
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

/** The job's handler: a run that failed its last retry marks the export Failed (it then does not count for the once-a-day rule). */
export async function exportJob(deps: ExportDeps, data: { exportId: string }, retryCount: number, now: () => Date): Promise<void> {
  try {
    await runExport(deps, data.exportId, now);
  } catch (error) {
    if (retryCount >= ACCOUNTS_EXPORT.retryLimit) await repo.markFailed(deps.db, data.exportId, now());
    throw error;
  }
}

/**
 * The expiry sweep: Ready exports past `expiresAt` become Expired; Pending ones whose job was lost
 * become Failed; then their files go (`removeDeadArchives`).
 */
export async function sweepExports(deps: ExportDeps, now: Date): Promise<{ expired: number; removedFiles: number }> {
  const expired = await repo.expireDue(deps.db, now);
  await repo.failStale(deps.db, new Date(now.getTime() - STALE_PENDING_MS), now);
  return { expired: expired.length, removedFiles: await removeDeadArchives(deps) };
}

/**
 * Deletes every file in the exports folder that belongs to no Pending or Ready export: expired,
 * failed, or its account erased (the erasure deleted the rows, then calls this at once). Answers
 * how many it deleted.
 */
export async function removeDeadArchives(deps: Pick<ExportDeps, 'db' | 'dataDir'>): Promise<number> {
  const dir = exportsDir(deps.dataDir);
  const names = await fs.readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  const idOf = (name: string) => /^([0-9a-f-]{36})\./i.exec(name)?.[1];
  const live = await repo.liveIds(deps.db, [...new Set(names.map(idOf).filter((id): id is string => id !== undefined))]);
  let removed = 0;
  for (const name of names) {
    const id = idOf(name);
    if (id && live.has(id)) continue;
    await fs.rm(path.join(dir, name), { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}
