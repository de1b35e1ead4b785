import type { DbOrTx } from '../db/client.js';
import { uuidv7 } from '../db/ids.js';
import { issuedTogether } from '../db/pipeline.js';
import { notificationEvents, notifications } from './notifications.tables.js';

/**
 * The events the service tells people about. `security`: always shown in-app, whatever the
 * recipient's preferences; `inAppOnly`: never mailed. Webhooks may subscribe to any of them.
 */
export const NOTIFICATION_TYPES = {
  'charters.booking_requested': { description: 'A customer asked to book your trip (captain)' },
  'charters.booking_accepted': { description: 'The captain accepted your booking (customer)' },
  'charters.booking_declined': { description: 'The captain declined your booking (customer)' },
  'charters.booking_auto_declined': { description: 'Your booking was declined because the captain did not answer within 24 h (customer)' },
  'charters.booking_canceled': { description: 'A booking was canceled (customer)' },
  'charters.booking_weather_canceled': { description: 'The captain canceled your trip for the weather (customer)' },
  'payments.refund_issued': { description: 'Money was refunded to you (payer)' },
  'charters.captain_verified': { description: 'Your captain application was verified' },
  'charters.captain_rejected': { description: 'Your captain application was rejected' },
  'tournaments.organizer_verified': { description: 'Your organizer profile was verified' },
  'tournaments.organizer_suspended': { description: 'Your organizer profile was suspended' },
  'tournaments.approved': { description: 'Your tournament was approved (organizer)' },
  'tournaments.rejected': { description: 'Your tournament was rejected (organizer)' },
  'tournaments.suspended': { description: 'Your tournament was suspended (organizer)' },
  'tournaments.registration_confirmed': { description: 'Your tournament registration is confirmed (angler)' },
  'tournaments.results_published': { description: 'The results of a tournament you registered for are published' },
  'masterangler.submission_decided': { description: 'A reviewer approved or rejected your Master Angler submission' },
  'bans.issued': { description: 'You were banned', security: true },
  'bans.lifted': { description: 'Your ban was lifted', security: true },
  'bans.appeal_decided': { description: 'Your ban appeal was decided', security: true },
  'employees.role_changed': { description: 'Your role changed', security: true },
  'employees.permission_changed': { description: 'A permission of yours was granted, denied or revoked', security: true },
  'moderation.post_rejected': { description: 'Moderation rejected your post (author)' },
  'moderation.photo_rejected': { description: 'A moderator rejected a photo of your post or fishing report (owner)' },
  'reports.resolved': { description: 'A report you made was resolved (reporter)' },
  'clubs.join_requested': { description: 'Someone asked to join your club (club admins)' },
  'clubs.join_decided': { description: 'Your request to join a club was decided' },
  'events.approved': { description: 'Your event was approved (creator)' },
  'events.registration_confirmed': { description: 'Your event registration is confirmed' },
  'personalbests.new': { description: 'You set a new personal best', inAppOnly: true },
  'accounts.export_ready': { description: 'The copy of your data you asked for is ready to download (for 7 days)' },
} as const satisfies Record<string, { description: string; security?: boolean; inAppOnly?: boolean }>;

export type NotificationType = keyof typeof NOTIFICATION_TYPES;
export const NOTIFICATION_TYPE_NAMES = Object.keys(NOTIFICATION_TYPES) as NotificationType[];

export const isSecurityType = (type: string): boolean => (NOTIFICATION_TYPES as Record<string, { security?: boolean }>)[type]?.security === true;
export const isInAppOnlyType = (type: string): boolean => (NOTIFICATION_TYPES as Record<string, { inAppOnly?: boolean }>)[type]?.inAppOnly === true;

export interface Recipient {
  userId: string;
  /** Short, written from what this recipient may see (never another customer's name, a private entry's title…). */
  title: string;
  body: string;
}

export interface NotificationEvent {
  type: NotificationType;
  /** The API path of the record (`/api/charter/bookings/{id}`). */
  path: string;
  /** The record's public view, for webhook deliveries. */
  payload: Record<string, unknown>;
  recipients: Recipient[];
}

/**
 * Writes an event and its recipients' notifications in the caller's transaction: a rolled-back
 * change leaves none, a committed one cannot lose them. A trigger tells the dispatchers (NOTIFY
 * at commit); the dispatch job delivers by e-mail and webhooks.
 */
export async function notify(tx: DbOrTx, event: NotificationEvent): Promise<string> {
  const id = uuidv7();
  const recipients = event.recipients.filter((recipient, i, all) => all.findIndex((other) => other.userId === recipient.userId) === i);
  // Both rows in one round trip (the transaction's connection pipelines; PostgreSQL runs them in order).
  await issuedTogether(tx, () =>
    Promise.all([
      tx.insert(notificationEvents).values({ id, type: event.type, path: event.path, payload: event.payload }),
      recipients.length > 0
        ? tx.insert(notifications).values(recipients.map((recipient) => ({ id: uuidv7(), eventId: id, recipientId: recipient.userId, type: event.type, title: recipient.title, body: recipient.body, path: event.path })))
        : undefined,
    ]),
  );
  return id;
}
