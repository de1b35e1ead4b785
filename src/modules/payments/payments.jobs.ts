import { scheduledSweep } from '../../core/jobs/jobs.js';

/** Hourly: forgets idempotency keys older than their 24 h. */
export const IDEMPOTENCY_PURGE = scheduledSweep('payments.idempotency-purge', '17 * * * *', 'Deletes payment idempotency keys past their 24 h.', 300);
