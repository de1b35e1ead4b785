import { canSee } from '../visibility.js';
import type { Refusal, Rule } from '../policy.js';

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
