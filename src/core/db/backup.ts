import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import pg from 'pg';
import tar from 'tar-stream';
import { migrationsFolder } from '../../paths.js';
import {
  acquireEmbeddedCluster,
  connectionString,
  loadCredentials,
  readPostmaster,
  serverOsUser,
  startServer,
  stopServer,
  waitForDeadPostmaster,
  withFileLock,
  type Credentials,
  type Log,
  type OsUser,
  type WalArchiving,
} from './embedded.js';
import { downloadBackups, localFiles, s3BackupRemote, uploadBackups, type BackupBucket, type BackupRemote } from './backup-s3.js';

/**
 * Backups of the embedded PostgreSQL, with PostgreSQL's own continuous archiving and point-in-time
 * recovery: every finished WAL segment is copied (gzip) into `<backups>/wal/` by the server's
 * `archive_command`; a base backup (`pg_backup_start()`, a streamed tar.gz of the cluster's files,
 * `pg_backup_stop()`) goes into `<backups>/base/<id>/` with a manifest and its SHA-256; a restore
 * unpacks a base backup and lets PostgreSQL replay the archived WAL up to a time (or to the end),
 * then promote. Nothing here applies to a server of DATABASE_URL: its operator backs it up.
 */

export interface BackupConfig {
  dataDir: string;
  databaseUrl?: string | undefined;
  backups: { enabled: boolean; dir: string; archiveTimeoutSeconds: number; keepDaily: number; keepWeekly: number; s3?: BackupBucket | undefined };
}

/** The bucket copy of the backup folder (FISHLOG_BACKUP_TARGET=s3), or undefined. */
function remoteOf(config: BackupConfig): BackupRemote | undefined {
  return config.backups.s3 ? s3BackupRemote(config.backups.s3) : undefined;
}

/** What the last copies into the bucket did, kept in `<backups>/upload-state.json` (not itself copied). */
interface UploadState {
  /** When the last copy that succeeded began: every file older than that is in the bucket. */
  lastSuccessStartedAt: string | null;
  lastSuccessAt: string | null;
  lastFailedAt: string | null;
  lastError: string | null;
}

const uploadStateFile = (dir: string) => path.join(dir, 'upload-state.json');

async function readUploadState(dir: string): Promise<UploadState> {
  try {
    return JSON.parse(await fs.readFile(uploadStateFile(dir), 'utf8')) as UploadState;
  } catch {
    return { lastSuccessStartedAt: null, lastSuccessAt: null, lastFailedAt: null, lastError: null };
  }
}

async function writeAtomically(file: string, text: string, mode: number): Promise<void> {
  const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await fs.writeFile(partial, text, { mode });
  await fs.rename(partial, file);
}

/**
 * Copies the backup folder's new files into the bucket (FISHLOG_BACKUP_TARGET=s3; nothing without
 * one), and records how it went for `uploadHealth`; a failure is recorded, then thrown.
 */
export async function uploadToBucket(config: BackupConfig): Promise<{ uploaded: number }> {
  const remote = remoteOf(config);
  if (!remote) return { uploaded: 0 };
  const dir = config.backups.dir;
  const startedAt = new Date().toISOString();
  try {
    const result = await uploadBackups(dir, remote);
    const state = await readUploadState(dir);
    await writeAtomically(uploadStateFile(dir), JSON.stringify({ ...state, lastSuccessStartedAt: startedAt, lastSuccessAt: new Date().toISOString() }), 0o600);
    return result;
  } catch (error) {
    const state = await readUploadState(dir);
    const lastError = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    await writeAtomically(uploadStateFile(dir), JSON.stringify({ ...state, lastFailedAt: new Date().toISOString(), lastError }), 0o600).catch(() => undefined);
    throw error;
  }
}

export interface UploadHealth {
  /** `ok`: the last copy succeeded; `failing`: it failed; `waiting`: none has run yet. */
  status: 'ok' | 'failing' | 'waiting';
  lastUploadedAt: string | null;
  lastFailedAt: string | null;
  lastError: string | null;
  /** Files of the backup folder not known to be in the bucket (written since the last copy that succeeded began). */
  pendingFiles: number;
  /** When the oldest of them was written: what a lost disk would lose now is from then on. */
  oldestPendingAt: string | null;
}

/** The copy into the bucket as readiness and `/metrics` show it; null without FISHLOG_BACKUP_TARGET=s3. */
export async function uploadHealth(config: BackupConfig): Promise<UploadHealth | null> {
  if (!config.backups.s3) return null;
  const dir = config.backups.dir;
  const state = await readUploadState(dir);
  const since = state.lastSuccessStartedAt ? Date.parse(state.lastSuccessStartedAt) : -Infinity;
  let pendingFiles = 0;
  let oldest = Infinity;
  for (const key of await localFiles(dir)) {
    const stat = await fs.stat(path.join(dir, key)).catch(() => undefined);
    if (!stat || stat.mtimeMs < since) continue;
    pendingFiles += 1;
    oldest = Math.min(oldest, stat.mtimeMs);
  }
  const failing = state.lastFailedAt !== null && (state.lastSuccessAt === null || state.lastFailedAt > state.lastSuccessAt);
  return {
    status: failing ? 'failing' : state.lastSuccessAt ? 'ok' : 'waiting',
    lastUploadedAt: state.lastSuccessAt,
    lastFailedAt: state.lastFailedAt,
    lastError: failing ? state.lastError : null,
    pendingFiles,
    oldestPendingAt: Number.isFinite(oldest) ? new Date(oldest).toISOString() : null,
  };
}

export class BackupError extends Error {
  override name = 'BackupError';
}

const ARCHIVE_SCRIPT = `#!/bin/sh
# Written by fishlog (src/core/db/backup.ts): PostgreSQL's archive_command, run as
#   sh archive-wal.sh <path of the WAL file> <its name>
# Copies one WAL file into wal/ gzip-compressed, written under a temporary name, flushed, then renamed.
# A file archived already succeeds again when its content is the same, and fails when it differs:
# an archived file is never overwritten.
set -eu
src="$1"
dir="$(dirname "$0")/wal"
dest="$dir/$2.gz"
if [ -f "$dest" ]; then
  gzip -dc "$dest" | cmp -s - "$src"
  exit $?
fi
tmp="$dir/.$2.$$.tmp"
trap 'rm -f "$tmp"' EXIT
gzip -1 -c "$src" > "$tmp"
sync "$tmp"
mv "$tmp" "$dest"
trap - EXIT
sync "$dir"
`;

const RESTORE_SCRIPT = `#!/bin/sh
# Written by fishlog (src/core/db/backup.ts): PostgreSQL's restore_command during a restore, run as
#   sh restore-wal.sh <name of the WAL file> <where to put it>
# Fails (as PostgreSQL expects) when the archive does not hold the file.
set -eu
src="$(dirname "$0")/wal/$1.gz"
[ -f "$src" ] || exit 1
gzip -dc "$src" > "$2"
`;

/** The folder layout of a backup folder. */
function layout(dir: string) {
  return { wal: path.join(dir, 'wal'), base: path.join(dir, 'base'), archiveScript: path.join(dir, 'archive-wal.sh'), restoreScript: path.join(dir, 'restore-wal.sh') };
}

async function writeScripts(dir: string, user: OsUser | undefined): Promise<void> {
  const paths = layout(dir);
  await fs.mkdir(paths.wal, { recursive: true, mode: 0o700 });
  await fs.mkdir(paths.base, { recursive: true, mode: 0o700 });
  // A running server may be reading the script this moment: it is replaced (a new file renamed
  // over it), never rewritten in place, and only when it differs.
  for (const [file, text] of [
    [paths.archiveScript, ARCHIVE_SCRIPT],
    [paths.restoreScript, RESTORE_SCRIPT],
  ] as const) {
    if ((await fs.readFile(file, 'utf8').catch(() => undefined)) !== text) await writeAtomically(file, text, 0o755);
  }
  // PostgreSQL (another OS user when we are root) writes the archive and reads the scripts.
  if (user) {
    const stat = await fs.stat(dir);
    if ((stat.mode & 0o001) === 0) await fs.chmod(dir, (stat.mode & 0o777) | 0o001);
    await fs.chown(paths.wal, user.uid, user.gid);
  }
}

/**
 * The archiving settings for the embedded server (`acquireEmbeddedCluster({ archiving })`): writes
 * the archive script into the backup folder and returns the command that runs it. Undefined with
 * DATABASE_URL or `FISHLOG_BACKUPS=false`.
 */
export async function walArchiving(config: BackupConfig): Promise<WalArchiving | undefined> {
  if (config.databaseUrl || !config.backups.enabled) return undefined;
  await writeScripts(config.backups.dir, serverOsUser());
  return { command: `/bin/sh '${layout(config.backups.dir).archiveScript}' %p %f`, timeoutSeconds: config.backups.archiveTimeoutSeconds };
}

function embeddedOnly(config: BackupConfig): void {
  if (config.databaseUrl) {
    throw new BackupError(
      'DATABASE_URL is set: the database is a server of its own, and its backups belong to its operator ' +
        '(a managed service\'s snapshots and point-in-time restore, or pgBackRest/WAL-G on that server); nothing was done',
    );
  }
  if (!config.backups.enabled) throw new BackupError('backups are off (FISHLOG_BACKUPS=false); turn them on and restart the server first');
}

export interface BaseBackupManifest {
  id: string;
  startedAt: string;
  finishedAt: string;
  startLsn: string;
  stopLsn: string;
  /** The first WAL segment a restore of this backup needs; older segments are only for older backups. */
  startWalFile: string;
  timeline: number;
  postgresVersion: string;
  files: number;
  bytes: number;
  archive: { file: 'data.tar.gz'; bytes: number; sha256: string };
}

/** Files of the cluster a base backup leaves out (PostgreSQL's list for backups: runtime state, rebuilt at start). */
const SKIPPED_FILES = new Set(['postmaster.pid', 'postmaster.opts', 'server.log', 'current_logfiles', 'backup_label', 'backup_label.old', 'tablespace_map', 'recovery.signal', 'standby.signal']);
/** Folders whose contents are left out (the folders themselves are kept, empty). */
const EMPTIED_FOLDERS = new Set(['pg_wal', 'pg_replslot', 'pg_dynshmem', 'pg_notify', 'pg_serial', 'pg_snapshots', 'pg_stat_tmp', 'pg_subtrans', 'log']);

/** Every file and folder of the cluster a base backup holds, in a stable order. */
async function* clusterEntries(root: string, relative = ''): AsyncGenerator<{ name: string; full: string; directory: boolean }> {
  const entries = await fs.readdir(path.join(root, relative), { withFileTypes: true });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    const name = relative ? `${relative}/${entry.name}` : entry.name;
    const full = path.join(root, name);
    if (entry.isDirectory()) {
      yield { name, full, directory: true };
      if (EMPTIED_FOLDERS.has(name) || entry.name.startsWith('pgsql_tmp')) {
        if (name === 'pg_wal') yield { name: 'pg_wal/archive_status', full: path.join(full, 'archive_status'), directory: true };
        continue;
      }
      yield* clusterEntries(root, name);
    } else if (entry.isFile() && !SKIPPED_FILES.has(name) && !entry.name.startsWith('pgsql_tmp')) {
      yield { name, full, directory: false };
    }
  }
}

/**
 * Streams one file into the tar entry, exactly `size` bytes (its size when the entry began): a
 * file PostgreSQL truncates or extends while the backup runs is padded with zeros or cut, as a file
 * copy of a running cluster may be; replaying the WAL from the backup's start makes it whole.
 */
async function copyFile(pack: tar.Pack, name: string, full: string, size: number, mode: number): Promise<void> {
  const entry = pack.entry({ name, size, mode: mode & 0o777, type: 'file' });
  let written = 0;
  if (size > 0) {
    const handle = await fs.open(full, 'r').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined; // dropped meanwhile (a table dropped): zeros, as above
      throw error;
    });
    try {
      const buffer = Buffer.alloc(Math.min(size, 1 << 20));
      while (handle && written < size) {
        const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, size - written), written);
        if (bytesRead === 0) break;
        written += bytesRead;
        if (!entry.write(Buffer.from(buffer.subarray(0, bytesRead)))) await new Promise<void>((resolve) => entry.once('drain', () => resolve()));
      }
    } finally {
      await handle?.close();
    }
    while (written < size) {
      const zeros = Buffer.alloc(Math.min(size - written, 1 << 20));
      written += zeros.length;
      if (!entry.write(zeros)) await new Promise<void>((resolve) => entry.once('drain', () => resolve()));
    }
  }
  await new Promise<void>((resolve, reject) => entry.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

/** A pass-through stream that hashes and counts what goes through it. */
function digest(): Transform & { sha256: () => string; bytes: () => number } {
  const hash = createHash('sha256');
  let bytes = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      bytes += chunk.length;
      callback(null, chunk);
    },
  });
  let hex: string | undefined;
  return Object.assign(stream, { sha256: () => (hex ??= hash.digest('hex')), bytes: () => bytes });
}

function backupId(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}

async function superuserClient(cluster: { url(database?: string): string }): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: cluster.url('postgres'), application_name: 'fishlog-backup' });
  await client.connect();
  return client;
}

/**
 * Takes a base backup of the embedded cluster (started for the time of the backup when no server
 * runs), then applies the retention. Requests go on meanwhile: PostgreSQL's non-exclusive backup
 * blocks nothing, and the file copy is read at the pace the gzip stream takes it.
 */
export async function takeBaseBackup(config: BackupConfig, log: Log = () => undefined, now: () => Date = () => new Date()): Promise<BaseBackupManifest> {
  embeddedOnly(config);
  const archiving = await walArchiving(config);
  const cluster = await acquireEmbeddedCluster({ dataDir: config.dataDir, log, processName: 'fishlog-backup', archiving });
  try {
    const client = await superuserClient(cluster);
    try {
      const { rows: mode } = await client.query<{ archive_mode: string }>('SHOW archive_mode');
      if (mode[0]?.archive_mode !== 'on') {
        throw new BackupError('the running embedded PostgreSQL does not archive its WAL (it was started with FISHLOG_BACKUPS=false): restart the server with backups on, then take the backup');
      }
      const started = now();
      const id = backupId(started);
      const paths = layout(config.backups.dir);
      const target = path.join(paths.base, id);
      const partial = path.join(paths.base, `.${id}.${randomBytes(4).toString('hex')}.partial`);
      await fs.mkdir(partial, { recursive: true, mode: 0o700 });
      try {
        const { rows: start } = await client.query<{ lsn: string; file: string; timeline: string; version: string }>(
          `SELECT lsn::text, pg_walfile_name(lsn) AS file, (SELECT timeline_id FROM pg_control_checkpoint())::text AS timeline, current_setting('server_version') AS version
             FROM pg_backup_start($1, true) AS lsn`,
          [`fishlog ${id}`],
        );
        log(`base backup ${id}: started at WAL ${start[0]!.lsn}`);
        const pgDir = path.join(config.dataDir, 'postgres');
        const pack = tar.pack();
        const hashed = digest();
        const written = pipeline(pack, createGzip({ level: 3 }), hashed, createWriteStream(path.join(partial, 'data.tar.gz'), { mode: 0o600 }));
        let files = 0;
        let bytes = 0;
        for await (const entry of clusterEntries(pgDir)) {
          if (entry.directory) {
            pack.entry({ name: entry.name, type: 'directory', mode: 0o700 });
            continue;
          }
          const stat = await fs.stat(entry.full).catch(() => undefined);
          if (!stat) continue; // removed meanwhile
          await copyFile(pack, entry.name, entry.full, stat.size, stat.mode);
          files += 1;
          bytes += stat.size;
        }
        pack.finalize();
        await written;
        // Waits until the WAL segment holding the backup's end is archived: the backup is then restorable.
        const { rows: stop } = await client.query<{ lsn: string; labelfile: string }>('SELECT lsn::text, labelfile FROM pg_backup_stop(true)');
        await fs.writeFile(path.join(partial, 'backup_label'), stop[0]!.labelfile, { mode: 0o600 });
        // The cluster's credentials (mode 0600, as in the data folder): a restore onto a new disk needs them.
        await fs.copyFile(path.join(config.dataDir, 'postgres.json'), path.join(partial, 'postgres.json'));
        const manifest: BaseBackupManifest = {
          id,
          startedAt: started.toISOString(),
          finishedAt: now().toISOString(),
          startLsn: start[0]!.lsn,
          stopLsn: stop[0]!.lsn,
          startWalFile: start[0]!.file,
          timeline: Number(start[0]!.timeline),
          postgresVersion: start[0]!.version,
          files,
          bytes,
          archive: { file: 'data.tar.gz', bytes: hashed.bytes(), sha256: hashed.sha256() },
        };
        await fs.writeFile(path.join(partial, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
        await fs.rename(partial, target);
        log(`base backup ${id}: ${files} files, ${(manifest.archive.bytes / 1_048_576).toFixed(1)} MiB compressed, in ${target}`);
        await applyRetention(config, log);
        if (remoteOf(config)) log(`backups copied to the bucket: ${(await uploadToBucket(config)).uploaded} file(s)`);
        return manifest;
      } catch (error) {
        await client.query('SELECT pg_backup_stop(false)').catch(() => undefined);
        await fs.rm(partial, { recursive: true, force: true });
        throw error;
      }
    } finally {
      await client.end().catch(() => undefined);
    }
  } finally {
    await cluster.release();
  }
}

/** The base backups of the folder, oldest first (unreadable or unfinished ones are left out). */
export async function listBaseBackups(dir: string): Promise<BaseBackupManifest[]> {
  const base = layout(dir).base;
  const names = await fs.readdir(base).catch(() => [] as string[]);
  const manifests: BaseBackupManifest[] = [];
  for (const name of names.filter((n) => !n.startsWith('.'))) {
    try {
      manifests.push(JSON.parse(await fs.readFile(path.join(base, name, 'manifest.json'), 'utf8')) as BaseBackupManifest);
    } catch {
      // not a finished backup
    }
  }
  return manifests.sort((a, b) => a.finishedAt.localeCompare(b.finishedAt));
}

/** A WAL segment's position without its timeline (`000000010000000000000003` → `0000000000000003`). */
const segmentPosition = (name: string) => name.slice(8, 24);
const SEGMENT = /^[0-9A-F]{24}(\.partial)?\.gz$/;

export interface BackupStatus {
  baseBackups: BaseBackupManifest[];
  wal: { segments: number; first?: string; last?: string; lastArchivedAt?: string };
  /** The earliest time a restore can reach (the oldest base backup's end), and the latest (the newest archived WAL). */
  restorable?: { earliest: string; latest: string };
}

/** What the backup folder holds: base backups, the archived WAL, and the range of times a restore can reach. */
export async function backupStatus(dir: string): Promise<BackupStatus> {
  const baseBackups = await listBaseBackups(dir);
  const walDir = layout(dir).wal;
  const names = (await fs.readdir(walDir).catch(() => [] as string[])).filter((n) => SEGMENT.test(n)).sort();
  const wal: BackupStatus['wal'] = { segments: names.length };
  if (names.length > 0) {
    wal.first = names[0]!.replace(/\.gz$/, '');
    wal.last = names.at(-1)!.replace(/\.gz$/, '');
    let newest = 0;
    for (const name of names) newest = Math.max(newest, (await fs.stat(path.join(walDir, name))).mtimeMs);
    wal.lastArchivedAt = new Date(newest).toISOString();
  }
  const status: BackupStatus = { baseBackups, wal };
  if (baseBackups.length > 0) {
    const earliest = baseBackups[0]!.finishedAt;
    const latest = wal.lastArchivedAt && wal.lastArchivedAt > baseBackups.at(-1)!.finishedAt ? wal.lastArchivedAt : baseBackups.at(-1)!.finishedAt;
    status.restorable = { earliest, latest };
  }
  return status;
}

/**
 * Keeps the newest base backup of each of the last `keepDaily` days that have one, and the newest
 * of each of the last `keepWeekly` ISO weeks before those; deletes the other base backups and the
 * WAL segments older than the oldest backup kept (timeline history files are always kept). With
 * the bucket (FISHLOG_BACKUP_TARGET=s3) the rule is applied to the backups of both places together,
 * and applied in both: the bucket keeps what the folder keeps, also after the folder was lost. When
 * the bucket cannot be reached the folder's retention is applied still, then the error thrown.
 */
export async function applyRetention(config: BackupConfig, log: Log = () => undefined): Promise<{ deletedBackups: string[]; deletedWalFiles: number; deletedKeys: number }> {
  const local = await listBaseBackups(config.backups.dir);
  const remote = remoteOf(config);
  let bucket: { keys: Set<string>; backups: BaseBackupManifest[] } | undefined;
  let bucketError: unknown;
  if (remote) {
    try {
      const keys = await remote.list();
      const known = new Set(local.map((b) => b.id));
      const backups: BaseBackupManifest[] = [];
      for (const key of keys) {
        const id = /^base\/([^/.][^/]*)\/manifest\.json$/.exec(key)?.[1];
        if (id) backups.push(known.has(id) ? local.find((b) => b.id === id)! : (JSON.parse((await remote.read(key)).toString('utf8')) as BaseBackupManifest));
      }
      bucket = { keys, backups };
    } catch (error) {
      bucketError = error;
    }
  }
  const all = new Map([...local, ...(bucket?.backups ?? [])].map((b) => [b.id, b]));
  const backups = [...all.values()].sort((a, b) => b.finishedAt.localeCompare(a.finishedAt)); // newest first
  const keep = retained(backups, config.backups.keepDaily, config.backups.keepWeekly);
  const deletedBackups = backups.filter((b) => !keep.has(b.id)).map((b) => b.id);
  for (const backup of local) {
    if (!keep.has(backup.id)) await fs.rm(path.join(layout(config.backups.dir).base, backup.id), { recursive: true, force: true });
  }
  const oldest = backups.filter((b) => keep.has(b.id)).at(-1);
  // Segments (and backup history files) wholly before the oldest kept backup's start.
  const floor = oldest ? segmentPosition(oldest.startWalFile) : undefined;
  const beforeFloor = (name: string) => floor !== undefined && !name.includes('.history') && /^[0-9A-F]{24}/.test(name) && segmentPosition(name) < floor;
  let deletedWalFiles = 0;
  const walDir = layout(config.backups.dir).wal;
  for (const name of await fs.readdir(walDir).catch(() => [] as string[])) {
    if (beforeFloor(name)) {
      await fs.rm(path.join(walDir, name), { force: true });
      deletedWalFiles += 1;
    }
  }
  let deletedKeys = 0;
  if (remote && bucket) {
    const gone = [...bucket.keys].filter((key) => {
      const [kind, name] = key.split('/');
      // A base backup the bucket holds without its manifest is one being copied: left alone.
      if (kind === 'base') return !!name && all.has(name) && !keep.has(name);
      return kind === 'wal' && !!name && beforeFloor(name);
    });
    await remote.delete(gone);
    deletedKeys = gone.length;
  }
  if (deletedBackups.length > 0 || deletedWalFiles > 0 || deletedKeys > 0) {
    log(`backup retention: deleted ${deletedBackups.length} base backup(s) and ${deletedWalFiles} WAL file(s)${remote ? `, ${deletedKeys} file(s) in the bucket` : ''}`);
  }
  if (bucketError) throw bucketError;
  return { deletedBackups, deletedWalFiles, deletedKeys };
}

/** The ids the retention keeps, of backups given newest first. */
function retained(backups: BaseBackupManifest[], keepDaily: number, keepWeekly: number): Set<string> {
  const keep = new Set<string>();
  const days = new Set<string>();
  const weeks = new Set<string>();
  for (const backup of backups) {
    const day = backup.finishedAt.slice(0, 10);
    if (days.size < keepDaily || days.has(day)) {
      if (!days.has(day)) {
        days.add(day);
        keep.add(backup.id);
      }
      continue;
    }
    const week = isoWeek(new Date(backup.finishedAt));
    if (!weeks.has(week) && weeks.size < keepWeekly) {
      weeks.add(week);
      keep.add(backup.id);
    }
  }
  return keep;
}

function isoWeek(date: Date): string {
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const weekday = day.getUTCDay() || 7;
  day.setUTCDate(day.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(day.getUTCFullYear(), 0, 1);
  return `${day.getUTCFullYear()}-W${Math.ceil(((day.getTime() - yearStart) / 86_400_000 + 1) / 7)}`;
}

/** Reads the backup's archive and checks its SHA-256 against the manifest; throws when they differ. */
export async function checkBackupFile(dir: string, backup: BaseBackupManifest): Promise<void> {
  const file = path.join(layout(dir).base, backup.id, backup.archive.file);
  const hashed = digest();
  await pipeline(createReadStream(file), hashed, new Writable({ write: (_chunk, _encoding, callback) => callback() }));
  if (hashed.sha256() !== backup.archive.sha256 || hashed.bytes() !== backup.archive.bytes) {
    throw new BackupError(`base backup ${backup.id} is damaged: ${backup.archive.file} has SHA-256 ${hashed.sha256()} (${hashed.bytes()} bytes), its manifest says ${backup.archive.sha256} (${backup.archive.bytes} bytes)`);
  }
}

/** Unpacks a base backup into `pgDir` (which must not exist), checking its SHA-256 on the way. */
async function unpack(dir: string, backup: BaseBackupManifest, pgDir: string): Promise<void> {
  await fs.mkdir(pgDir, { recursive: true, mode: 0o700 });
  const extract = tar.extract();
  const hashed = digest();
  const done = (async () => {
    for await (const entry of extract) {
      const target = path.join(pgDir, entry.header.name);
      if (!target.startsWith(pgDir + path.sep)) throw new BackupError(`base backup ${backup.id} holds a path outside the cluster: ${entry.header.name}`);
      if (entry.header.type === 'directory') {
        await fs.mkdir(target, { recursive: true, mode: 0o700 });
        entry.resume();
      } else {
        await fs.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
        await pipeline(entry as unknown as AsyncIterable<Buffer>, createWriteStream(target, { mode: 0o600 }));
      }
    }
  })();
  await Promise.all([pipeline(createReadStream(path.join(layout(dir).base, backup.id, backup.archive.file)), hashed, createGunzip(), extract), done]);
  if (hashed.sha256() !== backup.archive.sha256) throw new BackupError(`base backup ${backup.id} is damaged: its SHA-256 differs from its manifest's`);
  await fs.copyFile(path.join(layout(dir).base, backup.id, 'backup_label'), path.join(pgDir, 'backup_label'));
  await fs.chmod(path.join(pgDir, 'backup_label'), 0o600);
}

async function chownTree(root: string, user: OsUser): Promise<void> {
  await fs.chown(root, user.uid, user.gid);
  for (const entry of await fs.readdir(root, { withFileTypes: true, recursive: true })) {
    await fs.chown(path.join(entry.parentPath, entry.name), user.uid, user.gid);
  }
}

export interface RestoreOptions {
  /** Replay the WAL up to this time (inclusive); without it, to the end of the archive (`--latest`). */
  to?: Date | undefined;
  /** The base backup to start from (its id); by default the newest that ended before the target. */
  from?: string | undefined;
  /** Replace a cluster that is there (moved aside to `postgres.replaced-<time>`, not deleted). */
  force?: boolean;
  log?: Log;
  /** Restore into this data folder instead of the configured one (`backup verify`). */
  dataDir?: string;
}

export interface RestoreResult {
  backup: string;
  /** The time the database reached: the target, or the last transaction replayed (`--latest`). */
  reachedAt: string | null;
  replacedFolder?: string;
}

/** Chooses the base backup a restore starts from. */
function chooseBackup(backups: BaseBackupManifest[], options: RestoreOptions): BaseBackupManifest {
  if (backups.length === 0) throw new BackupError('the backup folder holds no base backup: take one with `fishlog backup` (a server takes one daily)');
  if (options.from) {
    const chosen = backups.find((b) => b.id === options.from);
    if (!chosen) throw new BackupError(`no base backup ${options.from}; \`fishlog backup list\` shows them: ${backups.map((b) => b.id).join(', ')}`);
    if (options.to && new Date(chosen.finishedAt) > options.to) throw new BackupError(`base backup ${chosen.id} ended at ${chosen.finishedAt}, after the target ${options.to.toISOString()}: choose an older one`);
    return chosen;
  }
  const candidates = options.to ? backups.filter((b) => new Date(b.finishedAt) <= options.to!) : backups;
  const chosen = candidates.at(-1);
  if (!chosen) throw new BackupError(`the target ${options.to!.toISOString()} is before the oldest base backup's end (${backups[0]!.finishedAt}): the earliest time a restore can reach`);
  return chosen;
}

/**
 * Rebuilds the embedded cluster from a base backup and the archived WAL, to a time or to the end
 * of the archive: PostgreSQL replays the WAL (`restore_command`, `recovery_target_time`), then
 * promotes; the cluster is stopped again when it is done, ready for `npm start`.
 */
export async function restoreBackup(config: BackupConfig, options: RestoreOptions = {}): Promise<RestoreResult> {
  embeddedOnly(config);
  const log = options.log ?? (() => undefined);
  const dataDir = path.resolve(options.dataDir ?? config.dataDir);
  const pgDir = path.join(dataDir, 'postgres');
  const remote = remoteOf(config);
  if (remote) {
    // After a lost disk the folder is empty: what the bucket holds comes back first.
    await fs.mkdir(config.backups.dir, { recursive: true, mode: 0o700 });
    const { downloaded } = await downloadBackups(config.backups.dir, remote);
    if (downloaded > 0) log(`${downloaded} backup file(s) brought back from the bucket`);
    await walToServer(config.backups.dir);
  }
  const backup = chooseBackup(await listBaseBackups(config.backups.dir), options);
  await fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
  const user = serverOsUser();
  await writeScripts(config.backups.dir, user);
  return withFileLock(path.join(dataDir, 'postgres.lock'), log, async () => {
    const running = await readPostmaster(pgDir);
    if (running) throw new BackupError(`the embedded PostgreSQL is running (pid ${running.pid}, port ${running.port}): stop every fishlog process using ${dataDir} first`);
    const present = await fs.access(path.join(pgDir, 'PG_VERSION')).then(
      () => true,
      () => false,
    );
    let replacedFolder: string | undefined;
    if (present && !options.force) throw new BackupError(`${pgDir} holds a database: add --force to replace it (it is moved aside, not deleted)`);
    const staging = path.join(dataDir, `postgres.restoring-${randomBytes(4).toString('hex')}`);
    try {
      log(`restoring base backup ${backup.id} (ended ${backup.finishedAt})`);
      await unpack(config.backups.dir, backup, staging);
      await fs.writeFile(path.join(staging, 'recovery.signal'), '', { mode: 0o600 });
      if (user) {
        const stat = await fs.stat(dataDir);
        if ((stat.mode & 0o001) === 0) await fs.chmod(dataDir, (stat.mode & 0o777) | 0o001);
        await chownTree(staging, user);
      }
      await waitForDeadPostmaster(pgDir, log);
      if (present) {
        replacedFolder = path.join(dataDir, `postgres.replaced-${backupId(new Date())}`);
        await fs.rename(pgDir, replacedFolder);
        log(`the cluster that was there is now ${replacedFolder}`);
      } else {
        await fs.rm(pgDir, { recursive: true, force: true });
      }
      await fs.rename(staging, pgDir);
    } catch (error) {
      await fs.rm(staging, { recursive: true, force: true });
      throw error;
    }
    const credentials = (await loadCredentials(path.join(dataDir, 'postgres.json'))) ?? (await restoreCredentials(config.backups.dir, backup, dataDir));
    // The restored database archives its new timeline; a trial restore elsewhere (`verify`) must not:
    // its timeline would be one a later restore of the real database could follow.
    const archiving = options.dataDir ? undefined : await walArchiving(config);
    const extra: Record<string, string> = { restore_command: `/bin/sh '${layout(config.backups.dir).restoreScript}' %f %p`, recovery_target_action: 'promote' };
    // PostgreSQL's timestamp syntax (it refuses the ISO 8601 'T' and 'Z').
    if (options.to) extra.recovery_target_time = options.to.toISOString().replace('T', ' ').replace('Z', '+00');
    const port = await startServer(pgDir, user, log, { durability: 'durable', archiving, extra });
    try {
      const reachedAt = await waitForPromotion(connectionString(credentials, port, 'postgres'), pgDir);
      log(`restored: the database is as it was at ${reachedAt ?? 'the end of the archive'}`);
      return { backup: backup.id, reachedAt, ...(replacedFolder ? { replacedFolder } : {}) };
    } finally {
      await stopServer(pgDir, user);
    }
  });
}

/** PostgreSQL (another OS user when we are root) reads the WAL brought from the bucket during the replay. */
async function walToServer(dir: string): Promise<void> {
  const user = serverOsUser();
  const wal = layout(dir).wal;
  if (user) for (const name of await fs.readdir(wal).catch(() => [] as string[])) await fs.chown(path.join(wal, name), user.uid, user.gid);
}

async function restoreCredentials(dir: string, backup: BaseBackupManifest, dataDir: string): Promise<Credentials> {
  const file = path.join(dataDir, 'postgres.json');
  await fs.copyFile(path.join(layout(dir).base, backup.id, 'postgres.json'), file);
  await fs.chmod(file, 0o600);
  return (await loadCredentials(file))!;
}

/** Waits until the restored server has replayed what it will and promoted; returns the time it reached. */
async function waitForPromotion(url: string, pgDir: string): Promise<string | null> {
  const deadline = Date.now() + 30 * 60_000;
  let reached: string | null = null;
  while (Date.now() < deadline) {
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => undefined);
    try {
      await client.connect();
      const { rows } = await client.query<{ recovering: boolean; replayed: Date | null }>('SELECT pg_is_in_recovery() AS recovering, pg_last_xact_replay_timestamp() AS replayed');
      if (rows[0]?.replayed) reached = rows[0].replayed.toISOString();
      if (rows[0] && !rows[0].recovering) return reached ?? recoveryStopTime(pgDir);
    } catch {
      // not accepting connections yet
    } finally {
      await client.end().catch(() => undefined);
    }
    if (!(await readPostmaster(pgDir))) {
      const serverLog = await fs.readFile(path.join(pgDir, 'server.log'), 'utf8').catch(() => '');
      throw new BackupError(`PostgreSQL stopped during the restore: ${serverLog.trim().split('\n').slice(-4).join(' | ')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new BackupError('the restore did not finish within 30 minutes; see server.log in the data folder');
}

/** The time of the last transaction the recovery applied, from the server's log line. */
function recoveryStopTime(pgDir: string): string | null {
  const text = (() => {
    try {
      return readFileSync(path.join(pgDir, 'server.log'), 'utf8');
    } catch {
      return '';
    }
  })();
  const match = [...text.matchAll(/last completed transaction was at log time ([0-9-]+ [0-9:.]+[+-]\d+)/g)].at(-1);
  return match ? new Date(match[1]!.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')).toISOString() : null;
}

export interface VerifyResult {
  backup: string;
  reachedAt: string | null;
  migrations: { applied: number; expected: number };
  rows: Record<string, number>;
}

/**
 * Restores the newest base backup (or `from`) with all archived WAL into a temporary folder, starts
 * it on its own port, and checks it: the archive's checksum, that the server starts and promotes,
 * that every migration of this version is applied, and the row counts of a few tables. With the
 * bucket (FISHLOG_BACKUP_TARGET=s3) it checks the bucket's copy: the backup and the WAL it needs are
 * downloaded into the temporary folder, and the folder's own copy is not used.
 */
export async function verifyBackup(config: BackupConfig, options: { from?: string; log?: Log } = {}): Promise<VerifyResult> {
  embeddedOnly(config);
  const log = options.log ?? (() => undefined);
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'fishlog-verify-'));
  try {
    const user = serverOsUser();
    if (user) await fs.chmod(scratch, 0o711);
    const remote = remoteOf(config);
    let dir = config.backups.dir;
    if (remote) {
      dir = path.join(scratch, 'backups');
      await downloadBackups(dir, remote, (key) => key.endsWith('/manifest.json'));
    }
    const backup = chooseBackup(await listBaseBackups(dir), { from: options.from });
    if (remote) {
      const floor = segmentPosition(backup.startWalFile);
      const { downloaded } = await downloadBackups(dir, remote, (key) => key.startsWith(`base/${backup.id}/`) || (key.startsWith('wal/') && (key.includes('.history') || segmentPosition(key.slice(4)) >= floor)));
      log(`checking the bucket's copy: ${downloaded} file(s) downloaded`);
      await fs.mkdir(layout(dir).wal, { recursive: true, mode: 0o700 });
      await walToServer(dir);
    }
    await checkBackupFile(dir, backup);
    const restored = await restoreBackup({ ...config, backups: { ...config.backups, dir, enabled: true, s3: undefined } }, { from: backup.id, log, dataDir: scratch });
    const cluster = await acquireEmbeddedCluster({ dataDir: scratch, processName: 'fishlog-verify' });
    try {
      const client = new pg.Client({ connectionString: cluster.url() });
      await client.connect();
      try {
        const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
        const { rows: applied } = await client.query<{ count: string }>('SELECT count(*)::text AS count FROM drizzle.__drizzle_migrations');
        const rows: Record<string, number> = {};
        for (const table of ['users', 'fishing_sessions', 'fishing_log_entries', 'catches', 'audit_log']) {
          const { rows: found } = await client.query<{ count: string }>(`SELECT count(*)::text AS count FROM ${pg.escapeIdentifier(table)}`).catch(() => ({ rows: [{ count: '-1' }] }));
          rows[table] = Number(found[0]!.count);
        }
        const result = { backup: backup.id, reachedAt: restored.reachedAt, migrations: { applied: Number(applied[0]!.count), expected: journal.entries.length }, rows };
        if (result.migrations.applied > result.migrations.expected) {
          throw new BackupError(`the restored database has ${result.migrations.applied} migrations, more than this version knows (${result.migrations.expected}): restore with the version that wrote it`);
        }
        const missing = Object.entries(rows).filter(([, count]) => count < 0);
        if (missing.length > 0) throw new BackupError(`the restored database lacks the tables ${missing.map(([name]) => name).join(', ')}`);
        return result;
      } finally {
        await client.end();
      }
    } finally {
      await cluster.release();
    }
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}


export interface ArchiveHealth {
  /** `ok`; `failing` when the last attempt to archive a segment failed; `off` when the server does not archive. */
  status: 'ok' | 'failing' | 'off';
  archivedCount: number;
  lastArchivedAt: string | null;
  failedCount: number;
  lastFailedAt: string | null;
  failedWal: string | null;
  /**
   * Finished WAL segments not archived yet: those between the last archived one and the one the
   * server writes now (null when it cannot be told: nothing archived yet, a timeline's history file
   * archived last, or a server in recovery). Above 0 for long, the archive lags behind the writes.
   */
  pendingSegments: number | null;
  /** Seconds since the last segment was archived, by the server's clock (null: never). */
  lastArchivedAgeSeconds: number | null;
}

/** A WAL file name's segment number (`00000001` `0000000A` `0000001F` → 10 × 2^32 / segment size + 31). */
function segmentNumber(name: string, segmentSize: number): number | null {
  const match = /^[0-9A-F]{8}([0-9A-F]{8})([0-9A-F]{8})/.exec(name);
  return match ? parseInt(match[1]!, 16) * (0x1_0000_0000 / segmentSize) + parseInt(match[2]!, 16) : null;
}

/** The server's WAL archiving, from `pg_stat_archiver` (readable by every role). */
export async function archiveHealth(client: Pick<pg.ClientBase, 'query'>): Promise<ArchiveHealth> {
  const { rows } = await client.query<{
    mode: string;
    archived_count: string;
    last_archived_wal: string | null;
    last_archived_time: Date | null;
    archived_age: number | null;
    failed_count: string;
    last_failed_wal: string | null;
    last_failed_time: Date | null;
    current_wal: string | null;
    segment_size: string;
  }>(
    `SELECT current_setting('archive_mode') AS mode, archived_count::text, last_archived_wal, last_archived_time,
            extract(epoch FROM now() - last_archived_time)::float8 AS archived_age,
            failed_count::text, last_failed_wal, last_failed_time,
            -- The segment written now (+ 1: a position at a segment's very start belongs to that segment).
            CASE WHEN pg_is_in_recovery() THEN NULL ELSE pg_walfile_name(pg_current_wal_lsn() + 1) END AS current_wal,
            (SELECT setting FROM pg_settings WHERE name = 'wal_segment_size') AS segment_size
       FROM pg_stat_archiver`,
  );
  const row = rows[0]!;
  const failing = row.last_failed_time !== null && (row.last_archived_time === null || row.last_failed_time > row.last_archived_time);
  const segmentSize = Number(row.segment_size);
  const current = row.current_wal ? segmentNumber(row.current_wal, segmentSize) : null;
  const last = row.last_archived_wal && !row.last_archived_wal.includes('.history') ? segmentNumber(row.last_archived_wal, segmentSize) : null;
  return {
    status: row.mode === 'off' ? 'off' : failing ? 'failing' : 'ok',
    archivedCount: Number(row.archived_count),
    lastArchivedAt: row.last_archived_time?.toISOString() ?? null,
    failedCount: Number(row.failed_count),
    lastFailedAt: row.last_failed_time?.toISOString() ?? null,
    failedWal: failing ? row.last_failed_wal : null,
    pendingSegments: current !== null && last !== null ? Math.max(0, current - last - 1) : null,
    lastArchivedAgeSeconds: row.archived_age,
  };
}
