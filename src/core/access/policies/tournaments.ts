import { conflict, definePolicy, isOwner, type Decision, type PolicyContext, type Refusal, type Viewer } from '../policy.js';
import { ownerShownTo } from './common.js';

/**
 * Tournaments. The organizer (the record's owner) sees and manages their tournament in every
 * state. Everyone else sees it once an admin approved it (Approved, InProgress, Completed; an
 * Unlisted one by its id only, lists leave it out); a registrant keeps seeing a tournament they
 * registered in whatever happens to it, and so does a judge the organizer named. Judges and the
 * organizer judge catches; only the organizer manages. Anything else that exists is a 403, except
 * registering where the caller organizes or judges, or while registration is not open: state
 * conflicts (409). A tournament whose organizer's account is deactivated (its deletion pending:
 * core/access/visibility.ts) is seen only by its organizer, its registrants and judges until the
 * organizer cancels.
 */

/** What the rules read of a tournament (structural: no import from the module). */
export interface TournamentAccessRecord {
  readonly ownerId: string;
  readonly status: string;
  /** Whether the viewer holds a registration in it (asked lazily, once per decision). */
  readonly isRegistered: (userId: string) => Promise<boolean>;
  /** Whether the viewer is one of the judges the organizer named. */
  readonly isJudge: (userId: string) => Promise<boolean>;
}

/** A registration seen through its tournament: `ownerId` is the tournament's organizer. */
export interface RegistrationAccessRecord {
  readonly ownerId: string;
  readonly userId: string;
}

export const PUBLISHED_STATUSES: readonly string[] = ['Approved', 'InProgress', 'Completed'];

const notVisible: Refusal = {
  code: 'tournaments.not_visible',
  detail: 'This tournament is not published (draft, awaiting approval, rejected or suspended); only its organizer and its registered anglers can see it.',
};
const organizerOnly: Refusal = { code: 'tournaments.organizer_only', detail: 'Only the organizer of this tournament may do this.' };

const organizerHidden: Refusal = {
  code: 'tournaments.not_visible',
  detail: 'The account of this tournament’s organizer is deactivated: only its registered anglers and judges can see it meanwhile.',
};

async function view(viewer: Viewer, record: TournamentAccessRecord, context: PolicyContext): Promise<Decision> {
  if (isOwner(viewer, record)) return true;
  const published = PUBLISHED_STATUSES.includes(record.status);
  if (published && (await ownerShownTo(viewer, record.ownerId, context))) return true;
  if ((await record.isRegistered(viewer.userId)) || (await record.isJudge(viewer.userId))) return true;
  return published ? organizerHidden : notVisible;
}

const manage = (viewer: Viewer, record: TournamentAccessRecord): Decision => (isOwner(viewer, record) ? true : organizerOnly);

export const tournamentPolicy = definePolicy<TournamentAccessRecord, 'view' | 'manage' | 'judge' | 'register'>('tournaments', {
  view,
  manage,
  async judge(viewer, record) {
    if (isOwner(viewer, record) || (await record.isJudge(viewer.userId))) return true;
    return { code: 'tournaments.judges_only', detail: 'Only the organizer and the judges they named can judge catches of this tournament.' };
  },
  async register(viewer, record, context) {
    if (isOwner(viewer, record)) return conflict('tournaments.organizer_cannot_register', 'Organizers judge their own tournament and cannot enter it.');
    if (await record.isJudge(viewer.userId)) return conflict('tournaments.judge_cannot_register', 'Judges of a tournament cannot enter it.');
    const seen = await view(viewer, record, context);
    if (seen !== true) return seen;
    if (record.status !== 'Approved') {
      return conflict('tournaments.not_open', `Registration is open only while the tournament is Approved and not started; it is ${record.status}.`);
    }
    return true;
  },
});

export const registrationPolicy = definePolicy<RegistrationAccessRecord, 'view' | 'cancel'>('tournament-registrations', {
  view: (viewer, record) =>
    isOwner(viewer, record) || isOwner(viewer, { ownerId: record.userId })
      ? true
      : { code: 'tournaments.registration_not_yours', detail: 'Only the registered angler and the organizer can see this registration.' },
  cancel: (viewer, record) =>
    isOwner(viewer, { ownerId: record.userId }) ? true : { code: 'tournaments.registration_not_yours', detail: 'Only the registered angler can cancel their registration.' },
});
