import { definePolicy, ownerOnly } from '../policy.js';
import { visibleRecord, type VisibleRecord } from './common.js';

/** Fishing-log entries: read by visibility; changed, deleted, added to and linked (from a post) by their owner only. */

export type EntryRecord = VisibleRecord;

const notOwner = { code: 'fishinglog.not_entry_owner', detail: 'Only the owner of this log entry may change it or add catches to it.' };

export const entryPolicy = definePolicy<EntryRecord, 'read' | 'update' | 'delete' | 'addCatch' | 'link'>('entries', {
  read: visibleRecord({ code: 'fishinglog.entry_not_visible', detail: 'This log entry is not shared with you.' }),
  update: ownerOnly(notOwner),
  delete: ownerOnly(notOwner),
  addCatch: ownerOnly(notOwner),
  link: ownerOnly({ code: 'social.link_not_owned', detail: 'You can link only your own fishing-log entries.' }),
});
