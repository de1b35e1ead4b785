import { scheduledSweep } from '../../core/jobs/jobs.js';

/**
 * Every hour: a base backup of the embedded PostgreSQL when the newest is FISHLOG_BACKUP_EVERY_HOURS
 * old (then the retention), and a warning in the log when the WAL archive fails or the newest base
 * backup is overdue. Nothing with DATABASE_URL or FISHLOG_BACKUPS=false.
 */
export const BASE_BACKUP = scheduledSweep(
  'health.base-backup',
  '17 * * * *',
  'Takes a base backup of the embedded PostgreSQL when the newest is FISHLOG_BACKUP_EVERY_HOURS old, applies the retention, and warns when the WAL archive fails.',
  3600,
);

/** Every minute with FISHLOG_BACKUP_TARGET=s3: copies the backup folder's new files (archived WAL, base backups) into the bucket. */
export const BACKUP_UPLOAD = scheduledSweep(
  'health.backup-upload',
  '* * * * *',
  'Copies the new files of the backup folder (archived WAL, base backups) into the S3 bucket when FISHLOG_BACKUP_TARGET=s3.',
  600,
);
