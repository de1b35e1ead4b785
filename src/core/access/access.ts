import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Principal } from '../auth/authenticate.js';
import type { Db } from '../db/client.js';
import { AppError } from '../http/problem.js';
import { grantInForce } from './grants.repository.js';
import { resolveLevel, resolvePermission, resolveRoles, type AccessLevel } from './resolve.js';

/**
 * Route-level access, declared on each route as `config: { access }` and enforced here, in one
 * place, after authentication. A route that declares nothing needs an authenticated caller.
 */
export type Access = AccessLevel;

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: AccessLevel;
    /** A banned user may call this route (reading one's ban, appealing it); every other authenticated route refuses them. */
    allowBanned?: boolean;
    /**
     * A user whose account deletion is pending (deactivated meanwhile) may call this route (reading
     * and cancelling the deletion, their own profile); every other authenticated route refuses them.
     */
    allowPendingDeletion?: boolean;
  }
  interface FastifyRequest {
    /** The authenticated caller; null only on public routes. */
    principal: Principal | null;
    /** Restrictions of the permission grant that let the caller in (e.g. { maxBanDays: 7 }). */
    grantRestrictions: Record<string, unknown> | null;
  }
}

export function routeAccess(request: FastifyRequest): AccessLevel {
  return request.routeOptions.config.access ?? 'authenticated';
}

/** Marks every route registered in `scope` (and its children) public. */
export function makeRoutesPublic(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    route.config = { ...(route.config ?? {}), access: 'public' };
  });
}

/** Throws 403 unless the principal passes the route's access level. */
export async function enforceAccess(db: Db, principal: Principal, level: AccessLevel): Promise<Record<string, unknown> | null> {
  if (level === 'public' || level === 'authenticated') return null;
  if (typeof level === 'object' && 'anyPermission' in level) {
    // Any one of the permissions lets the caller in (e.g. reading announcements: Create, Edit or Delete).
    const decisions = await Promise.all(level.anyPermission.map(async (p) => resolvePermission(principal.role, p, await grantInForce(db, principal.userId, p))));
    const allowed = decisions.find((d) => d.allowed);
    if (allowed?.allowed) return allowed.restrictions;
    throw new AppError(403, 'access.permission_denied', `Requires any of the permissions ${level.anyPermission.join(', ')}; ask the Owner to grant one.`);
  }
  const decision =
    level === 'admin' || level === 'owner'
      ? resolveLevel(principal.role, level)
      : 'roles' in level
        ? resolveRoles(principal.role, level.roles)
        : resolvePermission(principal.role, level.permission, await grantInForce(db, principal.userId, level.permission));
  if (!decision.allowed) throw new AppError(403, decision.code, decision.detail);
  return decision.restrictions;
}

/** The principal of an authenticated route (the access hook guarantees it). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('principalOf() on a route without authentication');
  return request.principal;
}
