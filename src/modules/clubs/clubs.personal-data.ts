import type { PersonalData } from '../../core/personal-data.js';

/** What the clubs module keeps about a person, and what erasing their account does to it (core/personal-data.ts). */
export const clubsPersonalData: PersonalData = {
  module: 'clubs',
  columns: [
    { table: 'club_members', column: 'user_id', action: 'delete', reason: 'Club memberships.' },
    { table: 'clubs', column: 'owner_id', action: 'delete', reason: 'Clubs the person created, with their memberships: a club is its creator\'s page, not the members\'.' },
  ],
};
