import { DateInput, SelectInput } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { Link } from '@mui/material';
import type { components } from '@fishlog/client';
import { fishlog } from '../api';
import { queueScreen } from '../Decisions';
import { when } from '../RecordScreens';

type Deletion = components['schemas']['AdminAccountDeletion'] & { id: string };

const byUser = (d: Deletion, reason: string | undefined) => ({ params: { path: { userId: d.userId } }, body: { reason: reason! } });

/**
 * Account deletions (Users.View; GET /api/admin/account-deletions): the people who asked for their
 * account to be erased, Pending by default (status, legal hold and "erasure due before" in the
 * URL), each with when it was asked, when the grace period ends and any legal hold. The Owner
 * (Users.LegalHold) puts a pending one on legal hold — erasure then waits, past the grace period —
 * or lifts the hold, each with the reason the audit log keeps.
 */
export default queueScreen<Deletion>({
  title: 'Account deletions',
  statuses: ['Pending', 'Cancelled', 'Erased'],
  defaultStatus: 'Pending',
  filters: [
    <SelectInput key="legalHold" source="legalHold" label="Legal hold" choices={[{ id: 'true', name: 'On hold' }, { id: 'false', name: 'Not on hold' }]} alwaysOn />,
    <DateInput key="dueBefore" source="dueBefore" label="Erasure due before" alwaysOn />,
  ],
  name: (d) => d.username,
  subheader: (d) => `${d.status}${d.legalHold ? ' · on legal hold' : ''} · asked ${when(d.requestedAt)}`,
  facts: (d) => [
    ['User', d.status === 'Erased' ? 'erased' : <Link component={RouterLink} to={`/users/${d.userId}/show`}>{`${d.username}'s page`}</Link>],
    ['E-mail', d.email],
    [d.status === 'Pending' ? 'Erased after' : 'Grace period ended', when(d.eraseAfter)],
    ...(d.cancelledAt ? ([['Cancelled', when(d.cancelledAt)]] as const) : []),
    ...(d.erasedAt ? ([['Erased', when(d.erasedAt)]] as const) : []),
    ['Legal hold', d.legalHold ? `since ${when(d.legalHold.since)}: ${d.legalHold.reason}` : 'none'],
  ],
  reasonLabel: 'Reason (kept in the audit log)',
  decisions: [
    {
      label: 'Place legal hold',
      done: 'on legal hold: erasure waits',
      when: (d) => d.status === 'Pending' && !d.legalHold,
      permission: 'Users.LegalHold',
      reason: 'required',
      danger: true,
      send: (d, reason) => fishlog.POST('/api/admin/account-deletions/{userId}/legal-hold', byUser(d, reason)),
    },
    {
      label: 'Lift legal hold',
      done: 'legal hold lifted',
      when: (d) => d.legalHold !== null,
      permission: 'Users.LegalHold',
      reason: 'required',
      send: (d, reason) => fishlog.POST('/api/admin/account-deletions/{userId}/legal-hold/lift', byUser(d, reason)),
    },
  ],
  empty: 'No account deletion matches.',
});
