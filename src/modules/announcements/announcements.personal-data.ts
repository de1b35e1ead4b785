import type { PersonalData } from '../../core/personal-data.js';

/** What the announcements module keeps about a person, and what erasing their account does to it (core/personal-data.ts). */
export const announcementsPersonalData: PersonalData = {
  module: 'announcements',
  columns: [
    { table: 'announcement_dismissals', column: 'user_id', action: 'delete', reason: 'Which announcements the person dismissed.' },
    { table: 'announcements', column: 'created_by', action: 'keep', reason: 'Staff attribution of an announcement.' },
    { table: 'announcements', column: 'updated_by', action: 'keep', reason: 'Staff attribution of an announcement.' },
    { table: 'announcement_versions', column: 'replaced_by', action: 'keep', reason: 'Staff attribution of an announcement\'s history.' },
  ],
};
