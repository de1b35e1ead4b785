import type { FastifyBaseLogger } from 'fastify';
import { accountPolicy } from '../../core/access/policies/index.js';
import { authorize } from '../../core/access/policy.js';
import { forgetHiddenOwners } from '../../core/access/visibility.js';
import type { SettingsReader } from '../../core/app-deps.js';
import { recordAudit, type AuditContext } from '../../core/audit/audit.js';
import type { Principal } from '../../core/auth/authenticate.js';
import type { IdentityProvider } from '../../core/auth/idp/types.js';
import { recordLoginSuccess, releaseLoginAttempt, reserveLoginAttempt } from '../../core/auth/login-throttle.js';
import { transaction } from '../../core/db/pipeline.js';
import { AppError } from '../../core/http/problem.js';
import type { Page } from '../../core/http/pagination.js';
import { coveredColumns, personalDataOf } from '../../core/personal-data.js';
import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { UserErrors } from '../users/index.js';
import { eraseUserIdentity, setDeletionPending } from '../users/users.service.js';
import { AccountErrors } from './accounts.errors.js';
import type { AccountDeletionRow } from './accounts.tables.js';
import * as repo from './deletion.repository.js';

/**
 * Deleting an account, as Strava, Garmin Connect and Google do it: the person asks (proving it is
 * them), the account is deactivated and signed out everywhere at once (their content leaves every
 * other person's view: core/access/visibility.ts), and erased after a grace period
 * (`AccountDeletionGraceDays`, default 30) unless they cancel meanwhile or an Owner put it on
 * legal hold. Erasure is every module's job: each registers what it keeps about a person and what
 * becomes of it (core/personal-data.ts); this service runs them in one transaction, then deletes
 * the identity provider's user and the stored files.
 */

export interface DeletionDeps extends ServiceDeps {
  idp: IdentityProvider;
  settings: SettingsReader;
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
  /**
   * Drops this process's cached principal of a user (`sub`) once a change to it has committed:
   * its next request already reads the change (other processes learn it from the NOTIFY).
   */
  invalidate: (sub: string) => void;
}

/** A password-free request must come from a sign-in this recent (the token's `auth_time`, else its `iat`). */
export const FRESH_SIGN_IN_SECONDS = 300;
export const DEFAULT_GRACE_DAYS = 30;
const DAY_MS = 86_400_000;

/** The person's view of their pending (or cancelled) deletion. */
export function deletionView(row: AccountDeletionRow) {
  return {
    status: row.status,
    requestedAt: row.requestedAt.toISOString(),
    eraseAfter: row.eraseAfter.toISOString(),
    cancelledAt: row.cancelledAt?.toISOString() ?? null,
  };
}

/** The administration's view: with the user and the legal hold. */
export function adminDeletionView(row: repo.DeletionWithUser) {
  return {
    userId: row.userId,
    username: row.username,
    email: row.email,
    ...deletionView(row),
    erasedAt: row.erasedAt?.toISOString() ?? null,
    legalHold: row.legalHoldAt ? { since: row.legalHoldAt.toISOString(), by: row.legalHoldBy, reason: row.legalHoldReason ?? '' } : null,
  };
}

function graceMs(deps: DeletionDeps): number {
  const days = deps.settings.get<number>('AccountDeletionGraceDays');
  return (typeof days === 'number' && days >= 0 ? days : DEFAULT_GRACE_DAYS) * DAY_MS;
}

/** Proof that the caller is the person: their password again, or a sign-in under 5 minutes old. */
async function reauthenticate(deps: DeletionDeps, principal: Principal, input: { password?: string | undefined; idToken: string; ip: string }, now: Date): Promise<void> {
  if (input.password === undefined) {
    const claims = await deps.idp.verifyIdToken(input.idToken);
    const signedInAt = claims.authTime ?? claims.iat;
    if (signedInAt === undefined || now.getTime() / 1000 - signedInAt > FRESH_SIGN_IN_SECONDS) throw AccountErrors.reauthenticationRequired();
    return;
  }
  // Counted like a sign-in: guessing the password here is throttled as at POST /api/auth/login.
  await reserveLoginAttempt(deps.db, principal.username, input.ip);
  try {
    await deps.idp.login(principal.username, input.password);
  } catch (error) {
    if (error instanceof AppError && error.code === 'auth.invalid_credentials') throw AccountErrors.passwordIncorrect();
    await releaseLoginAttempt(deps.db, principal.username, input.ip).catch(() => undefined);
    if (error instanceof AppError && error.status === 401) throw AccountErrors.passwordNotAccepted();
    throw error;
  }
  await recordLoginSuccess(deps.db, principal.username, input.ip);
}

/**
 * Schedules the caller's deletion. Two requests at once schedule one (the second answers the
 * deletion the first scheduled: `created: false`). The Owner's account is refused (409).
 */
export async function requestDeletion(
  deps: DeletionDeps,
  context: AuditContext,
  principal: Principal,
  input: { password?: string | undefined; idToken: string; ip: string },
  now: Date,
): Promise<{ created: boolean; deletion: ReturnType<typeof deletionView> }> {
  const account = { userId: principal.userId, role: principal.role };
  await authorize(accountPolicy, principal, 'delete', account, deps, () => UserErrors.notFound(principal.userId));
  await reauthenticate(deps, principal, input, now);
  const outcome = await transaction(deps.db, async (tx) => {
    const scheduled = await repo.schedule(tx, principal.userId, now, new Date(now.getTime() + graceMs(deps)));
    if (!scheduled) return { created: false, row: (await repo.findDeletion(tx, principal.userId))! };
    await setDeletionPending(inTx(deps, tx), principal.userId, true, now);
    await recordAudit(inTx(deps, tx), context, {
      action: 'accounts.deletion_requested',
      targetType: 'user',
      targetId: principal.userId,
      after: { status: 'Pending', eraseAfter: scheduled.eraseAfter.toISOString() },
    });
    return { created: true, row: scheduled };
  });
  if (outcome.created) {
    deps.invalidate(principal.sub);
    forgetHiddenOwners(deps);
    // Every sign-in ends; signing in again stays possible during the grace period (to cancel).
    await deps.idp.signOutUser(principal.sub).catch((error: unknown) => deps.log.warn({ err: error, userId: principal.userId }, 'signing out everywhere after a deletion request failed'));
  }
  return { created: outcome.created, deletion: deletionView(outcome.row) };
}

/** The caller's pending deletion (404 when none). */
export async function getDeletion(deps: ServiceDeps, userId: string) {
  const row = await repo.findDeletion(deps.db, userId);
  if (!row || row.status !== 'Pending') throw AccountErrors.noPendingDeletion();
  return deletionView(row);
}

/** For the caller's own profile: when their account will be erased, when a deletion is pending. */
export async function pendingDeletionOf(deps: ServiceDeps, userId: string): Promise<{ requestedAt: string; eraseAfter: string } | null> {
  const row = await repo.findDeletion(deps.db, userId);
  return row?.status === 'Pending' ? { requestedAt: row.requestedAt.toISOString(), eraseAfter: row.eraseAfter.toISOString() } : null;
}

/** Cancels the caller's pending deletion: the account is active again and their content shows again. */
export async function cancelDeletion(deps: ServiceDeps & Pick<DeletionDeps, 'invalidate'>, context: AuditContext, principal: Principal, now: Date) {
  const row = await transaction(deps.db, async (tx) => {
    await authorize(accountPolicy, principal, 'cancelDeletion', { userId: principal.userId, role: principal.role }, inTx(deps, tx), () => UserErrors.notFound(principal.userId));
    const cancelled = await repo.cancel(tx, principal.userId, now);
    if (!cancelled) throw AccountErrors.noPendingDeletion();
    await setDeletionPending(inTx(deps, tx), principal.userId, false, now);
    await recordAudit(inTx(deps, tx), context, { action: 'accounts.deletion_cancelled', targetType: 'user', targetId: principal.userId, before: { status: 'Pending' }, after: { status: 'Cancelled' } });
    return cancelled;
  });
  deps.invalidate(principal.sub);
  forgetHiddenOwners(deps);
  return deletionView(row);
}

/**
 * Erases every account whose grace period has ended at `now` and that no legal hold keeps: one
 * transaction per account runs every module's registration (core/personal-data.ts), leaves the
 * user row as "a former angler" and marks the deletion erased. After the commits, the modules'
 * `afterErase` (stored files) and the identity provider's deletion of the user (retried by the
 * next run when it fails). Answers the erased user ids.
 */
export async function eraseDueAccounts(deps: DeletionDeps, now: Date): Promise<string[]> {
  const erased: string[] = [];
  // An account whose erasure fails (rolled back whole) waits for the next run; the others go on.
  const failed: string[] = [];
  const context: AuditContext = { actor: { type: 'system' }, userAgent: 'fishlog accounts.erase job' };
  for (;;) {
    let attempted: string | undefined;
    const userId = await transaction(deps.db, async (tx) => {
      const due = await repo.lockNextDue(tx, now, failed);
      if (!due) return undefined;
      attempted = due.userId;
      for (const registration of personalDataOf(deps)) {
        await registration.erase?.(tx, due.userId);
        for (const column of registration.columns) await repo.applyErasure(tx, column.table, column.column, column.action, due.userId);
      }
      const { sub } = await eraseUserIdentity(inTx(deps, tx), due.userId, now);
      await repo.markErased(tx, due.userId, now, sub);
      await recordAudit(inTx(deps, tx), context, {
        action: 'accounts.erased',
        targetType: 'user',
        targetId: due.userId,
        before: { status: 'Pending', requestedAt: due.requestedAt.toISOString() },
        after: { status: 'Erased' },
      });
      return due.userId;
    }).catch((error: unknown) => {
      if (attempted === undefined) throw error;
      deps.log.warn({ err: error, userId: attempted }, 'erasing an account failed (nothing of it was changed); the next run retries');
      failed.push(attempted);
      return null;
    });
    if (userId === undefined) break;
    if (userId) {
      erased.push(userId);
      deps.invalidate(userId);
    }
  }
  if (erased.length > 0) {
    for (const registration of personalDataOf(deps)) {
      await registration.afterErase?.().catch((error: unknown) => deps.log.warn({ err: error, module: registration.module }, 'after-erasure step failed; the next run retries'));
    }
  }
  await deleteIdentityProviderUsers(deps);
  return erased;
}

/** Deletes the identity provider's users of erased accounts; a failure is left for the next run. */
async function deleteIdentityProviderUsers(deps: DeletionDeps): Promise<void> {
  for (const { userId, idpSubject } of await repo.idpDeletionsDue(deps.db, 100)) {
    try {
      await deps.idp.deleteUser(idpSubject);
      await repo.forgetIdpSubject(deps.db, userId);
    } catch (error) {
      deps.log.warn({ err: error, userId }, 'deleting the identity provider user of an erased account failed; the next run retries');
    }
  }
}

/** The administration's list of deletions (pending ones by default). */
export async function listDeletions(deps: ServiceDeps, filter: repo.DeletionFilter, page: Page) {
  const { items, total } = await repo.listDeletions(deps.db, filter, page);
  return { items: items.map(adminDeletionView), total };
}

/** Puts a pending deletion on legal hold (erasure waits until it is lifted) or lifts it; audit-logged with the reason. */
export async function setLegalHold(deps: ServiceDeps, context: AuditContext, userId: string, hold: boolean, reason: string, now: Date) {
  return transaction(deps.db, async (tx) => {
    const row = await repo.findDeletion(tx, userId, { lock: true });
    if (!row || row.status !== 'Pending') throw AccountErrors.deletionNotFound(userId);
    if (hold && row.legalHoldAt) throw AccountErrors.alreadyOnHold(userId);
    if (!hold && !row.legalHoldAt) throw AccountErrors.notOnHold(userId);
    await repo.setLegalHold(tx, userId, hold ? { at: now, by: context.actor.userId ?? null, reason } : null, now);
    await recordAudit(inTx(deps, tx), context, {
      action: hold ? 'accounts.legal_hold_placed' : 'accounts.legal_hold_lifted',
      targetType: 'user',
      targetId: userId,
      reason,
      before: { legalHold: row.legalHoldAt !== null },
      after: { legalHold: hold },
    });
    return adminDeletionView((await repo.deletionWithUser(tx, userId))!);
  });
}

/**
 * What the registrations (core/personal-data.ts) miss or get wrong against the database: a column
 * with a foreign key to `users` that no module registered, a registered column that is not such a
 * key, a `detach` of a column that cannot be null. Empty when erasure covers every user column.
 */
export async function personalDataGaps(deps: ServiceDeps): Promise<string[]> {
  const covered = coveredColumns(deps);
  const keys = await repo.userForeignKeys(deps.db);
  const gaps: string[] = [];
  for (const key of keys) {
    const name = `${key.table}.${key.column}`;
    const registered = covered.get(name);
    if (!registered) gaps.push(`${name} refers to users but no module registered it (registerPersonalData)`);
    else if (registered.column.action === 'detach' && !key.nullable) gaps.push(`${name} is registered by ${registered.module} as detach but cannot be null`);
  }
  const known = new Set(keys.map((key) => `${key.table}.${key.column}`));
  for (const [name, { module }] of covered) if (!known.has(name)) gaps.push(`${name} is registered by ${module} but has no foreign key to users`);
  return gaps;
}
