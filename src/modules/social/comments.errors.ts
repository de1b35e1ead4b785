import { AppError } from '../../core/http/problem.js';

export const CommentErrors = {
  notFound: (id: string) => new AppError(404, 'social.comment_not_found', `No comment has id ${id}.`),
};
