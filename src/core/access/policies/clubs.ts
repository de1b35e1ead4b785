import { definePolicy, isAdmin, isOwner } from '../policy.js';

/**
 * Clubs. `membership` is the viewer's own membership of the club (or null), supplied by the
 * clubs service. Active clubs are seen by everyone (name, description…); the member list of a
 * private club only by its active members and administrators. Club admins (and the owner)
 * approve requests and remove members; only the owner changes roles; the owner cannot leave.
 */
export interface ClubRecord {
  readonly ownerId: string;
  readonly privacy: string;
  readonly isActive: boolean;
  readonly membership: { readonly role: string; readonly status: string } | null;
}

const activeMember = (club: ClubRecord) => club.membership?.status === 'Active';
const clubAdmin = (club: ClubRecord) => activeMember(club) && (club.membership?.role === 'admin' || club.membership?.role === 'owner');
const inactive = { code: 'clubs.deactivated', detail: 'This club was deactivated by an administrator.' };

export const clubPolicy = definePolicy<ClubRecord, 'view' | 'seeMembers' | 'join' | 'leave' | 'manageMembers' | 'changeRoles'>('clubs', {
  view: (viewer, club) => (club.isActive || isOwner(viewer, club) || isAdmin(viewer) ? true : inactive),
  seeMembers: (viewer, club) =>
    club.privacy === 'Public' || activeMember(club) || isAdmin(viewer)
      ? true
      : { code: 'clubs.members_private', detail: 'The member list of a private club is shown to its members only; ask to join.' },
  join: (_viewer, club) => {
    if (!club.isActive) return inactive;
    if (club.membership) return { code: club.membership.status === 'Pending' ? 'clubs.request_pending' : 'clubs.already_member', detail: club.membership.status === 'Pending' ? 'Your request to join is waiting for the club’s admins.' : 'You are a member already.' };
    return true;
  },
  leave: (viewer, club) => {
    if (!club.membership) return { code: 'clubs.not_member', detail: 'You are not a member of this club.' };
    if (isOwner(viewer, club)) return { code: 'clubs.owner_cannot_leave', detail: 'The owner cannot leave the club; it stays yours.' };
    return true;
  },
  manageMembers: (_viewer, club) => (clubAdmin(club) ? true : { code: 'clubs.not_club_admin', detail: 'Only the club’s admins and owner manage its members.' }),
  changeRoles: (viewer, club) => (isOwner(viewer, club) && activeMember(club) ? true : { code: 'clubs.not_club_owner', detail: 'Only the club’s owner changes roles.' }),
});
