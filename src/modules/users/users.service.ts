import { recordAudit, type AuditContext } from '../../core/audit/audit.js';
import { notifyPrincipalChanged } from '../../core/auth/notify.js';
import { Role, roleName } from '../../core/access/roles.js';
import type { DbOrTx } from '../../core/db/client.js';
import { UserErrors } from './users.errors.js';
import * as repo from './users.repository.js';
import type { UserRow } from './users.tables.js';

/** The API's view of a user's identity (no internal fields). */
export function publicUser(row: UserRow) {
  return { id: row.id, username: row.username, email: row.email, role: roleName(row.role) };
}

/**
 * Changes a user's role with the platform's protections, inside the caller's transaction, and
 * writes its audit entry there:
 * - the Owner's role cannot be changed (unless `force`, the operator's CLI escape hatch);
 * - the last Admin cannot stop being an Admin.
 */
export async function changeUserRole(
  tx: DbOrTx,
  context: AuditContext,
  userId: string,
  role: number,
  options: { action: string; reason?: string | null; force?: boolean },
): Promise<UserRow> {
  const target = await repo.findByIdForUpdate(tx, userId);
  if (!target) throw UserErrors.notFound(userId);
  if (target.role === Role.Owner && role !== Role.Owner && !options.force) throw UserErrors.ownerRoleProtected();
  if (target.role === Role.Admin && role !== Role.Admin) {
    const admins = await repo.lockIdsWithRole(tx, Role.Admin);
    if (admins.length <= 1) throw UserErrors.lastAdmin();
  }
  const updated = target.role === role ? target : await repo.setRole(tx, userId, role);
  await notifyPrincipalChanged(tx, target.sub);
  await recordAudit(tx, context, {
    action: options.action,
    targetType: 'user',
    targetId: userId,
    reason: options.reason ?? null,
    before: { role: roleName(target.role) },
    after: { role: roleName(updated.role) },
  });
  return updated;
}
