import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { recordAudit, type AuditContext } from '../../core/audit/audit.js';
import { transaction } from '../../core/db/pipeline.js';
import type { Page } from '../../core/http/pagination.js';
import { notify } from '../../core/notifications/outbox.js';
import { PhotoErrors } from './photos.errors.js';
import * as repo from './photos.repository.js';
import { photoFile, reviewUrl, type PhotoDeps, type PhotoSize } from './photos.service.js';

/**
 * The moderators' review of post and fishing report photos the moderation provider held
 * (PendingReview) or rejected: the queue, newest first, and the decisions. A decision changes the
 * photo's status (a rejected photo is a 404 for everyone but its owner) and is audit-logged with
 * its reason, in one transaction.
 */

/** The kinds of record whose photos pass moderation (their upload is moderated: the registering module's <module>.module.ts). */
export const REVIEWED_KINDS = ['Post', 'FishingReport'] as const;
export type ReviewedKind = (typeof REVIEWED_KINDS)[number];
export const REVIEWED_STATES = ['PendingReview', 'Rejected'] as const;
export type ReviewedState = (typeof REVIEWED_STATES)[number];

const RECORD_PATH: Record<ReviewedKind, (id: string) => string> = {
  Post: (id) => `/api/social/posts/${id}`,
  FishingReport: (id) => `/api/reports/${id}`,
};

export async function listQueue(deps: ServiceDeps, context: AuditContext, filter: { state?: ReviewedState | undefined; kind?: ReviewedKind | undefined }, page: Page) {
  const { db } = deps;
  return transaction(db, async (tx) => {
    const states = filter.state ? [filter.state] : [...REVIEWED_STATES];
    const kinds = filter.kind ? [filter.kind] : [...REVIEWED_KINDS];
    const { items, total } = await repo.reviewQueue(tx, { states, kinds }, page);
    const views = items.map((row) => ({
      id: row.id,
      moderationStatus: row.status as ReviewedState,
      record: { kind: row.kind as ReviewedKind, id: row.recordId, path: RECORD_PATH[row.kind as ReviewedKind](row.recordId), position: row.position, photoCount: row.photoCount },
      owner: { id: row.ownerId, username: row.ownerUsername },
      width: row.width,
      height: row.height,
      bytes: row.bytes,
      displayUrl: reviewUrl(row.id, 'display'),
      thumbnailUrl: reviewUrl(row.id, 'thumbnail'),
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    }));
    await recordAudit(inTx(deps, tx), context, { action: 'photos.queue_viewed', targetType: 'photo_queue', after: { state: filter.state ?? null, kind: filter.kind ?? null, page: page.page, count: views.length } });
    return { items: views, total };
  });
}

const isReviewed = (kind: string): kind is ReviewedKind => (REVIEWED_KINDS as readonly string[]).includes(kind);

export async function decide(deps: ServiceDeps, context: AuditContext, photoId: string, decision: 'approve' | 'reject', reason: string) {
  const { db } = deps;
  return transaction(db, async (tx) => {
    const photo = await repo.findPhoto(tx, photoId, { lock: true });
    if (!photo || !isReviewed(photo.kind)) throw PhotoErrors.notInReview(photoId);
    const status = decision === 'approve' ? 'Published' : 'Rejected';
    if (photo.status === status) throw decision === 'approve' ? PhotoErrors.alreadyPublished() : PhotoErrors.alreadyRejected();
    const decidedAt = await repo.setStatus(tx, photo.id, status);
    const decidedBy = context.actor.userId ?? '';
    await recordAudit(inTx(deps, tx), context, {
      action: `photos.photo_${decision === 'approve' ? 'approved' : 'rejected'}`,
      targetType: 'photo',
      targetId: photo.id,
      reason,
      before: { status: photo.status },
      after: { status, ownerId: photo.ownerId, recordKind: photo.kind, recordId: photo.recordId },
    });
    if (status === 'Rejected') {
      const what = photo.kind === 'Post' ? 'post' : 'fishing report';
      await notify(tx, {
        type: 'moderation.photo_rejected',
        // The record, where its owner still sees the photo marked Rejected.
        path: photo.kind === 'Post' ? `/api/social/posts/${photo.recordId}` : `/api/reports/${photo.recordId}`,
        payload: { id: photo.id, recordKind: photo.kind, recordId: photo.recordId, status },
        recipients: [{ userId: photo.ownerId, title: 'Photo rejected', body: `A moderator rejected a photo of your ${what}: ${reason}. Only you see it now.` }],
      });
    }
    return { photoId: photo.id, recordKind: photo.kind, recordId: photo.recordId, moderationStatus: status, decidedBy, decidedAt: decidedAt.toISOString() };
  });
}

/** A size of a post or report photo for a moderator, whatever its status (the route checks the permission). */
export async function readForReview(deps: PhotoDeps, photoId: string, size: PhotoSize) {
  const photo = await repo.findPhoto(deps.db, photoId);
  if (!photo || !isReviewed(photo.kind)) throw PhotoErrors.notInReview(photoId);
  return photoFile(deps, photo, size, undefined, false);
}
