import { definePolicy, isOwner, type Decision } from '../policy.js';
import { Role, roleName } from '../roles.js';

/**
 * Bans. Who may ban whom (`userBanPolicy.ban`, on the user to be banned): never the Owner; never
 * an employee of equal or higher rank than the caller (Owner > Admin > Moderator). Appeals
 * (`banPolicy`): only the banned user appeals; anyone but the banner decides.
 */

export interface BanTargetRecord {
  readonly role: number;
}

export interface BanRecord {
  /** The banned user. */
  readonly ownerId: string;
  readonly bannedBy: string | null;
}

const RANK: Readonly<Record<number, number>> = { [Role.Owner]: 3, [Role.Admin]: 2, [Role.Moderator]: 1 };
const rank = (role: number | undefined) => (role === undefined ? 0 : (RANK[role] ?? 0));
const withArticle = (role: number) => `${/^[AEIOU]/.test(roleName(role)) ? 'an' : 'a'} ${roleName(role)}`;

function mayBan(viewerRole: number | undefined, target: BanTargetRecord): Decision {
  if (target.role === Role.Owner) return { code: 'bans.owner_protected', detail: 'The Owner cannot be banned.' };
  const targetRank = rank(target.role);
  if (targetRank > 0 && targetRank >= rank(viewerRole)) {
    return {
      code: 'bans.rank_protected',
      detail: `${withArticle(viewerRole ?? Role.Standard).replace(/^a/, 'A')} cannot ban ${withArticle(target.role)}, an employee of equal or higher rank; ask the Owner.`,
    };
  }
  return true;
}

export const userBanPolicy = definePolicy<BanTargetRecord, 'ban'>('userBans', {
  ban: (viewer, target) => mayBan(viewer.role, target),
});

export const banPolicy = definePolicy<BanRecord, 'appeal' | 'decideAppeal'>('bans', {
  appeal: (viewer, ban) =>
    isOwner(viewer, ban) ? true : { code: 'bans.not_yours', detail: 'This ban is not yours; you can only appeal your own bans (GET /api/bans/me).' },
  decideAppeal: (viewer, ban) =>
    ban.bannedBy !== null && ban.bannedBy === viewer.userId
      ? { code: 'bans.decider_is_banner', detail: 'You issued this ban, so someone else must decide its appeal.' }
      : true,
});
