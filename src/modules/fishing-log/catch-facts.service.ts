import type { ServiceDeps } from '../../core/service-deps.js';
import type { DbOrTx } from '../../core/db/client.js';
import { findCatchFacts, keptCatchFacts, type CatchFacts } from './catch-facts.repository.js';
import { visibleEntry } from './entries.service.js';

export type { CatchFacts } from './catch-facts.repository.js';

/**
 * A catch's facts for another module (the regulations check, Master Angler submissions), when
 * `viewerId` may see it: `undefined` when there is no such catch; the fishing log's own 404 / 403
 * problems when its entry is not visible to the viewer.
 */
export async function visibleCatchFacts(deps: ServiceDeps<DbOrTx>, viewerId: string, catchId: string): Promise<CatchFacts | undefined> {
  const facts = await findCatchFacts(deps.db, catchId);
  if (!facts) return undefined;
  await visibleEntry(deps, viewerId, facts.entryId);
  return facts;
}

/** The owner's kept (not released) catches caught in [from, to), except `exceptId` — for bag limits. */
export async function keptCatchesOfOwner(db: DbOrTx, ownerId: string, from: Date, to: Date, exceptId: string): Promise<CatchFacts[]> {
  return keptCatchFacts(db, ownerId, from, to, exceptId);
}
