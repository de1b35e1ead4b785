import type { PersonalData } from '../../core/personal-data.js';

/** What the events module keeps about a person, and what erasing their account does to it (core/personal-data.ts). */
export const eventsPersonalData: PersonalData = {
  module: 'events',
  columns: [
    { table: 'event_registrations', column: 'user_id', action: 'delete', reason: 'Event registrations.' },
    { table: 'events', column: 'creator_id', action: 'delete', reason: 'Events the person created, with their registrations.' },
  ],
};
