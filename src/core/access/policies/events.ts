import { conflict, definePolicy, isAdmin, isOwner, type Rule } from '../policy.js';

/**
 * Community events. An approved, active event is seen by everyone; one pending approval,
 * rejected or deactivated only by its creator (who sees the rejection reason) and
 * administrators. Registration: approved and active events only (a state conflict, 409, for the
 * creator and administrators who see an event that is not open; a 403 for those who cannot see it).
 */
export interface EventRecord {
  readonly ownerId: string;
  readonly status: string;
  readonly isActive: boolean;
}

const view: Rule<EventRecord> = (viewer, event) =>
  (event.status === 'Approved' && event.isActive) || isOwner(viewer, event) || isAdmin(viewer)
    ? true
    : { code: 'events.not_public', detail: 'This event is not approved (or was withdrawn); only its creator and administrators can see it.' };

export const eventPolicy = definePolicy<EventRecord, 'view' | 'register'>('events', {
  view,
  register: async (viewer, event, context) => {
    const seen = await view(viewer, event, context);
    if (seen !== true) return seen;
    return event.status === 'Approved' && event.isActive ? true : conflict('events.not_open', 'Registration opens once the event is approved.');
  },
});
