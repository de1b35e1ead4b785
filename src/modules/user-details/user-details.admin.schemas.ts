import { Type } from 'typebox';
import { ROLES } from '../../core/access/roles.js';
import { listQuery } from '../../core/http/pagination.js';
import { literals, Nullable, Timestamp } from '../../core/http/schemas.js';
import { AdminUser } from '../users/index.js';
import { TimelineKindEnum } from './user-details.admin.service.js';

const count = (description: string) => Type.Integer({ minimum: 0, description });

export const AdminUserDetails = Type.Object(
  {
    ...AdminUser.properties,
    profile: Type.Object(
      {
        displayName: Nullable(Type.String()),
        homeState: Nullable(Type.String()),
        homeRegion: Nullable(Type.String()),
        avatarUrl: Nullable(Type.String()),
        visibility: Type.String(),
      },
      { additionalProperties: false },
    ),
    counts: Type.Object(
      {
        entries: count('Fishing-log entries'),
        catches: count('Catches'),
        posts: count('Posts'),
        comments: count('Comments'),
        reportsAgainst: count('Reports about the user or their content'),
        openReportsAgainst: count('Of which still open'),
        reportsFiled: count('Reports the user filed'),
        bans: count('Bans, in force or not'),
        signIns: count('Successful sign-ins'),
      },
      { additionalProperties: false },
    ),
    bans: Type.Array(Type.Ref('Ban'), { maxItems: 20, description: 'The 20 latest bans, newest first, with their appeals' }),
  },
  { $id: 'AdminUserDetails', additionalProperties: false },
);

export const TimelineItem = Type.Object(
  {
    at: Timestamp,
    kind: TimelineKindEnum.output,
    id: Type.String({ description: 'Id of the record (entry, catch, post, comment, report, sign-in, ban, audit entry)' }),
    title: Nullable(Type.String(), { description: 'Entry title, ban or lift reason, role-change reason; nothing private' }),
    detail: Nullable(Type.String(), { description: 'Status, visibility, related ids, IP of a sign-in, role before → after' }),
  },
  {
    $id: 'TimelineItem',
    additionalProperties: false,
    examples: [{ at: '2026-06-01T05:30:00.000Z', kind: 'Entry', id: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d25', title: 'Dawn on Mille Lacs', detail: 'Friends' }],
  },
);

export const TimelineQuery = listQuery({});

export const RoleChangeBody = Type.Object(
  {
    role: literals(ROLES),
    reason: Type.String({ minLength: 1, maxLength: 1000, pattern: '\\S', description: 'Why (audit log)' }),
  },
  { additionalProperties: false, examples: [{ role: 'Researcher', reason: 'Approved research access request #42' }] },
);
