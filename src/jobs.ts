import type { JobSpec } from './core/jobs/jobs.js';
import { CHARTERS_SWEEP } from './modules/charters/charters.jobs.js';
import { IDEMPOTENCY_PURGE } from './modules/payments/payments.jobs.js';
import { TOURNAMENT_STATUSES } from './modules/tournaments/tournaments.jobs.js';
import { NOTIFICATION_EMAIL, NOTIFICATIONS_DISPATCH, WEBHOOK_DELIVERY } from './modules/notifications/notifications.jobs.js';
import { MEDIA_SWEEP } from './modules/photos/photos.jobs.js';
import { ACCOUNTS_ERASE, ACCOUNTS_EXPORT, ACCOUNTS_EXPORT_EXPIRY } from './modules/accounts/accounts.jobs.js';
import { BACKUP_UPLOAD, BASE_BACKUP } from './modules/health/health.jobs.js';
import { SYNC_TOMBSTONE_PURGE } from './modules/sync/sync.jobs.js';

/**
 * Composition root of the job queues (core/jobs): the migrations install one queue per spec;
 * each module works its own from its routes plugin. Ban expiry and announcement windows need no
 * job: both are compared with the clock when read.
 */
export const jobSpecs: readonly JobSpec[] = [CHARTERS_SWEEP, TOURNAMENT_STATUSES, IDEMPOTENCY_PURGE, NOTIFICATIONS_DISPATCH, NOTIFICATION_EMAIL, WEBHOOK_DELIVERY, MEDIA_SWEEP, ACCOUNTS_ERASE, ACCOUNTS_EXPORT, ACCOUNTS_EXPORT_EXPIRY, BASE_BACKUP, BACKUP_UPLOAD, SYNC_TOMBSTONE_PURGE];
