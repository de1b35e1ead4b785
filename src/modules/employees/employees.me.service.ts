import { effectiveAccess } from '../../core/access/effective.js';
import { Role, roleName } from '../../core/access/roles.js';
import type { Principal } from '../../core/auth/authenticate.js';
import type { ServiceDeps } from '../../core/service-deps.js';

/** The caller's role and what the access resolver lets them do: what a staff client shows them. */
export async function myAccess(deps: ServiceDeps, principal: Principal) {
  const access = await effectiveAccess(deps.db, principal);
  return {
    userId: principal.userId,
    username: principal.username,
    role: roleName(principal.role),
    staff: principal.role === Role.Owner || principal.role === Role.Admin || principal.role === Role.Moderator,
    ...access,
  };
}
