import { scheduledSweep } from '../../core/jobs/jobs.js';

/**
 * Every hour: a base backup of the embedded PostgreSQL when the newest is FISHLOG_BACKUP_EVERY_HOURS
 * old (then the retention), and a warning in the log when the newest base backup is overdue.
 * Nothing with DATABASE_URL or FISHLOG_BACKUPS=false.
 */
export const BASE_BACKUP = scheduledSweep(
  'health.base-backup',
  '17 * * * *',
  'Takes a base backup of the embedded PostgreSQL when the newest is FISHLOG_BACKUP_EVERY_HOURS old, applies the retention, and warns when one is overdue.',
  3600,
);

/**
 * Every minute: watches the WAL archive (a warning in the log when it starts failing or lagging behind
 * the writes), and with FISHLOG_BACKUP_TARGET=s3 copies the backup folder's new files (archived WAL,
 * base backups) into the bucket.
 */
export const BACKUP_UPLOAD = scheduledSweep(
  'health.backup-upload',
  '* * * * *',
  'Warns when the WAL archive starts failing or lagging, and copies the new files of the backup folder (archived WAL, base backups) into the S3 bucket when FISHLOG_BACKUP_TARGET=s3.',
  600,
);
