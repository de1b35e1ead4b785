import { AppError } from '../../core/http/problem.js';

export const AdminModerationErrors = {
  contentNotFound: (type: 'post' | 'comment', id: string) => new AppError(404, `moderation.${type}_not_found`, `No ${type} has id ${id}; it may have been deleted by its author.`),
  alreadyPublished: (type: 'post' | 'comment') => new AppError(409, 'moderation.already_published', `This ${type} is already published; there is nothing to approve. To take it down, reject it.`),
  alreadyRejected: (type: 'post' | 'comment') => new AppError(409, 'moderation.already_rejected', `This ${type} is already rejected. To publish it after all, approve it.`),
};
