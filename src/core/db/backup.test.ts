import { chmodSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../cli/index.js';
import { applyRetention, archiveHealth, listBaseBackups, verifyBackup, type BackupConfig, type BackupStatus, type BaseBackupManifest } from './backup.js';
import { migrateDatabase } from './migrate.js';
import { appOnCluster, archived, closeCluster, countNotes, notedTime, openArchiving, poolOn, runCli } from '../../../test/backup-cluster.js';
import { backupReadiness, scheduledBaseBackup, walArchiveWatch } from '../../modules/health/health.service.js';

/**
 * Backups of the embedded PostgreSQL on a real cluster of its own (durable, archiving its WAL):
 * a base backup, a mistaken DELETE undone by a restore to the time before it, a lost disk brought
 * back with every write the archive holds, an archive that cannot be written (seen, then
 * recovered), retention, and a damaged backup that `verify` refuses.
 */

let root: string;
let config: BackupConfig;
let env: Record<string, string>;

const cli = (args: string[]) => runCli(env, args);

const open = () => openArchiving(config);
const close = closeCluster;
const count = countNotes;

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'fishlog-backup-'));
  await fs.chmod(root, 0o711); // PostgreSQL may run as another OS user (we are root): it passes through
  const dataDir = path.join(root, 'data');
  const backupDir = path.join(root, 'backups');
  env = { FISHLOG_DATA_DIR: dataDir, FISHLOG_BACKUP_DIR: backupDir, FISHLOG_WAL_ARCHIVE_TIMEOUT_S: '1', LOG_LEVEL: 'silent' };
  config = { dataDir, databaseUrl: undefined, backups: { enabled: true, dir: backupDir, archiveTimeoutSeconds: 1, keepDaily: 7, keepWeekly: 4 } };
});

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe('backups of the embedded PostgreSQL', { timeout: 180_000 }, () => {
  let noted: Date;

  it('restores to a time: the rows written before it are all there, a DELETE made after it is not', async () => {
    const db = await open();
    // A fishlog database (`backup verify` checks its migrations), and a table of our own.
    const pool = poolOn(db.cluster);
    await migrateDatabase(pool).finally(() => pool.end());
    await db.client.query('CREATE TABLE notes (id int PRIMARY KEY, text text NOT NULL)');
    await db.client.query("INSERT INTO notes SELECT g, 'before the backup ' || g FROM generate_series(1, 100) g");
    const backup = await cli(['backup']);
    expect(backup.err).not.toContain('Error');
    expect(backup.code, backup.err).toBe(0);
    expect(backup.out).toMatch(/^base backup \d{8}T\d{6}Z: \d+ files, \d+ bytes compressed, sha256 [0-9a-f]{64}\n$/);
    await db.client.query("INSERT INTO notes SELECT g, 'after the backup ' || g FROM generate_series(101, 200) g");
    noted = await notedTime(db.client);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await db.client.query('DELETE FROM notes'); // the mistake
    expect(await count(db.client)).toBe(0);
    await archived(db.client);
    await close(db);

    const refused = await cli(['restore', '--to', noted.toISOString()]);
    expect(refused).toMatchObject({ code: 1, err: expect.stringContaining('holds a database: add --force to replace it') });
    const restored = await cli(['restore', '--to', noted.toISOString(), '--force']);
    expect(restored.code, restored.err).toBe(0);
    expect(restored.out).toMatch(/^restored from base backup \d{8}T\d{6}Z to .+; the previous database is in .+postgres\.replaced-/);

    const after = await open();
    try {
      expect(await count(after.client)).toBe(200);
      expect((await after.client.query('SELECT text FROM notes WHERE id = 200')).rows).toEqual([{ text: 'after the backup 200' }]);
      expect((await after.client.query<{ recovering: boolean }>('SELECT pg_is_in_recovery() AS recovering')).rows[0]!.recovering).toBe(false);
      // The restored database writes again, on a new timeline the archive keeps apart.
      await after.client.query("INSERT INTO notes VALUES (201, 'after the restore')");
      await archived(after.client);
    } finally {
      await close(after);
    }
  });

  it('after a lost disk (the database folder and its credentials gone, the backups kept), --latest brings back every archived write', async () => {
    await fs.rm(path.join(config.dataDir, 'postgres'), { recursive: true, force: true });
    for (const entry of await fs.readdir(config.dataDir)) if (entry.startsWith('postgres')) await fs.rm(path.join(config.dataDir, entry), { recursive: true, force: true });
    const restored = await cli(['restore', '--latest']);
    expect(restored.err).not.toMatch(/fishlog: (?!restor|the cluster|embedded)/);
    expect(restored.code, restored.err).toBe(0);
    const db = await open();
    try {
      expect(await count(db.client)).toBe(201);
      expect((await db.client.query('SELECT text FROM notes WHERE id = 201')).rows).toEqual([{ text: 'after the restore' }]);
    } finally {
      await close(db);
    }
  });

  it('lists base backups, the archived WAL and the times a restore can reach', async () => {
    const list = await cli(['backup', 'list', '--json']);
    expect(list.code).toBe(0);
    const status = JSON.parse(list.out) as BackupStatus;
    expect(status.baseBackups).toHaveLength(1);
    expect(status.wal.segments).toBeGreaterThan(1);
    expect(status.wal.first! < status.wal.last!).toBe(true);
    expect(status.restorable!.earliest).toBe(status.baseBackups[0]!.finishedAt);
    expect(status.restorable!.latest >= noted.toISOString()).toBe(true);
    const text = await cli(['backup', 'list']);
    expect(text.out).toContain(`base ${status.baseBackups[0]!.id}`);
    expect(text.out).toMatch(/restorable from \S+ to \S+/);
  });

  it('shows an archive that cannot be written as failing, and recovers when it can be written again', async () => {
    const db = await open();
    const wal = path.join(config.backups.dir, 'wal');
    try {
      expect(await archiveHealth(db.client)).toMatchObject({ status: 'ok' });
      chmodSync(wal, 0o500);
      await db.client.query("INSERT INTO notes SELECT g, 'while the archive is read-only' FROM generate_series(300, 310) g");
      await db.client.query('SELECT pg_switch_wal()');
      const deadline = Date.now() + 30_000;
      while ((await archiveHealth(db.client)).status !== 'failing' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
      const failing = await archiveHealth(db.client);
      expect(failing).toMatchObject({ status: 'failing', failedWal: expect.stringMatching(/^[0-9A-F]{24}$/) });
      chmodSync(wal, 0o700);
      // The next finished segment wakes the archiver, which retries the failed one first.
      await db.client.query("INSERT INTO notes VALUES (311, 'with the archive writable again')");
      await archived(db.client);
      expect(await archiveHealth(db.client)).toMatchObject({ status: 'ok' });
    } finally {
      chmodSync(wal, 0o700);
      await close(db);
    }
  });

  it('warns in the log once when the archive starts lagging behind the writes or failing, and once more when it has caught up', async () => {
    const db = await open();
    const pool = poolOn(db.cluster);
    const lines: string[] = [];
    const log = { info: (_: object, message: string) => void lines.push(`info: ${message}`), warn: (_: object, message: string) => void lines.push(`warn: ${message}`) };
    const watch = walArchiveWatch(log);
    const script = path.join(config.backups.dir, 'archive-wal.sh');
    const original = await fs.readFile(script, 'utf8');
    const stuck = path.join(root, 'archiver-stuck');
    const until = async (want: string) => {
      const deadline = Date.now() + 30_000;
      while ((await watch(pool, config)) !== want && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
    };
    try {
      expect(await watch(pool, config)).toBe('ok');
      // An archiver that hangs (a stalled network disk): it waits while the file `stuck` exists.
      await fs.writeFile(stuck, '');
      await fs.writeFile(`${script}.new`, original.replace('set -eu\n', `set -eu\nwhile [ -f '${stuck}' ]; do sleep 0.1; done\n`), { mode: 0o755 });
      await fs.rename(`${script}.new`, script);
      for (let i = 0; i < 3; i++) {
        await db.client.query("INSERT INTO notes SELECT g, 'while the archiver hangs' FROM generate_series(600 + 10 * $1::int, 609 + 10 * $1::int) g", [i]);
        await db.client.query('SELECT pg_switch_wal()');
      }
      // Finished segments wait; after twice the archive timeout (1 s here) the watch says so, once.
      await until('lagging');
      expect(await watch(pool, config)).toBe('lagging');
      expect(await watch(pool, config)).toBe('lagging');
      expect(lines).toEqual([expect.stringMatching(/^warn: the WAL archive lags behind the writes: \d+ finished WAL segment\(s\) wait/)]);
      expect((await archiveHealth(db.client)).pendingSegments).toBeGreaterThan(0);
      await fs.rm(stuck);
      await archived(db.client);
      await until('ok');
      expect(lines).toEqual([expect.stringMatching(/^warn: the WAL archive lags/), 'info: the WAL archive has caught up: every finished WAL segment is archived']);
      // An idle server is not lagging, however old its last archived segment.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(await watch(pool, config)).toBe('ok');
      // A failing archive (not writable) warns once too.
      chmodSync(path.join(config.backups.dir, 'wal'), 0o500);
      await db.client.query("INSERT INTO notes VALUES (650, 'while the archive is read-only')");
      await db.client.query('SELECT pg_switch_wal()');
      const deadline = Date.now() + 30_000;
      while ((await archiveHealth(db.client)).status !== 'failing' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await watch(pool, config)).toBe('failing');
      expect(await watch(pool, config)).toBe('failing');
      chmodSync(path.join(config.backups.dir, 'wal'), 0o700);
      await db.client.query("INSERT INTO notes VALUES (651, 'with the archive writable again')");
      await archived(db.client);
      await until('ok');
      expect(lines.slice(2)).toEqual([expect.stringMatching(/^warn: the WAL archive is failing/), 'info: the WAL archive has caught up: every finished WAL segment is archived']);
    } finally {
      chmodSync(path.join(config.backups.dir, 'wal'), 0o700);
      await fs.rm(stuck, { force: true });
      await fs.writeFile(script, original, { mode: 0o755 });
      await pool.end();
      await close(db);
    }
  });

  it('verify restores the newest backup into a temporary folder and checks it; a byte flipped in the backup fails it', async () => {
    const archive = async () => (await fs.readdir(path.join(config.backups.dir, 'wal'))).sort();
    const before = await archive();
    const verified = await verifyBackup(config);
    expect(verified.migrations.expected).toBeGreaterThan(40);
    expect(verified.migrations.applied).toBe(verified.migrations.expected);
    expect(verified.rows).toMatchObject({ users: expect.any(Number), audit_log: expect.any(Number) });
    // The trial restore archived nothing: its timeline is not one a real restore could follow.
    expect(await archive()).toEqual(before);
    const [backup] = await listBaseBackups(config.backups.dir);
    const file = path.join(config.backups.dir, 'base', backup!.id, 'data.tar.gz');
    const bytes = await fs.readFile(file);
    bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
    await fs.writeFile(file, bytes);
    const failed = await cli(['backup', 'verify']);
    expect(failed.code).toBe(1);
    expect(failed.err).toContain(`base backup ${backup!.id} is damaged`);
  });

  it('retention keeps the newest backup of each of the last days and weeks, and the WAL they need', async () => {
    const base = path.join(config.backups.dir, 'base');
    const [real] = await listBaseBackups(config.backups.dir);
    const made: string[] = [];
    // Two backups a day for the 20 days before the real one.
    for (let day = 1; day <= 20; day++) {
      for (const hour of [3, 15]) {
        const at = new Date(Date.parse(real!.finishedAt) - day * 86_400_000);
        at.setUTCHours(hour, 0, 0, 0);
        const id = `fake${String(day).padStart(2, '0')}h${hour}`;
        const manifest: BaseBackupManifest = { ...real!, id, startedAt: at.toISOString(), finishedAt: at.toISOString(), startWalFile: '000000010000000000000000' };
        await fs.mkdir(path.join(base, id));
        await fs.writeFile(path.join(base, id, 'manifest.json'), JSON.stringify(manifest));
        made.push(id);
      }
    }
    const outcome = await applyRetention({ ...config, backups: { ...config.backups, keepDaily: 3, keepWeekly: 2 } });
    const kept = (await listBaseBackups(config.backups.dir)).map((b) => b.id);
    // The real one (today), the later backup of the two days before it, then one per ISO week for two weeks.
    expect(kept).toHaveLength(5);
    expect(kept.at(-1)).toBe(real!.id);
    expect(kept).toContain('fake01h15');
    expect(kept).toContain('fake02h15');
    expect(outcome.deletedBackups).toHaveLength(made.length - 4);
    expect(outcome.deletedBackups).toContain('fake01h3');
  });

  it('the hourly job takes a base backup when the newest is due, not before; readiness shows the archive and the newest backup', async () => {
    const db = await open();
    const pool = poolOn(db.cluster);
    const warnings: string[] = [];
    const log = { info: () => undefined, warn: (_: object, message: string) => void warnings.push(message) };
    try {
      const settings = { ...config, backups: { ...config.backups, everyHours: 24 } };
      const newest = (await listBaseBackups(config.backups.dir)).at(-1)!;
      const soon = new Date(Date.parse(newest.finishedAt) + 3_600_000);
      expect(await scheduledBaseBackup(pool, settings, log, soon)).toEqual({ taken: null });
      const due = new Date(Date.parse(newest.finishedAt) + 24 * 3_600_000);
      const { taken } = await scheduledBaseBackup(pool, settings, log, due);
      expect(taken).toMatch(/^\d{8}T\d{6}Z$/);
      expect((await listBaseBackups(config.backups.dir)).at(-1)!.id).toBe(taken);
      expect(warnings).toEqual([]);
      const readiness = await backupReadiness(pool, config);
      expect(readiness).toEqual({
        walArchive: 'ok',
        lastArchivedAt: expect.stringMatching(/^\d{4}-/),
        lastFailedAt: expect.stringMatching(/^\d{4}-/), // the failure of the test above, since recovered
        failedWal: null,
        newestBaseBackupAt: (await listBaseBackups(config.backups.dir)).at(-1)!.finishedAt,
        upload: null, // no bucket: backup-s3.test.ts
      });
      expect(await backupReadiness(pool, { ...config, databaseUrl: 'postgres://elsewhere/db' })).toMatchObject({ walArchive: 'external', newestBaseBackupAt: null });
      expect(await scheduledBaseBackup(pool, { ...settings, databaseUrl: 'postgres://elsewhere/db' }, log, due)).toMatchObject({ taken: null, skipped: expect.stringContaining('DATABASE_URL') });
    } finally {
      await pool.end();
      await close(db);
    }
  });

  it('the app shows them: /metrics gauges and readiness', async () => {
    const { app, database, metrics, close: closeApp } = await appOnCluster(env);
    try {
      const owner = await database.owner.pool.connect();
      await owner.query("INSERT INTO notes VALUES (500, 'seen in the metrics')");
      await archived(owner).finally(() => owner.release());
      const text = await metrics();
      expect(text).toMatch(/^fishlog_wal_archive_failing 0$/m);
      const archivedAt = Number(/^fishlog_wal_archive_last_success_timestamp_seconds (\S+)$/m.exec(text)![1]);
      expect(Math.abs(archivedAt * 1000 - Date.now())).toBeLessThan(3_600_000);
      const newest = (await listBaseBackups(config.backups.dir)).at(-1)!;
      expect(text).toContain(`fishlog_base_backup_last_success_timestamp_seconds ${Date.parse(newest.finishedAt) / 1000}`);
      const ready = await app.inject({ method: 'GET', url: '/health/ready' });
      expect(ready.json()).toMatchObject({ status: 'ready', details: { backups: { walArchive: 'ok', failedWal: null, newestBaseBackupAt: newest.finishedAt } } });
    } finally {
      await closeApp();
    }
  });

  it('does nothing with DATABASE_URL: that server\'s operator backs it up', async () => {
    const result = await main(['backup'], { out: () => undefined, err: (t) => (env.__err = (env.__err ?? '') + t), env: { ...env, DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' } });
    expect(result).toBe(1);
    expect(env.__err).toContain('DATABASE_URL is set: the database is a server of its own, and its backups belong to its operator');
  });
});
