import { scheduledSweep } from '../../core/jobs/jobs.js';

/** Daily: deletes sync tombstones older than SyncTombstoneRetentionDays (a device that pulled before them re-syncs fully). */
export const SYNC_TOMBSTONE_PURGE = scheduledSweep('sync.tombstone-purge', '41 3 * * *', 'Deletes offline-sync tombstones past their retention (SyncTombstoneRetentionDays).', 300);
