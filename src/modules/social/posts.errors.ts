import { AppError } from '../../core/http/problem.js';

export const PostErrors = {
  notFound: (id: string) => new AppError(404, 'social.post_not_found', `No post has id ${id}.`),
  notPublished: (status: string) =>
    new AppError(409, 'social.post_not_published', `This post is ${status === 'Rejected' ? 'rejected' : 'awaiting moderation'}; it can be liked and commented on once it is published.`),
  linkNotFound: (field: 'logEntryId' | 'catchId', id: string) =>
    new AppError(400, 'social.link_not_found', `No ${field === 'logEntryId' ? 'fishing-log entry' : 'catch'} has id ${id}; link one of your own.`, {
      errors: [{ pointer: `/${field}`, in: 'body', detail: 'does not exist' }],
    }),
  linkNotOwned: (field: 'logEntryId' | 'catchId') =>
    new AppError(400, 'social.link_not_owned', `You can link only your own ${field === 'logEntryId' ? 'fishing-log entries' : 'catches'}.`, {
      errors: [{ pointer: `/${field}`, in: 'body', detail: 'is not yours' }],
    }),
  twoLinks: () =>
    new AppError(400, 'social.one_link_only', 'A post links one entry or one catch, not both; send only logEntryId or only catchId.', {
      errors: [{ pointer: '/catchId', in: 'body', detail: 'cannot be set together with logEntryId' }],
    }),
};
