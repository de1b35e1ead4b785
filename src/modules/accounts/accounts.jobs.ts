import { scheduledSweep } from '../../core/jobs/jobs.js';

/** Every 15 minutes: erases the accounts whose deletion's grace period has ended (unless on legal hold). */
export const ACCOUNTS_ERASE = scheduledSweep(
  'accounts.erase',
  '*/15 * * * *',
  'Erases the accounts whose deletion grace period has ended and that no legal hold keeps; deletes their identity-provider users.',
  600,
);
