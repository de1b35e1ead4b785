import type { ServiceDeps } from '../../core/service-deps.js';
import type { DbOrTx } from '../../core/db/client.js';
import { keptCatchesOfOwner, visibleCatchFacts, type CatchFacts } from '../fishing-log/catch-facts.service.js';
import { RegulationErrors } from './regulations.errors.js';

/**
 * What the regulations module needs from the fishing log: one catch the caller may see, and the
 * owner's kept catches of a time range. The module depends on this port only (tests and the app
 * may pass another implementation through the route options); the default goes through the
 * fishing log's public functions, never its tables.
 */

export type LoggedCatch = CatchFacts;

export interface CatchSource {
  /** The catch when `viewerId` may see it; throws the fishing log's 404 / 403 problems. */
  visibleCatch(deps: ServiceDeps<DbOrTx>, viewerId: string, catchId: string): Promise<LoggedCatch>;
  /** The owner's kept catches caught in [from, to), except `exceptId`. */
  keptCatches(db: DbOrTx, ownerId: string, from: Date, to: Date, exceptId: string): Promise<LoggedCatch[]>;
}

export const fishingLogCatchSource: CatchSource = {
  async visibleCatch(deps, viewerId, catchId) {
    const facts = await visibleCatchFacts(deps, viewerId, catchId);
    if (!facts) throw RegulationErrors.catchNotFound(catchId);
    return facts;
  },
  keptCatches: keptCatchesOfOwner,
};
