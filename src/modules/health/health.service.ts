import type { ServiceDeps } from '../../core/service-deps.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import type { Static } from 'typebox';
import type { HealthBody, Readiness as ReadinessSchema } from './health.schemas.js';
import { migrationsFolder } from '../../paths.js';
import { regulationDataWarnings } from '../regulations/index.js';
import { archiveHealth, listBaseBackups, takeBaseBackup, uploadHealth, type ArchiveHealth, type BackupConfig } from '../../core/db/backup.js';

const DATABASE_TIMEOUT_MS = 2000;

async function databaseAnswers(pool: pg.Pool): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), DATABASE_TIMEOUT_MS);
  });
  const probe = pool.query('SELECT 1').then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export async function checkHealth(pool: pg.Pool, version: string, startedAt: number): Promise<HealthBody> {
  const database = (await databaseAnswers(pool)) ? 'ok' : 'unavailable';
  return {
    status: database === 'ok' ? 'ok' : 'error',
    database,
    version,
    uptimeSeconds: Math.floor((Date.now() - startedAt) / 1000),
  };
}

/** How many migrations this build ships (drizzle/meta/_journal.json). */
function shippedMigrations(): number {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
  return journal.entries.length;
}

async function appliedMigrations(pool: pg.Pool): Promise<number> {
  const result = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
  return result.rows[0]?.n ?? 0;
}

export type Readiness = Static<typeof ReadinessSchema>;
export type BackupReadiness = Readiness['details']['backups'];

/** The embedded database's backups as readiness shows them (never a reason to be not ready). */
export async function backupReadiness(pool: pg.Pool, config: BackupConfig, databaseAnswers = true): Promise<BackupReadiness> {
  const none = { lastArchivedAt: null, lastFailedAt: null, failedWal: null, newestBaseBackupAt: null, upload: null };
  if (config.databaseUrl) return { walArchive: 'external', ...none };
  const newestBaseBackupAt = (await listBaseBackups(config.backups.dir)).at(-1)?.finishedAt ?? null;
  // Without the copy's error: this answer is public, an error may name internal hosts (the log and the jobs view have it).
  const upload = await uploadHealth(config).then(
    (health) => health && { status: health.status, lastUploadedAt: health.lastUploadedAt, lastFailedAt: health.lastFailedAt, pendingFiles: health.pendingFiles, oldestPendingAt: health.oldestPendingAt },
    () => null,
  );
  if (!config.backups.enabled) return { walArchive: 'off', ...none, newestBaseBackupAt, upload };
  const archive = databaseAnswers ? await archiveHealth(pool).catch(() => undefined) : undefined;
  if (!archive) return { walArchive: 'unknown', ...none, newestBaseBackupAt, upload };
  return { walArchive: archive.status, lastArchivedAt: archive.lastArchivedAt, lastFailedAt: archive.lastFailedAt, failedWal: archive.failedWal, newestBaseBackupAt, upload };
}

/**
 * Ready: the database answers, every shipped migration is applied, and no shutdown has begun.
 * The details carry warnings (regulations about to run out, a failing WAL archive), which never make it not ready.
 */
export async function checkReadiness(pool: pg.Pool, deps: ServiceDeps, config: BackupConfig, shuttingDown: boolean, now: Date, replicas: Readiness['details']['replicas'] = []): Promise<Readiness> {
  const database = (await databaseAnswers(pool)) ? 'ok' : 'unavailable';
  let migrations: Readiness['migrations'] = 'unknown';
  if (database === 'ok') {
    migrations = await appliedMigrations(pool).then(
      (n) => (n >= shippedMigrations() ? 'applied' : 'pending'),
      () => 'pending' as const,
    );
  }
  const ready = database === 'ok' && migrations === 'applied' && !shuttingDown;
  const regulationData = migrations === 'applied' ? await regulationDataWarnings(deps, now).catch(() => []) : [];
  const backups = await backupReadiness(pool, config, database === 'ok');
  return { status: ready ? 'ready' : 'not_ready', database, migrations, shuttingDown, details: { backups, replicas, regulationData } };
}

/** Half an hour of slack: an hourly tick takes the backup that falls due before the next one. */
const SLACK_MS = 30 * 60_000;

/**
 * The hourly job (`health.base-backup`): a base backup when the newest is `everyHours` old, a warning
 * when a backup is overdue (and the job fails then, to be retried and shown in the jobs view). The
 * WAL archive is watched every minute (`walArchiveWatch`).
 */
export async function scheduledBaseBackup(
  pool: pg.Pool,
  config: BackupConfig & { backups: { everyHours: number } },
  log: { info(obj: object, message: string): void; warn(obj: object, message: string): void },
  now: Date,
): Promise<{ taken: string | null; skipped?: string }> {
  if (config.databaseUrl) return { taken: null, skipped: 'DATABASE_URL: backups belong to that server' };
  if (!config.backups.enabled) return { taken: null, skipped: 'FISHLOG_BACKUPS=false' };
  const newest = (await listBaseBackups(config.backups.dir)).at(-1);
  const age = newest ? now.getTime() - Date.parse(newest.finishedAt) : Infinity;
  if (age < config.backups.everyHours * 3_600_000 - SLACK_MS) return { taken: null };
  try {
    const manifest = await takeBaseBackup(config, (message) => log.info({}, message), () => new Date());
    return { taken: manifest.id };
  } catch (error) {
    if (age > config.backups.everyHours * 3_600_000 + SLACK_MS) {
      log.warn({ err: error, newestBaseBackupAt: newest?.finishedAt ?? null }, `the newest base backup is older than FISHLOG_BACKUP_EVERY_HOURS (${config.backups.everyHours} h) allows, and taking one failed`);
    }
    throw error;
  }
}

export type WalArchiveState = 'ok' | 'failing' | 'lagging';

/** The archive's state: failing, lagging (finished segments waiting longer than twice the archive timeout), or ok. */
export function walArchiveState(archive: ArchiveHealth, timeoutSeconds: number): WalArchiveState {
  if (archive.status === 'failing') return 'failing';
  const waiting = archive.pendingSegments !== null && archive.pendingSegments > 0;
  return waiting && (archive.lastArchivedAgeSeconds === null || archive.lastArchivedAgeSeconds > 2 * timeoutSeconds) ? 'lagging' : 'ok';
}

/**
 * The WAL archive's watch (the minute job `health.backup-upload` runs it): a warning in the log
 * when the archive starts failing or lagging behind the writes, and a line when it has caught up
 * again; once per change of state, not at every check. The state lives in the process: a process
 * started while the archive fails warns once.
 */
export function walArchiveWatch(log: { info(obj: object, message: string): void; warn(obj: object, message: string): void }) {
  let state: WalArchiveState | undefined;
  return async (pool: pg.Pool, config: BackupConfig): Promise<WalArchiveState | null> => {
    if (config.databaseUrl || !config.backups.enabled) return null;
    const archive = await archiveHealth(pool).catch(() => undefined);
    if (!archive || archive.status === 'off') return null;
    const next = walArchiveState(archive, config.backups.archiveTimeoutSeconds);
    if (next !== state) {
      const details = { failedWal: archive.failedWal, lastFailedAt: archive.lastFailedAt, lastArchivedAt: archive.lastArchivedAt, pendingSegments: archive.pendingSegments };
      if (next === 'failing') {
        log.warn(details, 'the WAL archive is failing: PostgreSQL cannot write into FISHLOG_BACKUP_DIR/wal (see its server.log); writes since the last archived segment are not backed up');
      } else if (next === 'lagging') {
        log.warn(
          details,
          `the WAL archive lags behind the writes: ${archive.pendingSegments} finished WAL segment(s) wait, and the last was archived ${Math.round(archive.lastArchivedAgeSeconds ?? 0)} s ago (more than twice FISHLOG_WAL_ARCHIVE_TIMEOUT_S); writes since then are not backed up yet`,
        );
      } else if (state !== undefined) {
        log.info(details, 'the WAL archive has caught up: every finished WAL segment is archived');
      }
      state = next;
    }
    return next;
  };
}
