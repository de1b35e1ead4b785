import { AppError } from '../../core/http/problem.js';

export const CommentErrors = {
  notFound: (id: string) => new AppError(404, 'social.comment_not_found', `No comment has id ${id}.`),
  notVisible: () => new AppError(403, 'social.comment_not_visible', 'This comment is not visible to you: its post is not shared with you, or the comment is awaiting moderation.'),
  notAuthor: () => new AppError(403, 'social.not_comment_author', 'Only the author of a comment may edit it.'),
  cannotDelete: () => new AppError(403, 'social.cannot_delete_comment', 'Only the author of a comment or of its post may delete it.'),
};
