import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../core/db/client.js';
import { namedStatement } from '../../core/db/prepared.js';
import { researchConsents } from '../fishing-log/index.js';
import { fishSpecies } from '../species/index.js';
import { users } from '../users/index.js';
import { userProfiles } from './profiles.tables.js';

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

function prepareOwnProfile(db: Db) {
  return db
    .select({
      user: users,
      profile: userProfiles,
      favouriteSpecies: { id: fishSpecies.id, commonName: fishSpecies.commonName },
      consent: { level: researchConsents.level, givenAt: researchConsents.givenAt },
    })
    .from(users)
    .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
    .leftJoin(fishSpecies, eq(fishSpecies.id, userProfiles.favouriteSpeciesId))
    .leftJoin(researchConsents, eq(researchConsents.userId, users.id))
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare('profiles_own');
}
const ownProfileStatements = new WeakMap<Db, ReturnType<typeof prepareOwnProfile>>();

/**
 * GET /api/userprofile/me in one prepared statement (named, so PostgreSQL plans it once per
 * connection and Drizzle builds it once per process): the user, their profile, favourite species
 * and research consent (null when never chosen).
 */
export async function findOwnProfile(db: Db, userId: string) {
  let statement = ownProfileStatements.get(db);
  if (!statement) ownProfileStatements.set(db, (statement = prepareOwnProfile(db)));
  const [row] = await statement.execute({ userId });
  return row;
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

export async function activeSpeciesExists(db: DbOrTx, speciesId: string): Promise<boolean> {
  const rows = await db
    .select({ one: sql`1` })
    .from(fishSpecies)
    .where(and(eq(fishSpecies.id, speciesId), eq(fishSpecies.isActive, true)));
  return rows.length > 0;
}

/** The stored profile fields (display name, visibility) of these users; users without a row are absent. */
export async function findProfileFields(db: DbOrTx, userIds: string[]) {
  if (userIds.length === 0) return [];
  return db
    .select({ userId: userProfiles.userId, displayName: userProfiles.displayName, visibility: userProfiles.visibility })
    .from(userProfiles)
    .where(inArray(userProfiles.userId, userIds));
}
