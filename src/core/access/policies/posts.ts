import { definePolicy, isOwner, type Refusal } from '../policy.js';
import { canSee } from '../visibility.js';

/**
 * Social posts: the author always sees theirs; others once it is published and its visibility
 * admits them. Only the author changes or deletes it. (Reporting your own post is a state
 * conflict, 409 `reports.own_content`, decided by the reports service.)
 */

export interface PostRecord {
  readonly authorId: string;
  readonly status: string;
  readonly visibility: string;
}

const notVisible: Refusal = { code: 'social.post_not_visible', detail: 'This post is not shared with you: its author limited who may see it, or it is awaiting moderation.' };
const notAuthor: Refusal = { code: 'social.not_post_author', detail: 'Only the author of a post may change or delete it.' };

export function isAuthor(viewer: string | { userId: string }, record: { readonly authorId: string }): boolean {
  return isOwner(viewer, { ownerId: record.authorId });
}

const authorOnly = (viewer: { userId: string }, post: PostRecord) => (isAuthor(viewer, post) ? true : notAuthor);

export const postPolicy = definePolicy<PostRecord, 'read' | 'update' | 'delete'>('posts', {
  read: async (viewer, post, context) => {
    if (isAuthor(viewer, post)) return true;
    if (post.status !== 'Published') return notVisible;
    return (await canSee(context, viewer.userId, { ownerId: post.authorId, visibility: post.visibility })) ? true : notVisible;
  },
  update: authorOnly,
  delete: authorOnly,
});
