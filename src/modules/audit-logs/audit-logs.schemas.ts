import { Type, type Static } from 'typebox';
import { periodQuery } from '../../core/http/period.js';
import { literals, Nullable, Timestamp, Uuid } from '../../core/http/schemas.js';

export const AUDIT_PAGE_MAX = 100;

const ActionName = Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_.:-]+$', description: 'An action name, e.g. `species.created`', examples: ['species.created'] });

export const AuditLogQuery = Type.Object(
  {
    action: Type.Optional(ActionName),
    actionPrefix: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_.:-]+$', description: 'Actions starting with this, e.g. `species.`', examples: ['species.'] })),
    actorId: Type.Optional({ ...Uuid, description: 'The acting user' }),
    actorType: Type.Optional(literals(['User', 'System'] as const, 'A user through the API, or an operator through the CLI')),
    targetType: Type.Optional(Type.String({ minLength: 1, maxLength: 100, examples: ['species'] })),
    targetId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, examples: ['0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21'] })),
    from: Type.Optional({ ...Timestamp, description: 'Entries at or after this instant' }),
    to: Type.Optional({ ...Timestamp, description: 'Entries before this instant' }),
    outcome: Type.Optional(literals(['Success', 'Failure'] as const, 'What happened: done, or a refused/failed attempt')),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Full-text search in the reason (words; "quoted phrases", -excluded, or)', examples: ['spam'] })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description: 'The `X-Next-Cursor` of the previous page' })),
    limit: Type.Integer({ minimum: 1, maximum: AUDIT_PAGE_MAX, default: 50, description: `Entries per page (1-${AUDIT_PAGE_MAX})` }),
  },
  { additionalProperties: false },
);
export type AuditLogQueryType = Static<typeof AuditLogQuery>;

export const AuditLogEntry = Type.Object(
  {
    id: Type.Integer({ minimum: 1, description: 'Position in the chain' }),
    occurredAt: Timestamp,
    actorType: literals(['User', 'System'] as const),
    actorUserId: Nullable(Uuid),
    actorUsername: Nullable(Type.String({ description: 'The actor’s current username' })),
    action: Type.String({ examples: ['species.created'] }),
    targetType: Nullable(Type.String()),
    targetId: Nullable(Type.String()),
    reason: Nullable(Type.String()),
    before: Type.Unknown({ description: 'Snapshot before the change (secrets redacted), or null' }),
    after: Type.Unknown({ description: 'Snapshot after the change (secrets redacted), or null' }),
    ipAddress: Nullable(Type.String()),
    userAgent: Nullable(Type.String()),
    requestId: Nullable(Type.String()),
    outcome: literals(['Success', 'Failure'] as const),
    chain: Type.Integer({
      minimum: 0,
      description: 'The hash chain the entry links into: writers in parallel transactions use different chains (0 when nothing else was being written)',
    }),
    prevHash: Type.String({ description: 'Hash of the previous entry of its chain (64 zeros for the first)' }),
    hash: Type.String({ description: 'HMAC-SHA-256 of the previous hash and this entry, keyed with FISHLOG_AUDIT_KEY' }),
  },
  { additionalProperties: false, $id: 'AuditLogEntry' },
);

export const AuditStatisticsQuery = Type.Object(
  {
    ...periodQuery,
    top: Type.Integer({ minimum: 1, maximum: 50, default: 10, description: 'How many admins and actions to list' }),
  },
  { additionalProperties: false },
);

export const AuditStatistics = Type.Object(
  {
    from: Timestamp,
    to: Timestamp,
    total: Type.Integer({ minimum: 0 }),
    mostActiveActors: Type.Array(
      Type.Object({ userId: Uuid, username: Nullable(Type.String()), role: Nullable(Type.String()), count: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
      { maxItems: 50, description: 'Users with the most entries (employees and Owner first in practice)' },
    ),
    mostCommonActions: Type.Array(Type.Object({ action: Type.String(), count: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }), { maxItems: 50 }),
    perDay: Type.Array(Type.Object({ day: Type.String({ format: 'date', examples: ['2026-06-01'] }), count: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }), {
      maxItems: 400,
      description: 'Entries per UTC day, zero-filled',
    }),
  },
  { additionalProperties: false, $id: 'AuditStatistics' },
);

export const AuditExportQuery = Type.Object(
  {
    format: literals(['csv', 'ndjson'] as const, 'CSV (RFC 4180, a header line) or NDJSON (one JSON object a line)'),
    from: Type.Optional({ ...Timestamp, description: 'First entry at or after this instant (default: the first entry)' }),
    to: Type.Optional({ ...Timestamp, description: 'Entries before this instant (default: now)' }),
  },
  { additionalProperties: false },
);
export type AuditExportQueryType = Static<typeof AuditExportQuery>;
