import { scheduledSweep, type JobSpec } from '../../core/jobs/jobs.js';

/**
 * Deliveries of the outbox: the dispatch turns each new event into mail jobs (one per recipient)
 * and webhook deliveries (one per endpoint); it is woken at each commit of an event and sweeps
 * every minute for what a process missed.
 */
export const NOTIFICATIONS_DISPATCH = scheduledSweep('notifications.dispatch', '* * * * *', 'Fans each new notification event out to its mails and webhook deliveries.');

/** One notification mailed to its recipient (SMTP or the local mailbox); retried with backoff for about a day. */
export const NOTIFICATION_EMAIL: JobSpec = {
  name: 'notifications.email',
  description: 'Mails one notification to its recipient, unless they turned that kind of mail off.',
  policy: 'standard',
  retryLimit: 11,
  retryDelaySeconds: 30,
  retryBackoff: true,
  expireInSeconds: 120,
};

/** One webhook delivery; retried with exponential backoff for 24 hours (30 s, 1 min, 2 min … 8.5 h). */
export const WEBHOOK_DELIVERY: JobSpec = {
  name: 'notifications.webhook',
  description: 'Posts one signed event to one webhook endpoint.',
  policy: 'standard',
  retryLimit: 11,
  retryDelaySeconds: 30,
  retryBackoff: true,
  expireInSeconds: 60,
};
