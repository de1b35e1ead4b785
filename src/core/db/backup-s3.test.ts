import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyRetention, listBaseBackups, takeBaseBackup, uploadHealth, uploadToBucket, verifyBackup, type BackupConfig, type BaseBackupManifest } from './backup.js';
import { s3BackupRemote, type BackupBucket } from './backup-s3.js';
import { migrateDatabase } from './migrate.js';
import { createS3Client } from '../s3-client.js';
import { appOnCluster, archived, closeCluster, countNotes, notedTime, openArchiving, poolOn, runCli } from '../../../test/backup-cluster.js';
import { startTestS3, type TestS3 } from '../../../test/s3-server.js';

/**
 * Backups with FISHLOG_BACKUP_TARGET=s3, against the s3rver the photo tests use, on a cluster of
 * their own: a mistaken DELETE undone from the bucket alone, a lost disk (data and backup folder)
 * brought back with every archived write, a copy that fails (the bucket missing) seen in readiness
 * and /metrics and recovered, the retention applied in the bucket, and `verify` checking the
 * bucket's copy (a byte flipped in the object fails it).
 */

let root: string;
let s3: TestS3;
let bucket: BackupBucket;
let config: BackupConfig;
let env: Record<string, string>;

const cli = (args: string[]) => runCli(env, args);

const open = () => openArchiving(config);
const walFiles = async (dir: string) => (await fs.readdir(path.join(dir, 'wal'))).filter((n) => n.endsWith('.gz')).sort();
const bucketKeys = async () => [...(await s3BackupRemote(bucket).list())].sort();

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'fishlog-backup-s3-'));
  await fs.chmod(root, 0o711); // PostgreSQL may run as another OS user (we are root): it passes through
  s3 = await startTestS3('fishlog-backups');
  const dataDir = path.join(root, 'data');
  const backupDir = path.join(root, 'backups');
  bucket = { bucket: s3.bucket, region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, prefix: 'backups/' };
  env = { ...s3.env, FISHLOG_BACKUP_TARGET: 's3', FISHLOG_DATA_DIR: dataDir, FISHLOG_BACKUP_DIR: backupDir, FISHLOG_WAL_ARCHIVE_TIMEOUT_S: '1', LOG_LEVEL: 'silent' };
  config = { dataDir, databaseUrl: undefined, backups: { enabled: true, dir: backupDir, archiveTimeoutSeconds: 1, keepDaily: 7, keepWeekly: 4, s3: bucket } };
});

afterAll(async () => {
  await s3?.close();
  await fs.rm(root, { recursive: true, force: true });
});

describe('backups in an S3 bucket (FISHLOG_BACKUP_TARGET=s3)', { timeout: 180_000 }, () => {
  let noted: Date;
  let written: number;

  it('restores to a noted time from the bucket alone: the rows written before it are all there, a DELETE made after it is not', async () => {
    const db = await open();
    const pool = poolOn(db.cluster);
    await migrateDatabase(pool).finally(() => pool.end());
    await db.client.query('CREATE TABLE notes (id int PRIMARY KEY, text text NOT NULL)');
    await db.client.query("INSERT INTO notes SELECT g, 'before the backup ' || g FROM generate_series(1, 100) g");
    const backup = await cli(['backup']); // the base backup goes into the bucket at once
    expect(backup.code, backup.err).toBe(0);
    expect(backup.err).toMatch(/backups copied to the bucket: [1-9]\d* file\(s\)/);
    await db.client.query("INSERT INTO notes SELECT g, 'after the backup ' || g FROM generate_series(101, 200) g");
    noted = await notedTime(db.client);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await db.client.query('DELETE FROM notes'); // the mistake
    await archived(db.client);
    await closeCluster(db);
    expect((await uploadToBucket(config)).uploaded).toBeGreaterThan(0); // the minute job's copy

    // Only the bucket has the backups now.
    await fs.rm(config.backups.dir, { recursive: true, force: true });
    const restored = await cli(['restore', '--to', noted.toISOString(), '--force']);
    expect(restored.code, restored.err).toBe(0);
    expect(restored.err).toMatch(/\d+ backup file\(s\) brought back from the bucket/);
    const after = await open();
    try {
      expect(await countNotes(after.client)).toBe(200);
      expect((await after.client.query('SELECT text FROM notes WHERE id = 200')).rows).toEqual([{ text: 'after the backup 200' }]);
      // The restored database writes on, on a new timeline.
      await after.client.query("INSERT INTO notes VALUES (201, 'after the restore')");
      await archived(after.client);
    } finally {
      await closeCluster(after);
    }
    await uploadToBucket(config);
  });

  it('restore --latest after losing both the data folder and the backup folder brings back every archived write', async () => {
    const db = await open();
    for (let i = 0; i < 5; i++) await db.client.query("INSERT INTO notes SELECT g, 'before the disk was lost' FROM generate_series($1::int, $1::int + 9) g", [300 + 10 * i]);
    await db.client.query("UPDATE notes SET text = 'changed before the disk was lost' WHERE id = 1");
    written = await countNotes(db.client);
    expect(written).toBe(251);
    await archived(db.client);
    await closeCluster(db);
    await uploadToBucket(config);
    const keys = await bucketKeys();
    for (const backup of await listBaseBackups(config.backups.dir)) {
      for (const file of ['data.tar.gz', 'backup_label', 'postgres.json', 'manifest.json']) expect(keys).toContain(`base/${backup.id}/${file}`);
    }
    expect(keys.filter((key) => key.startsWith('wal/'))).toEqual((await walFiles(config.backups.dir)).map((name) => `wal/${name}`));
    expect(keys).toContain('wal/00000002.history.gz'); // the timeline of the restore above

    await fs.rm(config.dataDir, { recursive: true, force: true });
    await fs.rm(config.backups.dir, { recursive: true, force: true });
    const restored = await cli(['restore', '--latest']);
    expect(restored.code, restored.err).toBe(0);
    const after = await open();
    try {
      expect(await countNotes(after.client)).toBe(written);
      expect((await after.client.query('SELECT text FROM notes WHERE id IN (1, 201, 349) ORDER BY id')).rows).toEqual([
        { text: 'changed before the disk was lost' },
        { text: 'after the restore' },
        { text: 'before the disk was lost' },
      ]);
    } finally {
      await closeCluster(after);
    }
  });

  it('a copy that fails (the bucket missing) shows in readiness and /metrics with the age of what waits, and recovers when the bucket is there', async () => {
    const late = 'fishlog-backups-late';
    const lateConfig: BackupConfig = { ...config, backups: { ...config.backups, s3: { ...bucket, bucket: late } } };
    const { app, database, metrics, close } = await appOnCluster({ ...env, S3_BUCKET: late });
    const metric = async (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(await metrics())![1]);
    try {
      const owner = await database.owner.pool.connect();
      await owner.query("INSERT INTO notes VALUES (700, 'while the bucket is missing')");
      await archived(owner).finally(() => owner.release());
      await expect(uploadToBucket(lateConfig)).rejects.toThrow(/bucket/i);
      const failing = await app.inject({ method: 'GET', url: '/health/ready' });
      expect(failing.statusCode).toBe(200); // a warning, not a reason to leave the load balancer
      const upload = failing.json().details.backups.upload;
      // The backup folder is a new one since the lost disk above: it has copied nothing yet.
      expect(upload).toEqual({ status: 'failing', lastUploadedAt: null, lastFailedAt: expect.stringMatching(/^\d{4}-/), pendingFiles: expect.any(Number), oldestPendingAt: expect.stringMatching(/^\d{4}-/) });
      expect((await uploadHealth(lateConfig))!.lastError).toMatch(/^NoSuchBucket: /); // not in the public answer
      expect(upload.pendingFiles).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 1100)); // the metrics' scrape is read once a second
      expect(await metric('fishlog_backup_upload_failing')).toBe(1);
      expect(await metric('fishlog_backup_upload_pending_files')).toBe(upload.pendingFiles);
      expect(await metric('fishlog_backup_upload_lag_seconds')).toBeGreaterThan(0);

      await createS3Client(lateConfig.backups.s3!).send(new CreateBucketCommand({ Bucket: late }));
      expect((await uploadToBucket(lateConfig)).uploaded).toBeGreaterThan(0);
      const recovered = (await app.inject({ method: 'GET', url: '/health/ready' })).json().details.backups.upload;
      expect(recovered).toMatchObject({ status: 'ok', pendingFiles: 0, oldestPendingAt: null, lastUploadedAt: expect.stringMatching(/^\d{4}-/) });
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect(await metric('fishlog_backup_upload_failing')).toBe(0);
      expect(await metric('fishlog_backup_upload_lag_seconds')).toBe(0);
      expect(await metric('fishlog_backup_upload_last_success_timestamp_seconds')).toBeGreaterThan(Date.now() / 1000 - 60);
    } finally {
      await close();
    }
    await uploadToBucket(config);
  });

  it('retention applies to the bucket too: the backups docs/backups.md says are kept, the others and the WAL before the oldest kept gone, also when only the bucket has them', async () => {
    const base = path.join(config.backups.dir, 'base');
    const [first] = await listBaseBackups(config.backups.dir);
    const walBefore = await walFiles(config.backups.dir);
    // A second backup today: the retention after it keeps the newest of the day, in the folder and
    // in the bucket, and the WAL only it needs (none before its start).
    const second = await takeBaseBackup(config);
    const backupsInBucket = async () => [...new Set((await bucketKeys()).filter((key) => key.startsWith('base/')).map((key) => key.split('/')[1]!))].sort();
    expect((await listBaseBackups(config.backups.dir)).map((b) => b.id)).toEqual([second.id]);
    expect(await backupsInBucket()).toEqual([second.id]);
    const older = walBefore.filter((name) => !name.includes('.history') && name.slice(8, 24) < second.startWalFile.slice(8));
    expect(older.length).toBeGreaterThan(0);
    const keys = await bucketKeys();
    for (const name of older) expect(keys).not.toContain(`wal/${name}`);
    expect(keys).toContain('wal/00000002.history.gz');
    expect(keys.filter((key) => key.startsWith('wal/'))).toEqual((await walFiles(config.backups.dir)).map((name) => `wal/${name}`));

    // Two backups a day for the 20 days before them.
    const made: string[] = [];
    for (let day = 1; day <= 20; day++) {
      for (const hour of [3, 15]) {
        const at = new Date(Date.parse(first!.finishedAt) - day * 86_400_000);
        at.setUTCHours(hour, 0, 0, 0);
        const id = `fake${String(day).padStart(2, '0')}h${hour}`;
        const manifest: BaseBackupManifest = { ...first!, id, startedAt: at.toISOString(), finishedAt: at.toISOString(), startWalFile: '000000010000000000000000' };
        await fs.mkdir(path.join(base, id));
        await fs.writeFile(path.join(base, id, 'data.tar.gz'), 'not a real backup');
        await fs.writeFile(path.join(base, id, 'manifest.json'), JSON.stringify(manifest));
        made.push(id);
      }
    }
    await uploadToBucket(config);
    // The folder lost the older ones (a new disk): the bucket alone holds them.
    for (const id of made.filter((id) => id >= 'fake10')) await fs.rm(path.join(base, id), { recursive: true });
    const outcome = await applyRetention({ ...config, backups: { ...config.backups, keepDaily: 3, keepWeekly: 2 } });
    // The newest of today, the later backup of each of the two days before, then one per ISO week for two weeks.
    const daily = ['fake01h15', 'fake02h15', second.id];
    const weekly = made.filter((id) => !outcome.deletedBackups.includes(id) && !daily.includes(id));
    expect(weekly).toHaveLength(2);
    expect(outcome.deletedBackups.sort()).toEqual([...made.filter((id) => !daily.includes(id) && !weekly.includes(id))].sort());
    expect(await backupsInBucket()).toEqual([...daily, ...weekly].sort());
    expect((await listBaseBackups(config.backups.dir)).map((b) => b.id).sort()).toEqual([...daily, ...weekly].filter((id) => id < 'fake10' || id === second.id).sort());
    expect(await uploadToBucket(config)).toEqual({ uploaded: 0 }); // nothing deleted comes back

    // Keeping only the newest: the bucket's older backups go, those the folder had no more too.
    await applyRetention({ ...config, backups: { ...config.backups, keepDaily: 1, keepWeekly: 0 } });
    expect(await backupsInBucket()).toEqual([second.id]);
    expect((await listBaseBackups(config.backups.dir)).map((b) => b.id)).toEqual([second.id]);
  });

  it('verify checks the bucket\'s copy: restored and checked from there, and a byte flipped in the object fails it', async () => {
    const verified = await verifyBackup(config);
    expect(verified.migrations.applied).toBe(verified.migrations.expected);
    const [backup] = await listBaseBackups(config.backups.dir);
    expect(verified.backup).toBe(backup!.id);
    const client = createS3Client(bucket);
    const Key = `${bucket.prefix}base/${backup!.id}/data.tar.gz`;
    const bytes = Buffer.from(await (await client.send(new GetObjectCommand({ Bucket: bucket.bucket, Key }))).Body!.transformToByteArray());
    bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
    await client.send(new PutObjectCommand({ Bucket: bucket.bucket, Key, Body: bytes, ContentLength: bytes.length }));
    // The folder's copy is whole; the bucket's is not, and that is the one a lost disk would need.
    const failed = await cli(['backup', 'verify']);
    expect(failed.code).toBe(1);
    expect(failed.err).toContain(`base backup ${backup!.id} is damaged`);
  });
});
