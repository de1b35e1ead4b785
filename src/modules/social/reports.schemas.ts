import { Type } from 'typebox';
import { Timestamp, Uuid } from '../../core/http/schemas.js';
import { REPORT_REASONS, REPORT_STATUSES, REPORT_TARGET_TYPES } from './reports.tables.js';

export const ReportReasonSchema = Type.Union(
  REPORT_REASONS.map((r) => Type.Literal(r)),
  { description: 'What is wrong with it' },
);
export const ReportTargetTypeSchema = Type.Union(REPORT_TARGET_TYPES.map((t) => Type.Literal(t)));
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
