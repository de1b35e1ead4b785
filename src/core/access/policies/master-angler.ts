import { definePolicy, ownerOnly } from '../policy.js';

/**
 * Master Angler submissions: the submitter alone reads and resubmits theirs (reviewers work
 * through the admin routes, permission Regulations.Edit). A catch may be submitted only by its
 * owner, even when its log entry is shared with the caller.
 */

export interface SubmissionRecord {
  readonly ownerId: string;
}

export const masterAnglerSubmissionPolicy = definePolicy<SubmissionRecord, 'read' | 'resubmit'>('masterAnglerSubmissions', {
  read: ownerOnly({ code: 'regulations.submission_not_yours', detail: 'Master Angler submissions are visible to their submitter only.' }),
  resubmit: ownerOnly({ code: 'regulations.submission_not_yours', detail: 'Only the submitter may resubmit a Master Angler entry.' }),
});

export const masterAnglerCatchPolicy = definePolicy<SubmissionRecord, 'submit'>('masterAnglerCatches', {
  submit: ownerOnly({ code: 'regulations.not_your_catch', detail: 'You may submit only your own catches to a Master Angler program.' }),
});
