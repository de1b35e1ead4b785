import { definePolicy } from '../policy.js';
import { visibleRecord, type VisibleRecord } from './common.js';

/**
 * Angler profiles (and what hangs on them: personal bests, the ultimate one) are seen by the
 * profile's visibility. A profile is changed only as the caller's own (`/api/userprofile/me`): no
 * route addresses another user's profile for a change.
 */

/** `ownerId` is the profile's user. */
export type ProfileRecord = VisibleRecord;

function notVisible(profile: ProfileRecord) {
  return {
    code: 'profiles.not_visible',
    detail:
      profile.visibility === 'Private'
        ? 'This profile is private: only its owner sees it.'
        : profile.visibility === 'Friends'
          ? 'This profile is visible to the owner’s friends only: both of you must have added each other (POST /api/social/friends/{friendId}).'
          : 'This profile is visible to the owner’s circle only: the owner must put you in their circle.',
  };
}

export const profilePolicy = definePolicy<ProfileRecord, 'read'>('profiles', {
  read: visibleRecord(notVisible),
});
