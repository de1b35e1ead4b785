import { scheduledSweep } from '../../core/jobs/jobs.js';

/** Every minute: declines Pending bookings past their 24 h (full refund) and completes ended trips. */
export const CHARTERS_SWEEP = scheduledSweep(
  'charters.sweep',
  '* * * * *',
  'Declines Pending bookings the captain did not accept within 24 h (full refund) and completes Confirmed trips that have ended.',
);
