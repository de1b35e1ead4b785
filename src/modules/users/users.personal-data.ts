import type { PersonalData } from '../../core/personal-data.js';

/** What the users module keeps about a person, and what erasing their account does to it (core/personal-data.ts). */
export const usersPersonalData: PersonalData = {
  module: 'users',
  columns: [
    { table: 'user_sign_ins', column: 'user_id', action: 'delete', reason: 'Sign-in times, IP addresses and browsers of the person.' },
    { table: 'user_bans', column: 'user_id', action: 'keep', reason: 'Bans stay as they are (who banned, why, until when): a banned person cannot delete their way around a ban. At erasure the ban learns pseudonymous hashes of the identity-provider subject and e-mail (bans-identity.ts), so a new account of the same identity is banned again.' },
    { table: 'user_bans', column: 'banned_by', action: 'keep', reason: 'Who banned: an administrative record, like the audit log.' },
    { table: 'user_bans', column: 'lifted_by', action: 'keep', reason: 'Who lifted a ban: an administrative record, like the audit log.' },
    { table: 'ban_appeals', column: 'user_id', action: 'keep', reason: 'The appeal of a kept ban stays with it (the decision on it is part of the ban\'s record).' },
    { table: 'ban_appeals', column: 'decided_by', action: 'keep', reason: 'Who decided an appeal: an administrative record.' },
  ],
};
