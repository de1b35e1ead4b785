import type { PersonalData } from '../../core/personal-data.js';

/** What the fishing-reports module keeps about a person, and what erasing their account does to it (core/personal-data.ts). */
export const fishingReportsPersonalData: PersonalData = {
  module: 'fishing-reports',
  columns: [
    { table: 'fishing_report_helpful', column: 'user_id', action: 'delete', reason: '"Helpful" marks given.' },
    { table: 'fishing_reports', column: 'author_id', action: 'delete', reason: 'Fishing reports written: the person\'s own account of their trips (where, when, what). Others\' "helpful" marks carry nothing of theirs, so reports are deleted even when others rated them.' },
  ],
};
