import { Type, type Static } from 'typebox';
import { listQuery } from '../../core/http/pagination.js';
import { literals, Nullable, Timestamp, Uuid } from '../../core/http/schemas.js';
import { RequiredReasonBody } from '../../core/admin/lifecycle.js';
import { NotificationTypeEnum } from './notifications.schemas.js';
import { WEBHOOK_DELIVERY_STATUSES } from './notifications.tables.js';

export const WEBHOOK_EXAMPLE = {
  id: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21',
  url: 'https://club.example.com/fishlog/webhook',
  description: 'Club site: bookings',
  eventTypes: ['charters.booking_requested', 'charters.booking_accepted'],
  isActive: true,
  deactivatedAt: null,
  deactivationReason: null,
  createdAt: '2026-06-01T05:30:00.000Z',
  updatedAt: '2026-06-01T05:30:00.000Z',
};

export const Webhook = Type.Object(
  {
    id: Uuid,
    url: Type.String(),
    description: Nullable(Type.String()),
    eventTypes: Type.Array(Type.String()),
    isActive: Type.Boolean(),
    deactivatedAt: Nullable(Timestamp),
    deactivationReason: Nullable(Type.String()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'Webhook', additionalProperties: false, examples: [WEBHOOK_EXAMPLE] },
);

export const CreatedWebhook = Type.Object(
  {
    ...Webhook.properties,
    secret: Type.String({ description: 'The signing secret: shown this once. Verify `X-Fishlog-Signature` (t=…,v1=HMAC-SHA256 of "t.body") with it.' }),
  },
  { additionalProperties: false, examples: [{ ...WEBHOOK_EXAMPLE, secret: 'whsec_2b7c0f3d0c8e4b1a9d6f5e4c3b2a1908' }] },
);

export const CreateWebhookBody = Type.Object(
  {
    url: Type.String({ minLength: 8, maxLength: 2000, description: 'https:// URL of the receiver (no private, loopback or link-local address)' }),
    eventTypes: Type.Array(NotificationTypeEnum, { minItems: 1, maxItems: 100, uniqueItems: true }),
    description: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    reason: RequiredReasonBody.properties.reason,
  },
  { additionalProperties: false, examples: [{ url: 'https://club.example.com/fishlog/webhook', eventTypes: ['charters.booking_requested'], description: 'Club site', reason: 'Club site integration' }] },
);
export type CreateWebhookBodyType = Static<typeof CreateWebhookBody>;

export const WebhooksQuery = listQuery({
  status: Type.Optional(literals(['Active', 'Inactive', 'All'] as const, 'Active (default), Inactive or All')),
});

export const DeliveriesQuery = listQuery({
  status: Type.Optional(literals(WEBHOOK_DELIVERY_STATUSES, 'Pending (being retried), Succeeded or Failed (retries used up)')),
});

export const RetryDeliveryBody = Type.Object(RequiredReasonBody.properties, {
  additionalProperties: false,
  description: 'Why it is sent again: required, kept in the audit log',
  examples: [{ reason: 'The club site was down for maintenance until this morning' }],
});

export const DeliveryParams = Type.Object({ id: Uuid, deliveryId: Uuid }, { additionalProperties: false });

export const DELIVERY_EXAMPLE = {
  id: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d22',
  eventId: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d23',
  type: 'charters.booking_requested',
  status: 'Pending',
  attempts: 2,
  responseStatus: 503,
  responseBody: 'Service Unavailable',
  error: 'HTTP 503',
  lastAttemptAt: '2026-06-01T05:31:00.000Z',
  createdAt: '2026-06-01T05:30:00.000Z',
};

export const WebhookDelivery = Type.Object(
  {
    id: Uuid,
    eventId: Nullable(Uuid),
    type: Type.String({ description: 'The event type, or `ping`' }),
    status: literals(WEBHOOK_DELIVERY_STATUSES),
    attempts: Type.Integer({ minimum: 0 }),
    responseStatus: Nullable(Type.Integer({ description: 'HTTP status of the last attempt' })),
    responseBody: Nullable(Type.String({ description: 'The first 1 KB of the last answer' })),
    error: Nullable(Type.String()),
    lastAttemptAt: Nullable(Timestamp),
    createdAt: Timestamp,
  },
  { $id: 'WebhookDelivery', additionalProperties: false, examples: [DELIVERY_EXAMPLE] },
);
