/**
 * Words shared by the moderation pipeline and the modules whose content it checks.
 * - Published: passed moderation (or a moderator approved it); seen as far as its visibility allows.
 * - PendingReview: held for a moderator; its author sees it with this status, nobody else does.
 * - Rejected: refused by a rule, the auto-reject threshold or a moderator; its author sees the reason.
 */
export const CONTENT_STATUSES = ['Published', 'PendingReview', 'Rejected'] as const;
export type ContentStatus = (typeof CONTENT_STATUSES)[number];

/** What the review queue holds: a post or a comment. */
export const CONTENT_TYPES = ['post', 'comment'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

/**
 * What moderation checks: the queue's content types, fishing reports (checked with the rules
 * for posts, reviewed in their own module) and the photos of posts and reports (the image only).
 */
export const MODERATED_TYPES = [...CONTENT_TYPES, 'fishing_report', 'photo'] as const;
export type ModeratedType = (typeof MODERATED_TYPES)[number];

/** Why an item waits in the review queue. */
export const HOLD_REASONS = ['flagged', 'rule', 'provider_error', 'provider_timeout', 'rule_timeout', 'edited_after_rejection'] as const;
export type HoldReason = (typeof HOLD_REASONS)[number];

export const QUEUE_STATUSES = ['Pending', 'Approved', 'Rejected'] as const;
export type QueueStatus = (typeof QUEUE_STATUSES)[number];

export const RULE_KINDS = ['keyword', 'regex'] as const;
export type RuleKind = (typeof RULE_KINDS)[number];
export const RULE_ACTIONS = ['flag', 'reject'] as const;
export type RuleAction = (typeof RULE_ACTIONS)[number];

/** Outcome of one provider call, as recorded for cost tracking. */
export const CALL_OUTCOMES = ['clean', 'flagged', 'error', 'timeout'] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];
