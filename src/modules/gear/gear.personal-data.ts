import type { PersonalData } from '../../core/personal-data.js';

/** What the gear module keeps about a person, and what erasing their account does to it (core/personal-data.ts). */
export const gearPersonalData: PersonalData = {
  module: 'gear',
  columns: [
    { table: 'boats', column: 'owner_id', action: 'delete', reason: 'The person\'s boats.' },
    { table: 'gear_setups', column: 'owner_id', action: 'delete', reason: 'The person\'s gear setups (catches that named one keep no link: set null).' },
  ],
};
