import { AppError } from '../../core/http/problem.js';

const endText = (endsAt: Date | null) => (endsAt === null ? 'permanently' : `until ${endsAt.toISOString()}`);

export const BanErrors = {
  notFound: (id: string) => new AppError(404, 'bans.ban_not_found', `No ban has id ${id}.`),
  appealNotFound: (id: string) => new AppError(404, 'bans.appeal_not_found', `No ban appeal has id ${id}.`),
  overLimit: (maxDays: number, asked: number | null) =>
    new AppError(
      403,
      'bans.duration_over_limit',
      `${asked === null ? 'A permanent ban' : `A ${asked}-day ban`} is too long: your ban permission is limited to ${maxDays} days. Ban for at most ${maxDays} days, or ask the Owner.`,
    ),
  alreadyBanned: (banId: string, endsAt: Date | null) =>
    new AppError(409, 'bans.already_banned', `This user already has a ban in force (${banId}, ${endText(endsAt)}); lift it first (POST /api/admin/bans/${banId}/lift) to ban again.`),
  notInForce: (id: string, status: string) =>
    new AppError(409, 'bans.ban_not_in_force', `Ban ${id} is not in force (it is ${status}); there is nothing to lift or appeal.`),
  appealExists: (banId: string) => new AppError(409, 'bans.appeal_exists', `Ban ${banId} already has an appeal; one appeal per ban. Its answer shows in GET /api/bans/me.`),
  appealDecided: (id: string, status: string) => new AppError(409, 'bans.appeal_decided', `Appeal ${id} was already decided (${status}).`),
};
