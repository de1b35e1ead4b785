import type { PersonalData } from '../../core/personal-data.js';

/** What the notifications module keeps about a person, and what erasing their account does to it (core/personal-data.ts). */
export const notificationsPersonalData: PersonalData = {
  module: 'notifications',
  columns: [
    { table: 'notifications', column: 'recipient_id', action: 'delete', reason: 'In-app notifications received.' },
    { table: 'notification_preferences', column: 'user_id', action: 'delete', reason: 'Notification preferences.' },
    { table: 'webhook_endpoints', column: 'created_by', action: 'keep', reason: 'Staff attribution of a webhook endpoint.' },
  ],
};
