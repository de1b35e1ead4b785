import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { PRINCIPAL_CHANNEL } from '../auth/notify.js';
import type { DbOrTx } from '../db/client.js';
import { channelCache } from '../db/listen.js';
import { registryKey, type Registries } from '../registries.js';
import type { ServiceDeps } from '../service-deps.js';
import type { Visibility } from './visibility-levels.js';

/**
 * Record visibility (`Public`, `Private`, `Friends`, `Circle`), decided here for every module.
 * - The owner always sees their own record.
 * - Friends: both users added each other. Circle: the owner put the viewer in their circle.
 *
 * Who is whose friend is the social module's knowledge: it registers a `RelationshipProvider` at
 * start-up with the app's registries (`registerRelationships`); the core never reads its tables.
 * Services hand it to the queries that filter by visibility (`relationshipsOf(deps)`).
 *
 * - Nobody else sees the records of a deactivated account (`hiddenOwners`): an account whose
 *   person asked for its deletion (during the grace period, until they cancel), an erased one, one
 *   the administrators deactivated. The rule is part of every branch below and of `canSee`, so
 *   every query that filters by visibility applies it; lists of records without a visibility of
 *   their own (comments, spots, reports) add `ownerShown` to their condition.
 *
 * Lists use `visibilityBranchParts`: one branch per way of seeing a record, each written so an
 * index on (owner, time) or (visibility, time) serves it; the caller runs them as a UNION ALL
 * (a single OR across owner and visibility defeats the indexes: measured 30× slower), each
 * through `newestOfBranch` (core/db/keyset.ts) for a newest-first feed.
 */

export { VISIBILITIES, VisibilitySchema, type Visibility } from './visibility-levels.js';

/** What the core needs to know about relationships between users; the social module implements it. */
export interface RelationshipProvider {
  /** SQL subquery: the users who are friends in force with `viewerId` (both edges present). */
  friendsOf(viewerId: string): SQL;
  /** SQL subquery: the owners whose circle contains `viewerId`. */
  circleOwnersOf(viewerId: string): SQL;
  areFriends(db: DbOrTx, a: string, b: string): Promise<boolean>;
  isInCircle(db: DbOrTx, ownerId: string, memberId: string): Promise<boolean>;
}

const relationshipsKey = registryKey('access.relationships', (): { provider?: RelationshipProvider } => ({}));

/** Called once per app at start-up by the social module's plugin with its implementation. */
export function registerRelationships(deps: { registries: Registries }, relationships: RelationshipProvider): void {
  deps.registries.of(relationshipsKey).provider = relationships;
}

/** The app's relationship provider. */
export function relationshipsOf(deps: { registries: Registries }): RelationshipProvider {
  const { provider } = deps.registries.of(relationshipsKey);
  if (!provider) throw new Error('No relationship provider registered: the social module registers it (src/modules/social/social.module.ts) when the app registers its modules.');
  return provider;
}

/**
 * One way of seeing a record: a condition on the record and, for Friends and Circle, the owners it
 * is limited to (a subquery of user ids), kept apart so that a feed can read each of those owners'
 * newest rows on its own (`newestOfBranch`, core/db/keyset.ts).
 */
export interface VisibilityBranch {
  condition: SQL;
  owners?: SQL;
  /**
   * The branch a feed reads first (the Public branch: every shown owner's public records, in time
   * order): once it fills a page, nothing older than its oldest row can be on that page, which
   * bounds what the other branches read (`newestOfBranches`, core/db/keyset.ts).
   */
  leads?: true;
}

/**
 * SQL subquery: the users whose records nobody else sees (deactivated accounts: see above). Few
 * rows (partial index users_inactive_idx), read once per statement as a hashed subplan.
 */
export const hiddenOwners: SQL = sql`SELECT id FROM users WHERE NOT is_active`;

/** SQL: the record of `owner` may be shown to others (its owner's account is not deactivated); a null owner (reference data) is shown. */
export function ownerShown(owner: AnyPgColumn | SQL): SQL {
  return sql`(${owner} IS NULL OR ${owner} NOT IN (${hiddenOwners}))`;
}

/**
 * The ids of `hiddenOwners`, kept in memory by each app while it listens on the principal channel
 * (every change to a user's standing is notified there: core/auth/notify.ts); read anew without a
 * listener. A change this process commits is forgotten by its service at once (`forgetHiddenOwners`).
 */
const hiddenOwnersKey = registryKey('access.hidden_owners', () =>
  channelCache<ReadonlySet<string>>(PRINCIPAL_CHANNEL, async (db) => {
    const result = await db.execute<{ id: string }>(hiddenOwners);
    return new Set(result.rows.map((row) => row.id));
  }),
);

/** The app's cache of hidden owners: `listen` keeps it while the server listens (src/app.ts). */
export const hiddenOwnersOf = (deps: { registries: Registries }) => deps.registries.of(hiddenOwnersKey);

/** After a commit that deactivated or reactivated an account: this process reads the hidden owners again. */
export const forgetHiddenOwners = (deps: { registries: Registries }) => hiddenOwnersOf(deps).forget();

/** Whether the records of `ownerId` may be shown to others. */
export async function isOwnerShown(deps: ServiceDeps<DbOrTx>, ownerId: string): Promise<boolean> {
  return !(await hiddenOwnersOf(deps).get(deps.db)).has(ownerId);
}

/** The disjoint ways `viewerId` sees a row (OR-ing them is the full rule): own, Public, Friends (owners: friends), Circle (owners: whose circle holds the viewer). */
export function visibilityBranchParts(r: RelationshipProvider, viewerId: string, owner: AnyPgColumn, visibility: AnyPgColumn): VisibilityBranch[] {
  return [
    { condition: sql`${owner} = ${viewerId}` },
    { condition: sql`${visibility} = 'Public' AND ${owner} <> ${viewerId} AND ${owner} NOT IN (${hiddenOwners})`, leads: true },
    { condition: sql`${visibility} = 'Friends' AND ${owner} <> ${viewerId} AND ${owner} NOT IN (${hiddenOwners})`, owners: r.friendsOf(viewerId) },
    { condition: sql`${visibility} = 'Circle' AND ${owner} <> ${viewerId} AND ${owner} NOT IN (${hiddenOwners})`, owners: r.circleOwnersOf(viewerId) },
  ];
}

/**
 * The friends-only scope (`?scope=friends` on a feed, the "Following" feed of social apps): the
 * ways `viewerId` sees a friend's record, each limited to owners so a feed reads them per owner
 * (`newestOfBranch` with `perOwner`): friends' Public and Friends records, and Circle records of
 * friends whose circle holds the viewer (the circle is chosen among friends, and unfriending
 * empties it: the INTERSECT keeps the scope exact even so). Never the viewer's own records (that
 * is `mine`), a stranger's Public one or anyone's Private one. The conditions are those of
 * `visibilityBranchParts`, so the rule (hidden owners included) stays one.
 */
export function friendsOnlyBranchParts(r: RelationshipProvider, viewerId: string, owner: AnyPgColumn, visibility: AnyPgColumn): VisibilityBranch[] {
  const [, pub, friends, circle] = visibilityBranchParts(r, viewerId, owner, visibility);
  return [
    { condition: pub!.condition, owners: r.friendsOf(viewerId) },
    friends!,
    { condition: circle!.condition, owners: sql`${circle!.owners} INTERSECT ${r.friendsOf(viewerId)}` },
  ];
}

/** A branch as one condition (its owners as `owner IN (…)`). */
export function branchCondition(branch: VisibilityBranch, owner: AnyPgColumn): SQL {
  return branch.owners ? sql`${branch.condition} AND ${owner} IN (${branch.owners})` : branch.condition;
}

/** The same rule as one condition, for small or already narrowed sets (e.g. one owner's rows). */
export function visibleTo(relationships: RelationshipProvider, viewerId: string, owner: AnyPgColumn, visibility: AnyPgColumn): SQL {
  return sql`(${sql.join(
    visibilityBranchParts(relationships, viewerId, owner, visibility).map((branch) => sql`(${branchCondition(branch, owner)})`),
    sql` OR `,
  )})`;
}

/** Whether `viewerId` may see one record of `ownerId` with `visibility`. */
export async function canSee(deps: ServiceDeps<DbOrTx>, viewerId: string, record: { ownerId: string; visibility: Visibility | string }): Promise<boolean> {
  if (record.ownerId === viewerId) return true;
  if (!['Public', 'Friends', 'Circle'].includes(record.visibility) || !(await isOwnerShown(deps, record.ownerId))) return false;
  switch (record.visibility) {
    case 'Public':
      return true;
    case 'Friends':
      return relationshipsOf(deps).areFriends(deps.db, viewerId, record.ownerId);
    case 'Circle':
      return relationshipsOf(deps).isInCircle(deps.db, record.ownerId, viewerId);
    default:
      return false;
  }
}
