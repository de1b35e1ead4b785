import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { recordAudit, type AuditContext } from '../../core/audit/audit.js';
import { notify } from '../../core/notifications/outbox.js';
import { notifyPrincipalChanged } from '../../core/auth/notify.js';
import type { UserDirectory } from '../../core/auth/user-directory.js';
import { Role, roleName } from '../../core/access/roles.js';
import type { DbOrTx } from '../../core/db/client.js';
import { UserErrors } from './users.errors.js';
import * as repo from './users.repository.js';
import { latestUnliftedBan } from './bans.repository.js';
import { banIdentityKeyOf, banRecognisedIdentity, rememberBannedIdentity } from './bans-identity.js';
import type { UserRow } from './users.tables.js';

/** The API's view of a user's identity (no internal fields). */
export function publicUser(row: UserRow) {
  return { id: row.id, username: row.username, email: row.email, role: roleName(row.role) };
}

/**
 * Changes a user's role with the platform's protections, inside the caller's transaction, and
 * writes its audit entry there:
 * - the Owner's role cannot be changed (unless `force`, the operator's CLI escape hatch);
 * - the last Admin who can sign in (active, enabled in the identity provider) cannot stop being
 *   an Admin; role changes are serialised by a transaction lock, so two concurrent demotions of
 *   the last two Admins cannot both pass.
 */
export async function changeUserRole(
  deps: ServiceDeps<DbOrTx>,
  context: AuditContext,
  userId: string,
  role: number,
  options: { action: string; reason?: string | null; force?: boolean },
): Promise<UserRow> {
  const { db: tx } = deps;
  await repo.lockRoleChanges(tx);
  const target = await repo.findByIdForUpdate(tx, userId);
  if (!target) throw UserErrors.notFound(userId);
  if (target.role === Role.Owner && role !== Role.Owner && !options.force) throw UserErrors.ownerRoleProtected();
  if (target.role === Role.Admin && role !== Role.Admin) {
    const others = (await repo.lockIdsWhoCanSignIn(tx, Role.Admin)).filter((id) => id !== userId);
    if (others.length === 0) throw UserErrors.lastAdmin();
  }
  const updated = target.role === role ? target : await repo.setRole(tx, userId, role);
  await notifyPrincipalChanged(tx, target.sub);
  await recordAudit(inTx(deps, tx), context, {
    action: options.action,
    targetType: 'user',
    targetId: userId,
    reason: options.reason ?? null,
    before: { role: roleName(target.role) },
    after: { role: roleName(updated.role) },
  });
  if (target.role !== updated.role) {
    await notify(tx, {
      type: 'employees.role_changed',
      path: '/api/userprofile/me',
      payload: { userId, role: roleName(updated.role) },
      recipients: [{ userId, title: 'Your role changed', body: `Your role is now ${roleName(updated.role)} (was ${roleName(target.role)})${options.reason ? `: ${options.reason}` : ''}.` }],
    });
  }
  return updated;
}

/** Active users by username prefix (case-insensitive), at most `limit`: id and username only. */
export async function findByUsernamePrefix(deps: ServiceDeps<DbOrTx>, prefix: string, limit: number): Promise<Array<{ id: string; username: string }>> {
  const { db } = deps;
  return repo.usernamePrefixQuery(db, prefix, limit);
}

/**
 * The users module's implementation of the core's user directory (authentication resolves users
 * through it), with the app's key of banned identities' hashes (`banIdentityKey`, bans-identity.ts).
 */
export function createUserDirectory(banKey: Buffer): UserDirectory {
  return {
    async upsertFromClaims(db, claims) {
      const user = await userFromClaims(db, banKey, claims);
      const ban = await latestUnliftedBan(db, user.id);
      return { ...user, ban: ban ?? null };
    },
  };
}

/** For the seeds' demonstration accounts (fixed identities of no person): the user of `claims`, created on first sight. */
export async function upsertDemoUser(db: DbOrTx, claims: { sub: string; username: string; email: string }): Promise<UserRow> {
  const { inserted: _inserted, ...user } = await repo.upsertUserFromClaims(db, claims);
  return user;
}

/**
 * Records a successful sign-in (POST /api/auth/login) of the identity in `claims`, creating the
 * user on first sight: the last sign-in and the activity timeline read these rows.
 */
export async function recordSignIn(deps: ServiceDeps<DbOrTx>, claims: { sub: string; username: string; email: string | undefined }, meta: { ip: string | null; userAgent: string | null }) {
  const { db } = deps;
  const user = await userFromClaims(db, banIdentityKeyOf(deps.registries), claims);
  await repo.insertSignIn(db, { userId: user.id, ipAddress: meta.ip, userAgent: meta.userAgent?.slice(0, 512) ?? null });
}

/** For other modules: a user by id (undefined when there is none). */
export function findUserById(deps: ServiceDeps<DbOrTx>, id: string): Promise<UserRow | undefined> {
  const { db } = deps;
  return repo.findById(db, id);
}

/** The user of `claims`, created on first sight; a new user whose identity is that of an erased, banned account is banned too (bans-identity.ts). */
async function userFromClaims(db: DbOrTx, banKey: Buffer, claims: { sub: string; username: string; email: string | undefined }): Promise<UserRow> {
  const { inserted, ...user } = await repo.upsertUserFromClaims(db, claims);
  if (inserted) await banRecognisedIdentity(db, banKey, user.id, { sub: user.sub, email: user.email }, new Date());
  return user;
}

/**
 * For the accounts module: deactivates the account whose person asked for its deletion (their
 * content leaves every other person's view: core/access/visibility.ts), or reactivates it when
 * the deletion is cancelled. Cached principals are dropped in every process at the commit.
 */
export async function setDeletionPending(deps: ServiceDeps<DbOrTx>, userId: string, pending: boolean, at: Date): Promise<void> {
  const { db } = deps;
  const user = await repo.findById(db, userId);
  if (!user) throw UserErrors.notFound(userId);
  if (pending) await repo.markDeletionRequested(db, userId, at);
  else await repo.clearDeletionRequested(db, userId, at);
  await notifyPrincipalChanged(db, user.sub);
}

/**
 * For the accounts module's erasure, inside its transaction: the bans of the account learn the
 * hashes of its identity, then the row keeps only its id ("a former angler"). Answers the
 * identity-provider subject, for deleting the provider's user after the commit.
 */
export async function eraseUserIdentity(deps: ServiceDeps<DbOrTx>, userId: string, at: Date): Promise<{ sub: string }> {
  const { db } = deps;
  const user = await repo.findByIdForUpdate(db, userId);
  if (!user) throw UserErrors.notFound(userId);
  await rememberBannedIdentity(db, banIdentityKeyOf(deps.registries), userId, { sub: user.sub, email: user.email });
  await repo.eraseIdentity(db, userId, at);
  await notifyPrincipalChanged(db, user.sub);
  return { sub: user.sub };
}
