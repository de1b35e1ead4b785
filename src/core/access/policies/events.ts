import { definePolicy, isAdmin, isOwner } from '../policy.js';

/**
 * Community events. An approved, active event is seen by everyone; one pending approval,
 * rejected or deactivated only by its creator (who sees the rejection reason) and
 * administrators. Registration: approved and active events only.
 */
export interface EventRecord {
  readonly ownerId: string;
  readonly status: string;
  readonly isActive: boolean;
}


export const eventPolicy = definePolicy<EventRecord, 'view' | 'register'>('events', {
  view: (viewer, event) =>
    (event.status === 'Approved' && event.isActive) || isOwner(viewer, event) || isAdmin(viewer)
      ? true
      : { code: 'events.not_public', detail: 'This event is not approved (or was withdrawn); only its creator and administrators can see it.' },
  register: (_viewer, event) =>
    event.status === 'Approved' && event.isActive ? true : { code: 'events.not_open', detail: 'Registration opens once the event is approved.' },
});
