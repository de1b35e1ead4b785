import { eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import { namedStatement } from '../../core/db/prepared.js';
import { researchConsents, userProfiles } from './profiles.tables.js';
import { fishSpecies } from '../species/index.js';
import { users } from '../users/index.js';

/** A user with their profile row (null fields when the row does not exist yet) and favourite species. */
export async function findUserWithProfile(db: DbOrTx, userId: string) {
  const [row] = await db
    .select({
      user: users,
      profile: userProfiles,
      favouriteSpecies: { id: fishSpecies.id, commonName: fishSpecies.commonName },
    })
    .from(users)
    .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
    .leftJoin(fishSpecies, eq(fishSpecies.id, userProfiles.favouriteSpeciesId))
    .where(eq(users.id, userId));
  return row;
}

const homeStateStatement = namedStatement<{ homeState: string | null }, { userId: string }>(
  'profiles_home_state',
  () => sql`SELECT ${userProfiles.homeState} AS "homeState" FROM ${userProfiles} WHERE ${userProfiles.userId} = ${sql.placeholder('userId')}`,
);

/** The user's home state (null without a profile row or when not given): what a catch write asks (Master Angler eligibility). */
export async function homeState(db: DbOrTx, userId: string): Promise<string | null> {
  return (await homeStateStatement.first(db, { userId }))?.homeState ?? null;
}

/** What the owner's view of their profile reads, flat (profile columns null without a profile row). */
export interface OwnProfileRow {
  id: string;
  username: string;
  email: string | null;
  role: number;
  createdAt: Date;
  displayName: string | null;
  bio: string | null;
  homeState: string | null;
  homeRegion: string | null;
  avatarUrl: string | null;
  unitsPreference: 'imperial' | 'metric' | null;
  visibility: 'Public' | 'Private' | 'Friends' | 'Circle' | null;
  /** Null exactly when the user has no profile row yet. */
  updatedAt: Date | null;
  favouriteSpeciesId: string | null;
  favouriteSpeciesName: string | null;
  consentLevel: 'None' | 'Anonymized' | 'Identified' | null;
  consentGivenAt: Date | null;
}

const p = userProfiles;
const ownProfileStatement = namedStatement<OwnProfileRow, { userId: string }>(
  'profiles_own',
  () => sql`SELECT ${users.id} AS "id", ${users.username} AS "username", ${users.email} AS "email", ${users.role} AS "role",
      ${users.createdAt} AS "createdAt", ${p.displayName} AS "displayName", ${p.bio} AS "bio", ${p.homeState} AS "homeState",
      ${p.homeRegion} AS "homeRegion", ${p.avatarUrl} AS "avatarUrl", ${p.unitsPreference} AS "unitsPreference",
      ${p.visibility} AS "visibility", ${p.updatedAt} AS "updatedAt", ${fishSpecies.id} AS "favouriteSpeciesId",
      ${fishSpecies.commonName} AS "favouriteSpeciesName", ${researchConsents.level} AS "consentLevel", ${researchConsents.givenAt} AS "consentGivenAt"
    FROM ${users}
    LEFT JOIN ${p} ON ${p.userId} = ${users.id}
    LEFT JOIN ${fishSpecies} ON ${fishSpecies.id} = ${p.favouriteSpeciesId}
    LEFT JOIN ${researchConsents} ON ${researchConsents.userId} = ${users.id}
    WHERE ${users.id} = ${sql.placeholder('userId')}`,
);

/**
 * GET /api/userprofile/me in one named statement (built once per process, planned once per
 * connection), reading only the 17 columns the owner's view shows: the user, their profile,
 * favourite species and research consent (null when never chosen).
 */
export async function findOwnProfile(db: DbOrTx, userId: string): Promise<OwnProfileRow | undefined> {
  return ownProfileStatement.first(db, { userId });
}

export type UserWithProfile = NonNullable<Awaited<ReturnType<typeof findUserWithProfile>>>;

export type ProfilePatch = Partial<
  Pick<typeof userProfiles.$inferInsert, 'displayName' | 'bio' | 'homeState' | 'homeRegion' | 'avatarUrl' | 'favouriteSpeciesId' | 'unitsPreference' | 'visibility'>
>;

/** Creates the profile row on first change (lazily) or changes only the given fields. */
/** Serialises changes of one user's profile until the end of the transaction (a profile row may not exist yet). */
export async function lockUser(tx: DbOrTx, userId: string): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
}

export async function upsertProfile(db: DbOrTx, userId: string, patch: ProfilePatch): Promise<void> {
  const now = new Date();
  await db
    .insert(userProfiles)
    .values({ userId, ...patch, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: userProfiles.userId, set: { ...patch, updatedAt: now } });
}


/** The stored profile fields (display name, visibility) of these users; users without a row are absent. */
export async function findProfileFields(db: DbOrTx, userIds: string[]) {
  if (userIds.length === 0) return [];
  return db
    .select({ userId: userProfiles.userId, displayName: userProfiles.displayName, visibility: userProfiles.visibility })
    .from(userProfiles)
    .where(inArray(userProfiles.userId, userIds));
}
