import { scheduledSweep, type JobSpec } from '../../core/jobs/jobs.js';

/** Every 15 minutes: erases the accounts whose deletion's grace period has ended (unless on legal hold). */
export const ACCOUNTS_ERASE = scheduledSweep(
  'accounts.erase',
  '*/15 * * * *',
  'Erases the accounts whose deletion grace period has ended and that no legal hold keeps; deletes their identity-provider users.',
  600,
);

/** One job per export asked for (POST /api/account/export): writes the person's archive, then tells them. */
export const ACCOUNTS_EXPORT: JobSpec = {
  name: 'accounts.export',
  description: 'Writes the archive of one person’s data (every registered table, a README) and notifies them when it is ready.',
  policy: 'standard',
  retryLimit: 3,
  retryDelaySeconds: 30,
  retryBackoff: true,
  expireInSeconds: 3600,
};

/** Hourly: expires the archives older than 7 days (their files deleted), and deletes files with no live export (an erased account's, a lost job's). */
export const ACCOUNTS_EXPORT_EXPIRY = scheduledSweep(
  'accounts.export-expiry',
  '17 * * * *',
  'Expires the data archives 7 days after they were ready and deletes their files; marks exports whose job was lost as Failed.',
  600,
);
