import { Type, type Static } from 'typebox';
import { feedQuery } from '../../core/http/pagination.js';
import { literals, Nullable, Timestamp, Uuid } from '../../core/http/schemas.js';
import { NOTIFICATION_TYPE_NAMES } from '../../core/notifications/outbox.js';

export const NotificationTypeEnum = literals(NOTIFICATION_TYPE_NAMES, 'What happened');

export const NotificationsQuery = feedQuery({
  unread: Type.Optional(Type.Boolean({ description: 'true: only notifications not read yet' })),
});
export type NotificationsQueryType = Static<typeof NotificationsQuery>;

export const NOTIFICATION_EXAMPLE = {
  id: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21',
  type: 'charters.booking_accepted',
  title: 'Booking accepted',
  body: 'Your booking of "Half-day inshore" on 2026-07-04 06:00 was accepted by the captain.',
  path: '/api/charter/bookings/0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d22',
  createdAt: '2026-06-01T05:30:00.000Z',
  readAt: null,
};

export const Notification = Type.Object(
  {
    id: Uuid,
    type: NotificationTypeEnum,
    title: Type.String(),
    body: Type.String(),
    path: Type.String({ description: 'API path of the record the notification is about' }),
    createdAt: Timestamp,
    readAt: Nullable(Timestamp),
  },
  { $id: 'Notification', additionalProperties: false, examples: [NOTIFICATION_EXAMPLE] },
);

export const UnreadCount = Type.Object({ unread: Type.Integer({ minimum: 0 }) }, { additionalProperties: false, examples: [{ unread: 3 }] });
export const ReadAllResult = Type.Object({ marked: Type.Integer({ minimum: 0, description: 'Notifications newly marked read' }) }, { additionalProperties: false, examples: [{ marked: 3 }] });

export const Preference = Type.Object(
  {
    type: NotificationTypeEnum,
    description: Type.String(),
    security: Type.Boolean({ description: 'A security notice: always shown in-app' }),
    inApp: Type.Boolean(),
    email: Type.Boolean({ description: 'Mailed (false: never; always false for in-app-only notices)' }),
    emailAvailable: Type.Boolean({ description: 'false for notices that are never mailed' }),
  },
  { $id: 'NotificationPreference', additionalProperties: false },
);

export const PREFERENCES_EXAMPLE = [
  { type: 'charters.booking_requested', description: 'A customer asked to book your trip (captain)', security: false, inApp: true, email: false, emailAvailable: true },
  { type: 'bans.issued', description: 'You were banned', security: true, inApp: true, email: true, emailAvailable: true },
];

export const PreferencesBody = Type.Object(
  {
    preferences: Type.Array(
      Type.Object(
        {
          type: NotificationTypeEnum,
          inApp: Type.Optional(Type.Boolean({ description: 'Show it in-app (always true for security notices)' })),
          email: Type.Optional(Type.Boolean({ description: 'Mail it' })),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 100 },
    ),
  },
  { additionalProperties: false, examples: [{ preferences: [{ type: 'charters.booking_requested', email: false }] }] },
);
export type PreferencesBodyType = Static<typeof PreferencesBody>;

export const UnsubscribeQuery = Type.Object({ ref: Type.String({ minLength: 1, maxLength: 512, pattern: '^[A-Za-z0-9_-]+$', description: 'From the mail' }) }, { additionalProperties: false });
export const UnsubscribeResult = Type.Object(
  { type: Type.String({ description: 'The kind of notice whose e-mail is now off' }), email: Type.Boolean({ description: 'Always false: that kind of e-mail is off' }) },
  { additionalProperties: false, examples: [{ type: 'charters.booking_requested', email: false }] },
);
