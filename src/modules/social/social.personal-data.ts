import type { PersonalData } from '../../core/personal-data.js';

/** What the social module keeps about a person, and what erasing their account does to it (core/personal-data.ts). */
export const socialPersonalData: PersonalData = {
  module: 'social',
  columns: [
    { table: 'post_likes', column: 'user_id', action: 'delete', reason: 'Likes given.' },
    { table: 'post_comments', column: 'author_id', action: 'delete', reason: 'Comments written, on anyone\'s posts.' },
    { table: 'posts', column: 'author_id', action: 'delete', reason: 'Posts (with their comments, likes and photos).' },
    { table: 'friend_links', column: 'user_id', action: 'delete', reason: 'Friendships, both directions.' },
    { table: 'friend_links', column: 'friend_id', action: 'delete', reason: 'Friendships, both directions.' },
    { table: 'circle_members', column: 'owner_id', action: 'delete', reason: 'The person\'s close circle.' },
    { table: 'circle_members', column: 'member_id', action: 'delete', reason: 'Memberships of others\' circles.' },
    { table: 'user_reports', column: 'reporter_id', action: 'keep', reason: 'Reports the person filed: moderation records whose resolution stands; the reporter shows as a former angler.' },
    { table: 'user_reports', column: 'target_user_id', action: 'detach', reason: 'Reports about the person: the reported content is deleted with them, the report keeps its resolution without naming them.' },
    { table: 'user_reports', column: 'resolved_by', action: 'keep', reason: 'Which moderator resolved a report: an administrative record.' },
  ],
};
