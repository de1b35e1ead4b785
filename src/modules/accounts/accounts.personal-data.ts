import type { PersonalData } from '../../core/personal-data.js';

/** What the accounts module keeps about a person, and what erasing their account does to it (core/personal-data.ts). */
export const accountsPersonalData: PersonalData = {
  module: 'accounts',
  columns: [
    { table: 'account_deletions', column: 'user_id', action: 'keep', reason: 'The deletion itself: that the account was erased, when (no name or e-mail).' },
    { table: 'account_deletions', column: 'legal_hold_by', action: 'keep', reason: 'Which Owner placed a legal hold: an administrative record.' },
    {
      table: 'account_exports',
      column: 'user_id',
      action: 'delete',
      reason: 'The person’s copies of their data (POST /api/account/export); the archive files left behind are deleted by the next accounts.export-expiry sweep.',
    },
  ],
};
