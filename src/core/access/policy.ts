import type { DbOrTx } from '../db/client.js';
import type { ServiceDeps } from '../service-deps.js';
import { AppError } from '../http/problem.js';
import { Role } from './roles.js';

/**
 * Record-level access: one policy per resource type answers `can(viewer, action, record)`.
 * Services ask a policy (through `authorize` or `allows`); no service compares owner ids itself.
 * Route-level access (roles and permissions, `config.access`) is decided before, in access.ts.
 *
 * The status rule, for every resource of the API:
 * - **404** only when the record does not exist (`authorize` receives no record);
 * - **403** when the caller may not ("you may not"): role, permission, ownership, membership,
 *   visibility. A rule that refuses an action on a record the caller may not see answers with its
 *   visibility refusal first;
 * - **409** when the caller could, but the record's state conflicts with the action: already a
 *   member, already verified, deactivated, not open, or the caller's own content (booking one's own
 *   listing, confirming one's own spot). Such a refusal is made with `conflict(...)`.
 * The refusal's `code` and `detail` say which, and what the caller can do about it.
 *
 * A policy never reads a module's tables: what a rule needs beyond the record (friendship, circle,
 * membership…) comes through the `PolicyContext`, whose providers the modules register at start-up.
 */

/** Who asks: the authenticated principal (its user id and, where a rule needs it, role number). */
export interface Viewer {
  readonly userId: string;
  readonly role?: number;
}

/** The viewer of a user id (services receive the caller's id). */
export function asViewer(viewer: Viewer | string): Viewer {
  return typeof viewer === 'string' ? { userId: viewer } : viewer;
}

/** Why an action is refused: a stable dotted code, what to do about it, and 409 for a state conflict (403 otherwise). */
export interface Refusal {
  readonly code: string;
  readonly detail: string;
  readonly status?: 403 | 409;
}

/** A refusal for a state conflict (answered 409): the caller could, but not in the record's present state. */
export function conflict(code: string, detail: string): Refusal {
  return { code, detail, status: 409 };
}

/** `true` to allow; a refusal (answered 403, or 409 for a `conflict`) otherwise. */
export type Decision = true | Refusal;

/**
 * What rules may consult beyond the record: the service's dependencies — the database handle of
 * the current request or transaction, and the app's registries (who is whose friend: visibility.ts).
 */
export type PolicyContext = ServiceDeps<DbOrTx>;

export type Rule<R> = (viewer: Viewer, record: R, context: PolicyContext) => Decision | Promise<Decision>;

export interface Policy<R, A extends string> {
  /** The resource type, e.g. `entries`. */
  readonly resource: string;
  /** The actions the policy knows. */
  readonly actions: readonly A[];
  can(viewer: Viewer, action: A, record: R, context: PolicyContext): Promise<Decision>;
}

/** A policy from one rule per action. */
export function definePolicy<R, A extends string>(resource: string, rules: Record<A, Rule<R>>): Policy<R, A> {
  const actions = Object.keys(rules) as A[];
  return {
    resource,
    actions,
    async can(viewer, action, record, context) {
      const rule = rules[action];
      if (!rule) throw new Error(`policy ${resource} has no rule for '${action}'`);
      return rule(viewer, record, context);
    },
  };
}

/**
 * The record when `viewer` may do `action` on it. No record: `notFound()` (404). Refused: 403
 * (409 for a `conflict`) with the policy's code and detail.
 */
export async function authorize<R, A extends string, T extends R>(
  policy: Policy<R, A>,
  viewer: Viewer | string,
  action: A,
  record: T | null | undefined,
  context: PolicyContext,
  notFound: () => AppError,
): Promise<T> {
  if (record === null || record === undefined) throw notFound();
  const decision = await policy.can(asViewer(viewer), action, record, context);
  if (decision !== true) throw new AppError(decision.status ?? 403, decision.code, decision.detail);
  return record;
}

/** Whether `viewer` may do `action` on `record` (for shaping a view, not for refusing). */
export async function allows<R, A extends string>(policy: Policy<R, A>, viewer: Viewer | string, action: A, record: R, context: PolicyContext): Promise<boolean> {
  return (await policy.can(asViewer(viewer), action, record, context)) === true;
}

/** The one comparison of a user with the viewer: whether the viewer is the user `userId`. */
export function isSelf(viewer: Pick<Viewer, 'userId'> | string, userId: string): boolean {
  return userId === (typeof viewer === 'string' ? viewer : viewer.userId);
}

/** Whether the viewer owns the record. */
export function isOwner(viewer: Pick<Viewer, 'userId'> | string, record: { readonly ownerId: string }): boolean {
  return isSelf(viewer, record.ownerId);
}

/** The one test of the administrator roles in record rules: an Admin or the Owner. */
export function isAdmin(viewer: Pick<Viewer, 'role'>): boolean {
  return viewer.role === Role.Admin || viewer.role === Role.Owner;
}

/** A rule allowing only the record's owner; anyone else gets `refusal`. */
export function ownerOnly<R extends { readonly ownerId: string }>(refusal: Refusal): Rule<R> {
  return (viewer, record) => (isOwner(viewer, record) ? true : refusal);
}
