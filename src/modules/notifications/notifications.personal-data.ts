import { sql } from 'drizzle-orm';
import type { PersonalData } from '../../core/personal-data.js';

/** What the notifications module keeps about a person, and what erasing their account does to it (core/personal-data.ts). */
export const notificationsPersonalData: PersonalData = {
  module: 'notifications',
  columns: [
    { table: 'notifications', column: 'recipient_id', action: 'delete', reason: 'In-app notifications received.' },
    { table: 'notification_preferences', column: 'user_id', action: 'delete', reason: 'Notification preferences.' },
    { table: 'webhook_endpoints', column: 'created_by', action: 'keep', reason: 'Staff attribution of a webhook endpoint.' },
  ],
  async erase(tx, userId) {
    // The local mailbox (mail kept instead of sent, `fishlog mail list`): the mails to the person's address.
    await tx.execute(sql`
      DELETE FROM mailbox_messages m USING users u
      WHERE u.id = ${userId} AND u.email IS NOT NULL AND (lower(m."to") = lower(u.email) OR lower(m."to") LIKE '%<' || lower(u.email) || '>')`);
  },
};
