import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import type { FastifyBaseLogger } from 'fastify';
import { uuidv7 } from '../../core/db/ids.js';
import { fishingReportPolicy } from '../../core/access/policies/fishing-reports.js';
import { allows, authorize, isSelf, type Viewer } from '../../core/access/policy.js';
import { recordAudit, type AuditContext } from '../../core/audit/audit.js';
import type { DbOrTx } from '../../core/db/client.js';
import { snapToGrid, toKm, type Near } from '../../core/db/geo.js';
import { shownLocation } from '../../core/http/coordinates.js';
import type { Page } from '../../core/http/pagination.js';
import { moderateContent, recordVerdictRules, type ContentStatus } from '../moderation/moderation.service.js';
import { assertLookupValues } from '../lookups/index.js';
import { assertReferenceableSpecies, speciesRefs } from '../species/species.service.js';
import { FishingReportErrors } from './fishing-reports.errors.js';
import * as repo from './fishing-reports.repository.js';
import type { CreateFishingReportInput } from './fishing-reports.schemas.js';
import { photoViews } from '../photos/photos.service.js';

/**
 * Fishing reports: any angler reports how the fishing was; the report is moderated like a post
 * (published, held for review, or rejected) before others see it; others see the location
 * rounded to ~1 km unless the author chose `exactLocation`; "helpful" marks once per user.
 */

type Log = Pick<FastifyBaseLogger, 'warn' | 'info'>;
type ReportAction = Parameters<typeof fishingReportPolicy.can>[1];

const asRecord = (row: repo.ReportWithAuthor) => ({ ownerId: row.authorId, status: row.status, exactLocation: row.exactLocation });

async function views(deps: ServiceDeps<DbOrTx>, viewer: Viewer, rows: repo.ReportWithAuthor[]) {
  const { db } = deps;
  const [species, marked, photos] = await Promise.all([
    speciesRefs(
      deps.db,
      rows.flatMap((r) => r.species.map((s) => s.speciesId)),
    ),
    repo.markedBy(
      db,
      viewer.userId,
      rows.map((r) => r.id),
    ),
    photoViews(
      deps,
      viewer.userId,
      rows.map((r) => r.id),
    ),
  ]);
  return Promise.all(
    rows.map(async (row) => {
      const exact = await allows(fishingReportPolicy, viewer, 'seeExact', asRecord(row), deps);
      return {
        id: row.id,
        author: { userId: row.authorId, username: row.authorUsername },
        waterBody: row.waterBody,
        stateCode: row.stateCode,
        location: shownLocation(exact, { latitude: row.lat, longitude: row.lon }, { latitude: row.publicLat, longitude: row.publicLon }),
        fishedOn: row.fishedOn,
        conditions: { waterTempC: row.waterTempC, clarity: row.clarity, sky: row.sky, windKmh: row.windKmh, windDirection: row.windDirection },
        species: row.species.map((s) => ({ speciesId: s.speciesId, commonName: species.get(s.speciesId)?.commonName ?? 'Unknown species', bite: s.bite })),
        text: row.text,
        photos: photos.get(row.id)!,
        status: row.status,
        moderationReason: isSelf(viewer, row.authorId) ? row.moderationReason : null,
        helpfulCount: row.helpfulCount,
        markedHelpful: marked.has(row.id),
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
      };
    }),
  );
}

async function permitted(deps: ServiceDeps<DbOrTx>, viewer: Viewer, action: ReportAction, id: string, row: repo.ReportWithAuthor | undefined): Promise<repo.ReportWithAuthor> {
  await authorize(fishingReportPolicy, viewer, action, row ? asRecord(row) : undefined, deps, () => FishingReportErrors.notFound(id));
  return row!;
}

function today(now: Date): string {
  return now.toISOString().slice(0, 10);
}

export async function createReport(deps: ServiceDeps, viewer: Viewer, input: CreateFishingReportInput, log?: Log, now = new Date()) {
  const { db } = deps;
  // A day "in the future" in UTC terms only: allow the next UTC day for anglers west of Greenwich.
  const tomorrow = new Date(now.getTime() + 86_400_000);
  if (input.fishedOn > today(tomorrow)) throw FishingReportErrors.fishedInFuture();
  const species = input.species ?? [];
  const ids = species.map((s) => s.speciesId);
  const duplicate = ids.findIndex((id, index) => ids.indexOf(id) !== index);
  if (duplicate >= 0) throw FishingReportErrors.duplicateSpecies(duplicate);
  await assertReferenceableSpecies(deps, ids, '/species');
  await assertLookupValues(deps, [
    { category: 'WaterClarity', code: input.conditions?.clarity, pointer: '/conditions/clarity' },
    { category: 'Sky', code: input.conditions?.sky, pointer: '/conditions/sky' },
  ]);
  const id = uuidv7();
  const exact = input.exactLocation ?? false;
  const { latitude: lat, longitude: lon } = input.location;
  const shown = exact ? { lat, lon } : snapToGrid(lat, lon);
  const text = `${input.waterBody}\n${input.text}`;
  const verdict = await moderateContent(deps, { contentType: 'fishing_report', contentId: id, text, imageUrls: [] }, log);
  const c = input.conditions ?? {};
  await db.transaction(async (tx) => {
    await repo.insertReport(tx, {
      id,
      authorId: viewer.userId,
      waterBody: input.waterBody.trim(),
      stateCode: input.stateCode?.toUpperCase() ?? null,
      lat,
      lon,
      publicLat: shown.lat,
      publicLon: shown.lon,
      exactLocation: exact,
      fishedOn: input.fishedOn,
      waterTempC: c.waterTempC ?? null,
      clarity: c.clarity ?? null,
      sky: c.sky ?? null,
      windKmh: c.windKmh ?? null,
      windDirection: (c.windDirection ?? null) as never,
      species: species as never,
      text: input.text,
      status: verdict.status,
      moderationReason: verdict.reason,
      moderatedAt: new Date(),
    });
    await recordVerdictRules(inTx(deps, tx), verdict);
  });
  return getReport(deps, viewer, id);
}

/** The report when the viewer may see it (404 unknown, 403 not published and not theirs). */
export async function requireVisibleReport(deps: ServiceDeps<DbOrTx>, viewer: Viewer, id: string): Promise<repo.ReportWithAuthor> {
  const { db } = deps;
  return permitted(deps, viewer, 'view', id, await repo.findReport(db, id));
}

export async function getReport(deps: ServiceDeps<DbOrTx>, viewer: Viewer, id: string) {
  const { db } = deps;
  const row = await permitted(deps, viewer, 'view', id, await repo.findReport(db, id));
  return (await views(deps, viewer, [row]))[0]!;
}

export async function reportsByLocation(deps: ServiceDeps, viewer: Viewer, near: Near, filter: { speciesId?: string | undefined }, page: Page) {
  const { db } = deps;
  const { items, total } = await repo.reportsNear(db, near, filter, page);
  const shown = await views(deps, viewer, items);
  return { items: shown.map((view, i) => ({ ...view, distanceKm: toKm(items[i]!.distanceM) })), total };
}

/** Marks (or, with helpful = false, unmarks) the report helpful for the viewer. */
export async function setHelpful(deps: ServiceDeps, viewer: Viewer, id: string, helpful: boolean) {
  const { db } = deps;
  return db.transaction(async (tx) => {
    const row = await permitted(inTx(deps, tx), viewer, 'markHelpful', id, await repo.findReport(tx, id, { lock: true }));
    const result = await repo.setHelpful(tx, row.id, viewer.userId, helpful);
    if (!result.changed) throw helpful ? FishingReportErrors.alreadyHelpful() : FishingReportErrors.notMarked();
    return { helpfulCount: result.helpfulCount, markedHelpful: helpful };
  });
}

// ---- review (moderators) ----

export async function listForReview(deps: ServiceDeps, viewer: Viewer, status: ContentStatus, page: Page) {
  const { db } = deps;
  const { items, total } = await repo.reportsByStatus(db, status, page);
  const shown = await views(deps, viewer, items);
  // Moderators see why a report was rejected; exact points stay hidden unless shared.
  return { items: shown.map((view, i) => ({ ...view, moderationReason: items[i]!.moderationReason })), total };
}

export async function decide(deps: ServiceDeps, context: AuditContext, viewer: Viewer, id: string, decision: 'approve' | 'reject', reason: string | null) {
  const { db } = deps;
  return db.transaction(async (tx) => {
    const row = await repo.findReport(tx, id, { lock: true });
    if (!row) throw FishingReportErrors.notFound(id);
    const status: ContentStatus = decision === 'approve' ? 'Published' : 'Rejected';
    if (row.status === status) throw FishingReportErrors.alreadyDecided(status);
    await repo.setStatus(tx, id, status, decision === 'reject' ? reason : null);
    await recordAudit(inTx(deps, tx), context, {
      action: `fishing_reports.${decision === 'approve' ? 'approved' : 'rejected'}`,
      targetType: 'fishing_report',
      targetId: id,
      reason,
      before: { status: row.status },
      after: { status },
    });
    const [view] = await views(inTx(deps, tx), viewer, [(await repo.findReport(tx, id))!]);
    return { ...view!, moderationReason: decision === 'reject' ? reason : null };
  });
}

/** How many reports hold each water clarity / sky value (the lookups module's usage statistics). */
export const reportsByClarity = (db: DbOrTx, codes: readonly string[]) => repo.countByCondition(db, 'clarity', codes);
export const reportsBySky = (db: DbOrTx, codes: readonly string[]) => repo.countByCondition(db, 'sky', codes);
