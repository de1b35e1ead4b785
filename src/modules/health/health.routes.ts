import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { Health, Liveness, Readiness } from './health.schemas.js';
import { Gauge } from 'prom-client';
import { uploadToBucket } from '../../core/db/backup.js';
import { BACKUP_UPLOAD, BASE_BACKUP } from './health.jobs.js';
import { backupReadiness, checkHealth, checkReadiness, scheduledBaseBackup, walArchiveWatch, type BackupReadiness } from './health.service.js';

export const healthRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  app.get(
    '/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        operationId: 'getHealth',
        summary: 'Service health',
        description: 'Answers 200 when the service and its database work, 503 with `"database": "unavailable"` when the database cannot be reached.',
        response: { 200: Health, 503: Health },
      },
    },
    async (_request, reply) => {
      const health = await checkHealth(deps.database.pool, deps.version, deps.startedAt);
      return reply.code(health.status === 'ok' ? 200 : 503).send(health);
    },
  );

  deps.jobs.work(BASE_BACKUP, () => scheduledBaseBackup(deps.database.pool, deps.config, app.log, new Date(deps.now())));
  const watchArchive = walArchiveWatch(app.log);
  deps.jobs.work(BACKUP_UPLOAD, async () => {
    const walArchive = await watchArchive(deps.database.pool, deps.config);
    if (deps.config.databaseUrl || !deps.config.backups.enabled) return { walArchive, uploaded: 0 };
    return { walArchive, ...(await uploadToBucket(deps.config)) };
  });
  observeBackups(deps);

  let shuttingDown = false;
  app.addHook('preClose', async () => {
    shuttingDown = true;
  });

  app.get(
    '/health/live',
    {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        operationId: 'getLiveness',
        summary: 'Liveness probe',
        description: 'Answers 200 while the process runs and serves HTTP; it never calls the database (a database outage must not restart the process).',
        response: { 200: Liveness },
      },
    },
    async () => ({ status: 'ok' as const, uptimeSeconds: Math.floor((Date.now() - deps.startedAt) / 1000) }),
  );

  app.get(
    '/health/ready',
    {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        operationId: 'getReadiness',
        summary: 'Readiness probe',
        description: 'Answers 200 when the database answers, every migration of this build is applied and no shutdown has begun; 503 with the same body otherwise. ' +
          '`details.regulationData` lists jurisdictions whose regulation data ends within 30 days or has ended: a data warning, never a reason to be not ready. ' +
          '`details.backups` shows the embedded database\'s WAL archiving and newest base backup: a failing archive is a warning too. ' +
          '`details.replicas` lists the read replicas (DATABASE_REPLICA_URLS), each in the pool or not and why, with its lag: one out of the pool is a warning too.',
        response: { 200: Readiness, 503: Readiness },
      },
    },
    async (_request, reply) => {
      const readiness = await checkReadiness(deps.database.pool, serviceDeps(deps), deps.config, shuttingDown, new Date(deps.now()), deps.database.replicas?.status());
      if (readiness.status !== 'ready') reply.header('retry-after', '5');
      return reply.code(readiness.status === 'ready' ? 200 : 503).send(readiness);
    },
  );
};

/** The backups in `/metrics`: read once per scrape (the three gauges share it). */
function observeBackups(deps: AppDeps): void {
  let scrape: { at: number; state: Promise<BackupReadiness> } | undefined;
  const state = () => {
    if (!scrape || Date.now() - scrape.at > 1000) scrape = { at: Date.now(), state: backupReadiness(deps.database.pool, deps.config) };
    return scrape.state;
  };
  const seconds = (iso: string | null) => (iso ? Date.parse(iso) / 1000 : 0);
  const registers = [deps.metrics.registry];
  new Gauge({
    name: 'fishlog_wal_archive_failing',
    help: '1 while the embedded PostgreSQL fails to archive its WAL, else 0 (also 0 with DATABASE_URL or FISHLOG_BACKUPS=false: /health/ready says which)',
    registers,
    async collect() {
      const { walArchive } = await state();
      if (walArchive === 'ok' || walArchive === 'failing') this.set(walArchive === 'failing' ? 1 : 0);
    },
  });
  new Gauge({
    name: 'fishlog_wal_archive_last_success_timestamp_seconds',
    help: 'When the embedded PostgreSQL last archived a WAL segment (Unix time; 0: never, or no archiving here)',
    registers,
    async collect() {
      const { walArchive, lastArchivedAt } = await state();
      if (walArchive === 'ok' || walArchive === 'failing') this.set(seconds(lastArchivedAt));
    },
  });
  new Gauge({
    name: 'fishlog_base_backup_last_success_timestamp_seconds',
    help: 'When the newest base backup of the embedded PostgreSQL ended (Unix time; 0: none yet)',
    registers,
    async collect() {
      const { walArchive, newestBaseBackupAt } = await state();
      if (walArchive !== 'external') this.set(seconds(newestBaseBackupAt));
    },
  });
  // The copy into the bucket (FISHLOG_BACKUP_TARGET=s3); all 0 without one.
  new Gauge({
    name: 'fishlog_backup_upload_failing',
    help: '1 while copying the backups into the S3 bucket fails (FISHLOG_BACKUP_TARGET=s3), else 0',
    registers,
    async collect() {
      this.set((await state()).upload?.status === 'failing' ? 1 : 0);
    },
  });
  new Gauge({
    name: 'fishlog_backup_upload_pending_files',
    help: 'Files of the backup folder (archived WAL, base backups) not yet known to be in the S3 bucket',
    registers,
    async collect() {
      this.set((await state()).upload?.pendingFiles ?? 0);
    },
  });
  new Gauge({
    name: 'fishlog_backup_upload_lag_seconds',
    help: 'Age of the oldest file of the backup folder not yet known to be in the S3 bucket (0: none waits)',
    registers,
    async collect() {
      const oldest = (await state()).upload?.oldestPendingAt;
      this.set(oldest ? Math.max(0, (Date.now() - Date.parse(oldest)) / 1000) : 0);
    },
  });
  new Gauge({
    name: 'fishlog_backup_upload_last_success_timestamp_seconds',
    help: 'When the last copy of the backups into the S3 bucket succeeded (Unix time; 0: never, or no bucket)',
    registers,
    async collect() {
      this.set(seconds((await state()).upload?.lastUploadedAt ?? null));
    },
  });
}
