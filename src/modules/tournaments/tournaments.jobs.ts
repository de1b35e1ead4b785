import { scheduledSweep } from '../../core/jobs/jobs.js';

/** Every minute: starts and completes tournaments by the clock. */
export const TOURNAMENT_STATUSES = scheduledSweep('tournaments.statuses', '* * * * *', 'Starts Approved tournaments whose start has come and completes running ones whose end has passed.');
