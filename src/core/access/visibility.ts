import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client.js';
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
}

/** The disjoint ways `viewerId` sees a row (OR-ing them is the full rule): own, Public, Friends (owners: friends), Circle (owners: whose circle holds the viewer). */
export function visibilityBranchParts(r: RelationshipProvider, viewerId: string, owner: AnyPgColumn, visibility: AnyPgColumn): VisibilityBranch[] {
  return [
    { condition: sql`${owner} = ${viewerId}` },
    { condition: sql`${visibility} = 'Public' AND ${owner} <> ${viewerId}` },
    { condition: sql`${visibility} = 'Friends' AND ${owner} <> ${viewerId}`, owners: r.friendsOf(viewerId) },
    { condition: sql`${visibility} = 'Circle' AND ${owner} <> ${viewerId}`, owners: r.circleOwnersOf(viewerId) },
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
