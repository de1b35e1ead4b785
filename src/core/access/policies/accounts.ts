import { conflict, definePolicy, isSelf } from '../policy.js';
import { Role } from '../roles.js';

/**
 * Accounts: only their person deletes one (and cancels its deletion); never the Owner's account,
 * whose deletion would leave the platform without an Owner (409: hand the role on first).
 */

export interface AccountRecord {
  readonly userId: string;
  readonly role: number;
}

const notYours = { code: 'accounts.not_yours', detail: 'Only its own person can delete an account or cancel its deletion.' };

export const accountPolicy = definePolicy<AccountRecord, 'delete' | 'cancelDeletion'>('accounts', {
  delete: (viewer, account) => {
    if (!isSelf(viewer, account.userId)) return notYours;
    if (account.role === Role.Owner)
      return conflict('accounts.owner_cannot_be_deleted', 'The Owner account cannot be deleted: give the Owner role to another account first (`fishlog users set-role`), then delete this one.');
    return true;
  },
  cancelDeletion: (viewer, account) => (isSelf(viewer, account.userId) ? true : notYours),
});
