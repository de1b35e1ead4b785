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
    // Events about the person (a friend request, a comment, a booking: their public view names them) are
    // forgotten: the others' in-app notifications of them are deleted and the events keep no view.
    await tx.execute(sql`
      WITH about AS (SELECT id FROM notification_events WHERE strpos(payload::text, ${userId}) > 0),
           gone AS (DELETE FROM notifications WHERE event_id IN (SELECT id FROM about))
      UPDATE notification_events SET payload = '{}'::jsonb WHERE id IN (SELECT id FROM about)`);
    // The local mailbox (mail kept instead of sent, `fishlog mail list`): the mails to the person's address.
    await tx.execute(sql`
      DELETE FROM mailbox_messages m USING users u
      WHERE u.id = ${userId} AND u.email IS NOT NULL AND (lower(m."to") = lower(u.email) OR lower(m."to") LIKE '%<' || lower(u.email) || '>')`);
  },
};
