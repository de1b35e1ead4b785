import { Type } from 'typebox';

/** The moderation status of content (CONTENT_STATUSES), in the views of the modules whose content moderation checks. */
export const ModerationStatusSchema = Type.Union([Type.Literal('Published'), Type.Literal('PendingReview'), Type.Literal('Rejected')], {
  description: 'Published: visible as far as its visibility allows. PendingReview: held by moderation, only its author sees it. Rejected: only its author sees it, with the reason.',
});
