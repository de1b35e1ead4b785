import { definePolicy, ownerOnly } from '../policy.js';

/** A notification is its recipient's alone (the owner here is the recipient). */

export interface NotificationRecord {
  readonly ownerId: string;
}

const ownNotification = ownerOnly<NotificationRecord>({ code: 'notifications.not_recipient', detail: 'This notification was sent to another user; you can read and mark only your own.' });

export const notificationPolicy = definePolicy<NotificationRecord, 'read' | 'markRead'>('notifications', { read: ownNotification, markRead: ownNotification });
