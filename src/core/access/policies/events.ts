import { conflict, definePolicy, isAdmin, isOwner, type Rule } from '../policy.js';
import { ownerShownTo } from './common.js';

/**
 * Community events. An approved, active event is seen by everyone; one pending approval,
 * rejected or deactivated only by its creator (who sees the rejection reason) and
 * administrators. Registration: approved and active events only (a state conflict, 409, for the
 * creator and administrators who see an event that is not open; a 403 for those who cannot see it).
 * An event whose creator's account is deactivated (its deletion pending: core/access/visibility.ts)
 * is seen only by its creator and administrators until the creator cancels.
 */
export interface EventRecord {
  readonly ownerId: string;
  readonly status: string;
  readonly isActive: boolean;
}

const view: Rule<EventRecord> = async (viewer, event, context) => {
  if (isOwner(viewer, event) || isAdmin(viewer)) return true;
  if (!(event.status === 'Approved' && event.isActive)) return { code: 'events.not_public', detail: 'This event is not approved (or was withdrawn); only its creator and administrators can see it.' };
  return (await ownerShownTo(viewer, event.ownerId, context))
    ? true
    : { code: 'events.not_visible', detail: 'The account of this event’s creator is deactivated: the event is not shown meanwhile.' };
};

export const eventPolicy = definePolicy<EventRecord, 'view' | 'register'>('events', {
  view,
  register: async (viewer, event, context) => {
    const seen = await view(viewer, event, context);
    if (seen !== true) return seen;
    return event.status === 'Approved' && event.isActive ? true : conflict('events.not_open', 'Registration opens once the event is approved.');
  },
});
