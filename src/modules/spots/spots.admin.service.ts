import type { ServiceDeps } from '../../core/service-deps.js';
import type { Viewer } from '../../core/access/policy.js';
import { ActivityFilterEnum } from '../../core/http/enums.js';
import { deactivationAndFeaturing } from '../../core/db/featured.js';
import type { Page } from '../../core/http/pagination.js';
import * as repo from './spots.repository.js';
import type { AdminSpotsQueryType } from './spots.schemas.js';
import { spotViews } from './spots.service.js';

/**
 * The administrators' list of spots (Admin, Owner): every spot — deactivated ones, those of
 * deactivated accounts, reference spots — filtered and paged, each with its usage (ratings,
 * confirmations, photos) and its deactivation and featuring; the actions are in spots.admin.routes.ts.
 */
export async function adminListSpots(deps: ServiceDeps, viewer: Viewer, query: AdminSpotsQueryType, page: Page, now = new Date()) {
  const { items, total } = await repo.adminListSpots(deps.db, { ...query, status: ActivityFilterEnum.fromApi(query.status) }, now, page);
  const views = await spotViews(deps, viewer, items, now);
  return {
    items: items.map((row, i) => {
      const { photos, ...view } = views[i]!;
      return {
        ...view,
        ...deactivationAndFeaturing(row),
        usage: { ratings: row.ratingCount, averageRating: view.rating.average, confirmations: row.confirmationCount, photos: photos.length },
      };
    }),
    total,
  };
}
