import { canSee, isOwnerShown } from '../visibility.js';
import { isOwner, type PolicyContext, type Refusal, type Rule, type Viewer } from '../policy.js';

/** Rule building blocks shared by the record policies. */

/** A record shown by its owner's choice of visibility (Public, Private, Friends, Circle). */
export interface VisibleRecord {
  readonly ownerId: string;
  readonly visibility: string;
}

/** Allowed when the record's visibility admits the viewer (the owner always). */
export function visibleRecord<R extends VisibleRecord>(refusal: Refusal | ((record: R) => Refusal)): Rule<R> {
  return async (viewer, record, context) => ((await canSee(context, viewer.userId, record)) ? true : typeof refusal === 'function' ? refusal(record) : refusal);
}

/**
 * Whether a record of `ownerId` without a visibility of its own (a spot, a fishing report) is
 * shown to `viewer`: always to its owner; to others unless the owner's account is deactivated (a
 * deletion pending: visibility.ts). A record nobody owns (reference data) is shown.
 */
export async function ownerShownTo(viewer: Viewer, ownerId: string | null, context: PolicyContext): Promise<boolean> {
  return ownerId === null || isOwner(viewer, { ownerId }) || isOwnerShown(context, ownerId);
}
