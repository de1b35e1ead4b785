import { allows, definePolicy, type Refusal } from '../policy.js';
import { isAuthor, postPolicy, type PostRecord } from './posts.js';

/**
 * Comments: seen when their post is seen and they are published (or the viewer's own); edited by
 * their author; deleted by their author or the post's author.
 */

export interface CommentRecord {
  readonly authorId: string;
  readonly status: string;
  /** The comment's post; undefined when it is gone. */
  readonly post: PostRecord | undefined;
}

const notVisible: Refusal = {
  code: 'social.comment_not_visible',
  detail: 'This comment is not visible to you: its post is not shared with you, or the comment is awaiting moderation.',
};

export const commentPolicy = definePolicy<CommentRecord, 'read' | 'update' | 'delete'>('comments', {
  read: async (viewer, comment, context) => {
    const visible = comment.post !== undefined && (await allows(postPolicy, viewer, 'read', comment.post, context)) && (comment.status === 'Published' || isAuthor(viewer, comment));
    return visible ? true : notVisible;
  },
  update: (viewer, comment) => (isAuthor(viewer, comment) ? true : { code: 'social.not_comment_author', detail: 'Only the author of a comment may edit it.' }),
  delete: (viewer, comment) =>
    isAuthor(viewer, comment) || (comment.post !== undefined && isAuthor(viewer, comment.post))
      ? true
      : { code: 'social.cannot_delete_comment', detail: 'Only the author of a comment or of its post may delete it.' },
});
