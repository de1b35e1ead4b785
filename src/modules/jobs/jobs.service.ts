import type { ServiceDeps } from '../../core/service-deps.js';
import type { Page } from '../../core/http/pagination.js';
import * as repo from './jobs.repository.js';
import type { JobsQueryType } from './jobs.schemas.js';

/** The job queue as administrators see it: what ran, what waits, what failed and why. */
export async function listJobs(deps: ServiceDeps, filter: JobsQueryType, page: Page) {
  const { db } = deps;
  const { items, total } = await repo.listJobs(db, filter, page);
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  return {
    total,
    items: items.map((row) => ({ ...row, createdAt: row.createdAt.toISOString(), startAfter: row.startAfter.toISOString(), startedAt: iso(row.startedAt), completedAt: iso(row.completedAt) })),
  };
}
