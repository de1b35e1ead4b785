import { pascalEnum } from '../../core/http/enums.js';
import { Type, type Static } from 'typebox';
import { ROLES } from '../../core/access/roles.js';
import { listQuery } from '../../core/http/pagination.js';
import { literals, Nullable, Timestamp, Uuid } from '../../core/http/schemas.js';
import { ANNOUNCEMENT_PRIORITIES, ANNOUNCEMENT_TYPES, DISMISSALS } from './announcements.tables.js';

export const ANNOUNCEMENT_STATUSES = ['scheduled', 'active', 'ended', 'inactive'] as const;
export type AnnouncementStatus = (typeof ANNOUNCEMENT_STATUSES)[number];
export const AnnouncementStatusEnum = pascalEnum(ANNOUNCEMENT_STATUSES, 'Scheduled (starts later), Active (shown now), Ended, Inactive (deactivated).');

const Title = Type.String({ minLength: 1, maxLength: 200, description: 'Headline (at most 200 characters)', examples: ['Scheduled maintenance Sunday 02:00 UTC'] });
const Body = Type.String({
  minLength: 1,
  maxLength: 5000,
  description: 'Plain text (at most 5000 characters). Clients show it as plain text: no HTML or Markdown is rendered, so there is nothing to sanitise.',
  examples: ['The service will be unavailable for about 30 minutes.'],
});
const AnnouncementTypeSchema = literals(ANNOUNCEMENT_TYPES, 'How it is styled: Info, Success, Warning or Error');
const Priority = literals(ANNOUNCEMENT_PRIORITIES, 'Low, Normal, High or Critical; higher ones are listed first');
const DismissalSchema = literals(DISMISSALS, 'Dismissible: a user may hide it; Persistent: it stays until it ends');
export const Audience = Type.Union(
  [
    Type.Literal('All'),
    Type.Array(literals(ROLES), { minItems: 1, maxItems: ROLES.length, uniqueItems: true, description: 'The roles it is shown to' }),
  ],
  { description: '"All", or the roles it is shown to', examples: ['All', ['Moderator', 'Admin']] },
);
const Reason = Type.String({ minLength: 1, maxLength: 1000, description: 'Why (kept in the audit log)', examples: ['Planned database upgrade'] });

const content = {
  title: Title,
  body: Body,
  type: AnnouncementTypeSchema,
  priority: Priority,
  endsAt: Type.Optional(Nullable(Timestamp, { description: 'When it stops being shown (later than startsAt); null or absent: open-ended' })),
  audience: Audience,
  dismissal: DismissalSchema,
  reason: Reason,
};

const example = {
  title: 'Scheduled maintenance Sunday 02:00 UTC',
  body: 'The service will be unavailable for about 30 minutes.',
  type: 'Warning',
  priority: 'High',
  startsAt: '2026-06-01T00:00:00.000Z',
  endsAt: '2026-06-07T02:30:00.000Z',
  audience: 'All',
  dismissal: 'Dismissible',
  reason: 'Planned database upgrade',
};

export const CreateAnnouncementBody = Type.Object(
  { ...content, startsAt: Type.Optional(Type.String({ format: 'date-time', description: 'When it starts being shown; absent: now', examples: ['2026-06-01T00:00:00.000Z'] })) },
  { additionalProperties: false, examples: [example] },
);
export type CreateAnnouncementBodyType = Static<typeof CreateAnnouncementBody>;

export const UpdateAnnouncementBody = Type.Object(
  { ...content, startsAt: Type.String({ format: 'date-time', description: 'When it starts being shown', examples: ['2026-06-01T00:00:00.000Z'] }) },
  { additionalProperties: false, description: 'The full new content (a replacement) and why', examples: [{ ...example, title: 'Maintenance moved to Monday 02:00 UTC', reason: 'Date changed' }] },
);
export type UpdateAnnouncementBodyType = Static<typeof UpdateAnnouncementBody>;

/** The content as responses show it. */
const shownContent = {
  title: Type.String(),
  body: Type.String({ description: 'Plain text: show it as text, never as HTML or Markdown' }),
  type: AnnouncementTypeSchema,
  priority: Priority,
  startsAt: Timestamp,
  endsAt: Nullable(Timestamp),
  audience: Audience,
  dismissal: DismissalSchema,
};

/** What a user sees: the content without the audience. */
const { audience: _audience, ...userContent } = shownContent;

export const AdminAnnouncement = Type.Object(
  {
    id: Uuid,
    ...shownContent,
    status: AnnouncementStatusEnum.output,
    version: Type.Integer({ minimum: 1, description: 'Increases with every edit; earlier versions: GET …/versions' }),
    dismissedCount: Type.Integer({ minimum: 0, description: 'Users who dismissed it' }),
    isActive: Type.Boolean({ description: 'false: deactivated, shown to nobody' }),
    deactivatedAt: Nullable(Timestamp),
    deactivationReason: Nullable(Type.String()),
    createdBy: Nullable(Uuid),
    updatedBy: Nullable(Uuid),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { additionalProperties: false, $id: 'AdminAnnouncement' },
);

export const AnnouncementVersion = Type.Object(
  {
    version: Type.Integer({ minimum: 1 }),
    ...shownContent,
    replacedBy: Nullable(Uuid),
    replacedAt: Timestamp,
    reason: Type.String({ description: 'Why it was replaced' }),
  },
  { additionalProperties: false, $id: 'AnnouncementVersion', description: 'The content of an earlier version, and the edit that replaced it' },
);

export const Announcement = Type.Object(
  {
    id: Uuid,
    ...userContent,
  },
  { additionalProperties: false, $id: 'Announcement' },
);

export const AdminAnnouncementsQuery = listQuery({
  status: Type.Optional(AnnouncementStatusEnum.input),
  type: Type.Optional(AnnouncementTypeSchema),
  priority: Type.Optional(Priority),
});
export type AdminAnnouncementsQueryType = Static<typeof AdminAnnouncementsQuery>;
