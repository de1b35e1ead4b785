import type { PersonalData } from '../../core/personal-data.js';

/** What the payments module keeps about a person, and what erasing their account does to it (core/personal-data.ts). */
export const paymentsPersonalData: PersonalData = {
  module: 'payments',
  columns: [
    { table: 'payments', column: 'payer_id', action: 'keep', reason: 'Payments: financial records kept as the law asks (Stripe keeps them too); the payer shows as a former angler, with no name or e-mail.' },
    { table: 'payment_refunds', column: 'actor_user_id', action: 'keep', reason: 'Who refunded: part of the financial record.' },
  ],
};
