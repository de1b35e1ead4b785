import { defineModule } from '../../core/module.js';
import { registerPersonalData } from '../../core/personal-data.js';
import { socialPersonalData } from './social.personal-data.js';
import { registerRelationships } from '../../core/access/visibility.js';
import { registerModeratedContent } from '../moderation/moderated-content.service.js';
import { registerPhotoRecord } from '../photos/photos.service.js';
import { relationships } from './friends.service.js';
import { moderatedPosts, requireVisiblePost } from './posts.service.js';
import { moderatedComments } from './comments.service.js';
import { friendsRoutes } from './friends.routes.js';
import { userSearchRoutes } from './user-search.routes.js';
import { postsRoutes } from './posts.routes.js';
import { commentsRoutes } from './comments.routes.js';
import { reportsRoutes } from './content-reports.routes.js';
import { adminReportsRoutes } from './content-reports.admin.routes.js';

/** Friends, user search, posts, comments and content reports (with their moderation). */
export const socialModule = defineModule('social', {
  providers: (deps) => {
    // What it keeps about a person and what erasing their account does to it.
    registerPersonalData(deps, socialPersonalData);
    // Who is whose friend, for every visibility check (core/access).
    registerRelationships(deps, relationships);
    // The review queue's content types: moderators' decisions read and change them through this module.
    registerModeratedContent(deps, 'post', moderatedPosts);
    registerModeratedContent(deps, 'comment', moderatedComments);
    registerPhotoRecord(deps, 'Post', {
      moderated: true,
      read: async (services, viewer, id) => {
        const row = await requireVisiblePost(services, viewer.userId, id);
        return { ownerId: row.authorId, isPublic: row.status === 'Published' && row.visibility === 'Public' };
      },
    });
  },
  routes: [friendsRoutes, userSearchRoutes, postsRoutes, commentsRoutes, reportsRoutes, adminReportsRoutes],
});
