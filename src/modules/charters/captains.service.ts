import { inTx } from '../../core/service-deps.js';
import { recordAudit, type AuditContext } from '../../core/audit/audit.js';
import type { Page } from '../../core/http/pagination.js';
import { CharterErrors } from './charters.errors.js';
import * as repo from './charters.repository.js';
import type { CaptainApplicationInput } from './charters.schemas.js';
import type { CaptainRow } from './charters.tables.js';
import { notifyCaptainReview } from './charters.notifications.js';
import { licenceValid, type ChartersDeps } from './charters.deps.js';

/** Charter captains: applications, their review, and the licence a listing needs. */


function captainView(row: CaptainRow, now: Date) {
  return {
    userId: row.userId,
    licenceType: row.licenceType,
    licenceNumber: row.licenceNumber,
    licenceExpiresOn: row.licenceExpiresOn,
    vesselName: row.vesselName,
    vesselRegistration: row.vesselRegistration,
    insuranceCarrier: row.insuranceCarrier,
    insurancePolicyNumber: row.insurancePolicyNumber,
    insuranceExpiresOn: row.insuranceExpiresOn,
    status: row.status,
    licenceValid: licenceValid(row, now),
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
    reviewReason: row.reviewReason,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Applies (or re-applies with a renewed licence): the application waits for an admin's verification. */
export async function applyAsCaptain(deps: ChartersDeps, context: AuditContext, userId: string, input: CaptainApplicationInput) {
  const now = (deps.now ?? (() => new Date()))();
  return deps.db.transaction(async (tx) => {
    const row = await repo.upsertCaptain(tx, { userId, ...input, status: 'Pending', reviewedAt: null, reviewedBy: null, reviewReason: null });
    await recordAudit(inTx(deps, tx), context, { action: 'charters.captain_applied', targetType: 'charter_captain', targetId: userId, after: { licenceType: row.licenceType, licenceExpiresOn: row.licenceExpiresOn } });
    return captainView(row, now);
  });
}

export async function myCaptainProfile(deps: ChartersDeps, userId: string) {
  const row = await repo.findCaptain(deps.db, userId);
  if (!row) throw CharterErrors.noApplication();
  return captainView(row, (deps.now ?? (() => new Date()))());
}

export async function listCaptains(deps: ChartersDeps, status: CaptainRow['status'] | undefined, page: Page) {
  const now = (deps.now ?? (() => new Date()))();
  const { items, total } = await repo.listCaptains(deps.db, status, page);
  return { items: items.map((r) => captainView(r, now)), total };
}

export async function getCaptain(deps: ChartersDeps, userId: string) {
  const row = await repo.findCaptain(deps.db, userId);
  if (!row) throw CharterErrors.captainNotFound(userId);
  return captainView(row, (deps.now ?? (() => new Date()))());
}

/** An admin verifies or rejects a Pending application (audit-logged, reason kept). */
export async function reviewCaptain(deps: ChartersDeps, context: AuditContext, userId: string, verdict: 'Verified' | 'Rejected', reason: string | undefined) {
  const now = (deps.now ?? (() => new Date()))();
  return deps.db.transaction(async (tx) => {
    const current = await repo.findCaptain(tx, userId, true);
    if (!current) throw CharterErrors.captainNotFound(userId);
    if (current.status !== 'Pending') throw CharterErrors.alreadyReviewed(current.status);
    const row = await repo.updateCaptain(tx, userId, { status: verdict, reviewedAt: now, reviewedBy: context.actor.userId ?? null, reviewReason: reason ?? null });
    await recordAudit(inTx(deps, tx), context, {
      action: verdict === 'Verified' ? 'charters.captain_verified' : 'charters.captain_rejected',
      targetType: 'charter_captain',
      targetId: userId,
      reason: reason ?? null,
      before: { status: current.status },
      after: { status: row.status },
    });
    await notifyCaptainReview(tx, userId, verdict, reason);
    return captainView(row, now);
  });
}
