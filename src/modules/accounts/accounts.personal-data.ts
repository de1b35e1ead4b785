import type { PersonalData } from '../../core/personal-data.js';
import type { DbOrTx } from '../../core/db/client.js';
import { removeDeadArchives } from './export.service.js';

/** What the accounts module keeps about a person, and what erasing their account does to it (core/personal-data.ts). */
export function accountsPersonalData(deps: { db: DbOrTx; dataDir: string }): PersonalData {
  return {
    module: 'accounts',
    columns: [
      { table: 'account_deletions', column: 'user_id', action: 'keep', reason: 'The deletion itself: that the account was erased, when (no name or e-mail).' },
      { table: 'account_deletions', column: 'legal_hold_by', action: 'keep', reason: 'Which Owner placed a legal hold: an administrative record.' },
      {
        table: 'account_exports',
        column: 'user_id',
        action: 'delete',
        reason: 'The person’s copies of their data (POST /api/account/export); their archive files are deleted right after the erasure commits.',
      },
    ],
    // The archives of the exports just deleted (and any other dead one); a failure is retried by the next erasure run and the hourly expiry sweep.
    afterErase: async () => void (await removeDeadArchives(deps)),
  };
}
