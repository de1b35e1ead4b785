import type { ServiceDeps } from '../../core/service-deps.js';
import { ActivityFilterEnum } from '../../core/http/enums.js';
import { deactivationAndFeaturing } from '../../core/db/featured.js';
import type { Page } from '../../core/http/pagination.js';
import * as repo from './clubs.repository.js';
import type { AdminClubsQueryType } from './clubs.schemas.js';
import { clubView } from './clubs.service.js';

/**
 * The administrators' list of clubs (Admin, Owner): every club — deactivated ones and those of
 * deactivated accounts too — filtered and paged, each with its usage (members, admins, pending
 * requests) and its deactivation and featuring; the actions are in clubs.admin.routes.ts.
 */
export async function adminListClubs(deps: ServiceDeps, query: AdminClubsQueryType, page: Page, now = new Date()) {
  const { items, total } = await repo.adminListClubs(deps.db, { ...query, status: ActivityFilterEnum.fromApi(query.status) }, now, page);
  return {
    items: items.map((row) => {
      const { myMembership: _membership, ...view } = clubView(row, undefined, now);
      return {
        ...view,
        ...deactivationAndFeaturing(row),
        usage: { members: row.memberCount, admins: row.admins, pendingRequests: row.pendingRequests },
      };
    }),
    total,
  };
}
