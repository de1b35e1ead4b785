import { conflict, definePolicy, isAdmin, isOwner, type Rule } from '../policy.js';
import { ownerShownTo } from './common.js';

/**
 * Clubs. `membership` is the viewer's own membership of the club (or null), supplied by the
 * clubs service. Active clubs are seen by everyone (name, description…); the member list of a
 * private club only by its active members and administrators. Club admins (and the owner)
 * approve requests and remove members; only the owner changes roles; the owner cannot leave.
 * Joining twice, leaving a club one is not in, the owner leaving and joining a deactivated club
 * (seen by its owner and administrators) are state conflicts (409). A club whose owner's account is
 * deactivated (its deletion pending: core/access/visibility.ts) is seen, like a deactivated club,
 * only by its owner and administrators until the owner cancels.
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

const hidden = { code: 'clubs.not_visible', detail: 'The account of this club’s owner is deactivated: the club is not shown meanwhile.' };

const view: Rule<ClubRecord> = async (viewer, club, context) => {
  if (isOwner(viewer, club) || isAdmin(viewer)) return true;
  if (!club.isActive) return inactive;
  return (await ownerShownTo(viewer, club.ownerId, context)) ? true : hidden;
};

export const clubPolicy = definePolicy<ClubRecord, 'view' | 'seeMembers' | 'join' | 'leave' | 'manageMembers' | 'changeRoles'>('clubs', {
  view,
  seeMembers: (viewer, club) =>
    club.privacy === 'Public' || activeMember(club) || isAdmin(viewer)
      ? true
      : { code: 'clubs.members_private', detail: 'The member list of a private club is shown to its members only; ask to join.' },
  join: async (viewer, club, context) => {
    const seen = await view(viewer, club, context);
    if (seen !== true) return seen;
    if (club.membership) {
      return club.membership.status === 'Pending'
        ? conflict('clubs.request_pending', 'Your request to join is waiting for the club’s admins.')
        : conflict('clubs.already_member', 'You are a member already.');
    }
    if (!club.isActive) return conflict(inactive.code, 'This club was deactivated by an administrator and takes no new members.');
    return true;
  },
  leave: (viewer, club) => {
    if (!club.membership) return conflict('clubs.not_member', 'You are not a member of this club.');
    if (isOwner(viewer, club)) return conflict('clubs.owner_cannot_leave', 'The owner cannot leave the club; it stays yours.');
    return true;
  },
  manageMembers: (_viewer, club) => (clubAdmin(club) ? true : { code: 'clubs.not_club_admin', detail: 'Only the club’s admins and owner manage its members.' }),
  changeRoles: (viewer, club) => (isOwner(viewer, club) && activeMember(club) ? true : { code: 'clubs.not_club_owner', detail: 'Only the club’s owner changes roles.' }),
});
