import { definePolicy, ownerOnly } from '../policy.js';
import { canSee } from '../visibility.js';

/**
 * Catches: seen as far as their entry is seen; changed by their owner; `link` is whether a post
 * may point at it. What only the owner sees of a catch (its gear setup) is the view's `isOwner`.
 */

export interface CatchRecord {
  readonly ownerId: string;
  /** The visibility of the catch's entry. */
  readonly visibility: string;
}

const notOwner = { code: 'fishinglog.not_entry_owner', detail: 'Only the owner of this log entry may change it or add catches to it.' };

export const catchPolicy = definePolicy<CatchRecord, 'read' | 'update' | 'delete' | 'link'>('catches', {
  read: async (viewer, record, context) => ((await canSee(context, viewer.userId, record)) ? true : { code: 'fishinglog.entry_not_visible', detail: 'This log entry is not shared with you.' }),
  update: ownerOnly(notOwner),
  delete: ownerOnly(notOwner),
  link: ownerOnly({ code: 'social.link_not_owned', detail: 'You can link only your own catches.' }),
});
