import { Type } from 'typebox';
import { listQuery } from '../../core/http/pagination.js';
import { Timestamp, Uuid } from '../../core/http/schemas.js';
import { ReportReasonSchema, ReportStatusSchema, ReportTargetTypeEnum, ReportTargetTypeSchema } from './content-reports.schemas.js';
import { REPORT_RESOLUTIONS } from './content-reports.tables.js';

const Resolution = Type.Union(REPORT_RESOLUTIONS.map((r) => Type.Literal(r)), {
  description: 'NoViolation: nothing wrong; ContentRejected: the reported post or comment is rejected (its author sees the note as the reason); ActionTaken: handled otherwise, say how in the note',
});

export const AdminReport = Type.Object(
  {
    id: Uuid,
    targetType: ReportTargetTypeSchema,
    targetId: Uuid,
    target: Type.Object(
      {
        user: Type.Union([Type.Ref('UserRef'), Type.Null()], { description: 'The reported user, or the author of the reported content' }),
        state: Type.Union([Type.Literal('Published'), Type.Literal('PendingReview'), Type.Literal('Rejected'), Type.Literal('Deleted'), Type.Literal('Active')], {
          description: 'The content now (its moderation status, or Deleted); Active for a user',
        }),
        snapshot: Type.Object(
          {
            text: Type.Optional(Type.String()),
            photoUrls: Type.Optional(Type.Array(Type.String())),
            postId: Type.Optional(Uuid),
            username: Type.Optional(Type.String()),
          },
          { additionalProperties: false, description: 'What the reporter saw when reporting' },
        ),
      },
      { additionalProperties: false },
    ),
    reporter: Type.Ref('UserRef'),
    reason: ReportReasonSchema,
    details: Type.Union([Type.String(), Type.Null()]),
    status: ReportStatusSchema,
    resolution: Type.Union([Resolution, Type.Null()]),
    resolutionNote: Type.Union([Type.String(), Type.Null()]),
    resolvedBy: Type.Union([Type.Ref('UserRef'), Type.Null()]),
    resolvedAt: Type.Union([Timestamp, Type.Null()]),
    createdAt: Timestamp,
  },
  { additionalProperties: false, $id: 'AdminReport' },
);

export const ReportsQuery = listQuery({
  status: Type.Optional(ReportStatusSchema),
  targetType: Type.Optional(ReportTargetTypeEnum.input),
  targetId: Type.Optional(Uuid),
});

export const ResolveBody = Type.Object(
  {
    resolution: Resolution,
    note: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'What was decided and why (audit-logged; shown to the author as the reason with ContentRejected)' })),
  },
  { additionalProperties: false },
);
