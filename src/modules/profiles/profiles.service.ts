import { registryKey, type Registries } from '../../core/registries.js';
import { isActiveSpecies } from '../species/index.js';
import { roleName } from '../../core/access/roles.js';
import { allows, authorize, isOwner } from '../../core/access/policy.js';
import { profilePolicy } from '../../core/access/policies/profiles.js';
import type { Principal } from '../../core/auth/authenticate.js';
import type { DbOrTx } from '../../core/db/client.js';
import { keyedChannelCache } from '../../core/db/listen.js';
import { applyChange, type Change } from '../../core/http/merge-patch.js';
import { getResearchConsent, setResearchConsent, type ResearchConsent } from './research-consent.service.js';
import { avatarOf, type Avatar } from './avatars.service.js';
import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { ProfileErrors } from './profiles.errors.js';
import { pendingDeletionOf } from '../accounts/deletion.service.js';
import * as repo from './profiles.repository.js';
import { ReplaceProfileBody, UnitsEnum, type ReplaceProfileInput } from './profiles.schemas.js';

/**
 * Profiles: one per user, created lazily (a user without a row has the defaults). Another user's
 * profile, and the personal bests shown with it, follow the profile's visibility through the one
 * visibility rule of core/access. Other users never see email, role or research consent.
 */

export const PROFILE_DEFAULTS = { unitsPreference: 'imperial', visibility: 'Public' } as const;

/** What the views of a profile read: the full rows of `findUserWithProfile`, or the owner's flat row. */
interface ProfileSource {
  user: Pick<repo.UserWithProfile['user'], 'id' | 'username' | 'email' | 'role' | 'createdAt'>;
  profile: Pick<NonNullable<repo.UserWithProfile['profile']>, 'displayName' | 'bio' | 'homeState' | 'homeRegion' | 'avatarUrl' | 'unitsPreference' | 'visibility' | 'updatedAt'> | null;
  favouriteSpecies: { id: string; commonName: string } | null;
}

function publicView({ user, profile, favouriteSpecies }: ProfileSource) {
  return {
    userId: user.id,
    username: user.username,
    displayName: profile?.displayName ?? null,
    bio: profile?.bio ?? null,
    homeState: profile?.homeState ?? null,
    homeRegion: profile?.homeRegion ?? null,
    avatarUrl: profile?.avatarUrl ?? null,
    favouriteSpecies: favouriteSpecies ?? null,
    visibility: profile?.visibility ?? PROFILE_DEFAULTS.visibility,
    memberSince: user.createdAt.toISOString(),
  };
}

/** The owner's view: the public view completed in place with the owner's own fields (a spread copy cost `/userprofile/me` a fifth of its CPU). */
function ownView(row: ProfileSource, consent: ResearchConsent, avatar: Avatar | null) {
  return Object.assign(publicView(row), {
    avatar,
    email: row.user.email,
    role: roleName(row.user.role),
    unitsPreference: UnitsEnum.toApi(row.profile?.unitsPreference ?? PROFILE_DEFAULTS.unitsPreference),
    researchConsent: consent,
    updatedAt: row.profile ? row.profile.updatedAt.toISOString() : null,
  });
}

async function loadOwn(deps: ServiceDeps<DbOrTx>, userId: string) {
  const { db } = deps;
  const row = await repo.findUserWithProfile(db, userId);
  if (!row) throw ProfileErrors.userNotFound(userId);
  return ownView(row, await getResearchConsent(deps, userId), await avatarOf(deps, userId, userId));
}

/** A user's home state (ISO 3166-2, upper case), null when not set: for the Master Angler detection. */
export async function homeStateOf(deps: ServiceDeps<DbOrTx>, userId: string): Promise<string | null> {
  const { db } = deps;
  return repo.homeState(db, userId);
}

function ownViewOfRow(row: repo.OwnProfileRow, avatar: Avatar | null) {
  const source: ProfileSource = {
    user: row,
    profile: row.updatedAt ? (row as ProfileSource['profile']) : null,
    favouriteSpecies: row.favouriteSpeciesId ? { id: row.favouriteSpeciesId, commonName: row.favouriteSpeciesName! } : null,
  };
  const consent: ResearchConsent = row.consentLevel ? { level: row.consentLevel, givenAt: row.consentGivenAt!.toISOString() } : { level: 'None', givenAt: null };
  return ownView(source, consent, avatar);
}

/** The owner's view of their profile read now: one statement, and the avatar's (sent at once, not one after the other). */
async function readOwnProfile(deps: ServiceDeps<DbOrTx>, userId: string) {
  const [row, avatar] = await Promise.all([repo.findOwnProfile(deps.db, userId), avatarOf(deps, userId, userId)]);
  return row && ownViewOfRow(row, avatar);
}

/** The owner's view of their profile, read now. */
export async function getOwnProfile(deps: ServiceDeps<DbOrTx>, userId: string) {
  const view = await readOwnProfile(deps, userId);
  if (!view) throw ProfileErrors.userNotFound(userId);
  return view;
}

type OwnProfileView = ReturnType<typeof ownViewOfRow>;

/**
 * NOTIFY channel of the own-profile cache: a trigger (migration 0041) sends the user's id when
 * their profile or research consent changes, '' when a species is renamed (any favourite); one on
 * the photos (migration 0045) when their avatar does.
 */
export const PROFILES_CHANNEL = 'fishlog_profiles';

/** Users whose own view each process keeps (~1 KB each). */
const CACHED_PROFILES = 10_000;

/**
 * Each app keeps the owner's views it answered while it hears their changes
 * (`keyedChannelCache`, one per app in `deps.registries`): an unchanged profile costs no
 * statement. The views are frozen: they are shared by every request that reads them.
 */
const ownProfilesKey = registryKey('profiles.own_views', () =>
  keyedChannelCache<OwnProfileView, ServiceDeps>(
    PROFILES_CHANNEL,
    async (deps, userId) => {
      const view = await readOwnProfile(deps, userId);
      if (!view) return undefined;
      Object.freeze(view.researchConsent);
      if (view.avatar) Object.freeze(view.avatar);
      if (view.favouriteSpecies) Object.freeze(view.favouriteSpecies);
      return Object.freeze(view);
    },
    { max: CACHED_PROFILES },
  ),
);

/** The app's own-view cache; its `listen` keeps views while the server listens for their changes (close() on shutdown). */
export const ownProfilesOf = (deps: { registries: Registries }) => deps.registries.of(ownProfilesKey);

/**
 * Drops the kept own view of `userId` in this app, at once (other processes hear the trigger's
 * NOTIFY): for a change this process made outside this module (research consent).
 */
export const forgetOwnProfile = (deps: { registries: Registries }, userId: string) => ownProfilesOf(deps).forget(userId);

/**
 * GET /api/userprofile/me: the caller's own view. Who they are (name, email, role) is what their
 * authentication established: a kept view that names them otherwise (a role changed since it was
 * read) is read again.
 */
export async function getMyProfile(deps: ServiceDeps, principal: Principal): Promise<OwnProfileView & { pendingDeletion: { requestedAt: string; eraseAfter: string } | null }> {
  const ownProfiles = ownProfilesOf(deps);
  let view = await ownProfiles.get(deps, principal.userId);
  if (view && !(view.username === principal.username && view.email === principal.email && view.role === roleName(principal.role))) {
    ownProfiles.forget(principal.userId);
    view = await ownProfiles.get(deps, principal.userId);
  }
  if (!view) throw ProfileErrors.userNotFound(principal.userId);
  // The account's deletion, while one is pending (its person signed in during the grace period).
  return { ...view, pendingDeletion: principal.pendingDeletion ? await pendingDeletionOf(deps, principal.userId) : null };
}

const trimmed = (value: string | null | undefined) => (value === undefined ? undefined : value === null ? null : value.trim());

/** The own profile as a PUT body (for a merge patch). */
function profileAsInput({ profile }: repo.UserWithProfile, consent: ResearchConsent): ReplaceProfileInput {
  return {
    displayName: profile?.displayName ?? null,
    bio: profile?.bio ?? null,
    homeState: profile?.homeState ?? null,
    homeRegion: profile?.homeRegion ?? null,
    avatarUrl: profile?.avatarUrl ?? null,
    favouriteSpeciesId: profile?.favouriteSpeciesId ?? null,
    unitsPreference: UnitsEnum.toApi(profile?.unitsPreference ?? PROFILE_DEFAULTS.unitsPreference),
    visibility: profile?.visibility ?? PROFILE_DEFAULTS.visibility,
    researchConsent: consent.level,
  } as unknown as ReplaceProfileInput;
}

/** PUT (replace) or PATCH (merge patch) of the caller's profile. */
export async function updateOwnProfile(deps: ServiceDeps, userId: string, change: Change<ReplaceProfileInput>) {
  const updated = await deps.db.transaction(async (tx) => {
    await repo.lockUser(tx, userId);
    const row = await repo.findUserWithProfile(tx, userId);
    if (!row) throw ProfileErrors.userNotFound(userId);
    const consent = await getResearchConsent(inTx(deps, tx), userId);
    const input = applyChange(change, ReplaceProfileBody, () => profileAsInput(row, consent));
    const speciesId = input.favouriteSpeciesId ?? null;
    // A species chosen before it was retired stays; a newly chosen one must be active.
    if (speciesId && speciesId !== row.profile?.favouriteSpeciesId && !(await isActiveSpecies(tx, speciesId))) throw ProfileErrors.unknownSpecies(speciesId);
    await repo.upsertProfile(tx, userId, {
      displayName: trimmed(input.displayName) ?? null,
      bio: trimmed(input.bio) ?? null,
      homeState: input.homeState ? input.homeState.toUpperCase() : null,
      homeRegion: trimmed(input.homeRegion) ?? null,
      avatarUrl: input.avatarUrl ?? null,
      favouriteSpeciesId: speciesId,
      unitsPreference: UnitsEnum.fromApi(input.unitsPreference),
      visibility: input.visibility,
    });
    if (input.researchConsent !== undefined && consent.level !== input.researchConsent) await setResearchConsent(inTx(deps, tx), userId, input.researchConsent);
    return loadOwn(inTx(deps, tx), userId);
  });
  // Committed: this process's next read of the owner's view reads it anew (the others hear NOTIFY).
  forgetOwnProfile(deps, userId);
  // Only an active account changes its profile: no deletion is pending.
  return { ...updated, pendingDeletion: null };
}

/**
 * The profile row of `userId` if `viewerId` may see it: 404 for an unknown (or deactivated) user,
 * 403 when the profile's visibility does not admit the viewer. Used by the personal-best views.
 */
export async function requireVisibleProfile(deps: ServiceDeps<DbOrTx>, viewerId: string, userId: string): Promise<repo.UserWithProfile> {
  const { db } = deps;
  const row = await repo.findUserWithProfile(db, userId);
  // A deactivated user is gone for everyone but themselves: a 404, as for an unknown id.
  const exists = row && (row.user.isActive || isOwner(viewerId, { ownerId: userId }));
  const profile = exists ? { ownerId: userId, visibility: row.profile?.visibility ?? PROFILE_DEFAULTS.visibility } : undefined;
  await authorize(profilePolicy, viewerId, 'read', profile, deps, () => ProfileErrors.userNotFound(userId));
  return row!;
}

export async function getProfile(deps: ServiceDeps, viewerId: string, userId: string) {
  const view = publicView(await requireVisibleProfile(deps, viewerId, userId));
  return Object.assign(view, { avatar: await avatarOf(deps, viewerId, userId) });
}

/**
 * What a user search shows of each user's profile: whether `viewerId` may see the profile and, when
 * they may, its display name (null otherwise, or when none is set).
 */
export async function profileCards(deps: ServiceDeps<DbOrTx>, viewerId: string, userIds: string[]): Promise<Map<string, { displayName: string | null; profileVisible: boolean }>> {
  const { db } = deps;
  const stored = new Map((await repo.findProfileFields(db, userIds)).map((row) => [row.userId, row]));
  const cards = new Map<string, { displayName: string | null; profileVisible: boolean }>();
  for (const userId of userIds) {
    const row = stored.get(userId);
    const visibility = row?.visibility ?? PROFILE_DEFAULTS.visibility;
    const profileVisible = await allows(profilePolicy, viewerId, 'read', { ownerId: userId, visibility }, deps);
    cards.set(userId, { displayName: profileVisible ? (row?.displayName ?? null) : null, profileVisible });
  }
  return cards;
}

/** For the administration: the stored profile fields of a user (defaults when they never edited it). */
export async function adminProfileSummary(deps: ServiceDeps<DbOrTx>, userId: string) {
  const { db } = deps;
  const row = await repo.findUserWithProfile(db, userId);
  const profile = row?.profile;
  return {
    displayName: profile?.displayName ?? null,
    homeState: profile?.homeState ?? null,
    homeRegion: profile?.homeRegion ?? null,
    avatarUrl: profile?.avatarUrl ?? null,
    visibility: profile?.visibility ?? PROFILE_DEFAULTS.visibility,
  };
}
