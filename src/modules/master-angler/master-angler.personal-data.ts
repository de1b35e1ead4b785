import { sql } from 'drizzle-orm';
import type { PersonalData } from '../../core/personal-data.js';

/** What the master-angler module keeps about a person, and what erasing their account does to it (core/personal-data.ts). */
export const masterAnglerPersonalData: PersonalData = {
  module: 'master-angler',
  columns: [
    { table: 'ma_submissions', column: 'user_id', action: 'keep', reason: 'Approved submissions are published awards: kept, the angler shown as a former angler. Submissions not approved (pending, rejected) are deleted first.' },
  ],
  async erase(tx, userId) {
    await tx.execute(sql`DELETE FROM ma_submissions WHERE user_id = ${userId} AND status <> 'Approved'`);
  },
};
