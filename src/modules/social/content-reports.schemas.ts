import { Type } from 'typebox';
import { pascalEnum } from '../../core/http/enums.js';
import { Timestamp, Uuid } from '../../core/http/schemas.js';
import { REPORT_REASONS, REPORT_STATUSES, REPORT_TARGET_TYPES } from './content-reports.tables.js';

export const ReportReasonSchema = Type.Union(
  REPORT_REASONS.map((r) => Type.Literal(r)),
  { description: 'What is wrong with it' },
);
/** Post, Comment or User; `post`, `comment`, `user` are still accepted. */
export const ReportTargetTypeEnum = pascalEnum(REPORT_TARGET_TYPES, 'What was reported: Post, Comment or User.');
export const ReportTargetTypeSchema = ReportTargetTypeEnum.output;
export const ReportStatusSchema = Type.Union(REPORT_STATUSES.map((s) => Type.Literal(s)));

export const ReportBody = Type.Object(
  {
    reason: ReportReasonSchema,
    details: Type.Optional(Type.String({ maxLength: 2000, description: 'What a moderator should know' })),
  },
  { additionalProperties: false },
);

export const FiledReport = Type.Object(
  {
    id: Uuid,
    targetType: ReportTargetTypeSchema,
    targetId: Uuid,
    reason: ReportReasonSchema,
    details: Type.Union([Type.String(), Type.Null()]),
    status: ReportStatusSchema,
    createdAt: Timestamp,
  },
  { additionalProperties: false, $id: 'FiledReport' },
);
