import type { PersonalData } from '../../core/personal-data.js';

/** What the fishing-log module keeps about a person, and what erasing their account does to it (core/personal-data.ts). */
export const fishingLogPersonalData: PersonalData = {
  module: 'fishing-log',
  columns: [
    { table: 'personal_bests', column: 'owner_id', action: 'delete', reason: 'Personal bests.' },
    { table: 'personal_best_criteria', column: 'owner_id', action: 'delete', reason: 'Personal-best criteria.' },
    { table: 'catches', column: 'owner_id', action: 'delete', reason: 'Catches (their photos go with them; a tournament catch that came from one keeps no link).' },
    { table: 'fishing_log_entries', column: 'owner_id', action: 'delete', reason: 'Log entries.' },
    { table: 'fishing_sessions', column: 'owner_id', action: 'delete', reason: 'Fishing sessions.' },
    { table: 'dnr_access_subjects', column: 'user_id', action: 'keep', reason: 'Whose data a DNR officer read: an accountability log (like the audit log), holding no data of the person.' },
    { table: 'dnr_access_log', column: 'dnr_user_id', action: 'keep', reason: 'Which DNR officer read research data: an accountability log.' },
  ],
};
