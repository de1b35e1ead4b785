import { definePolicy, ownerOnly } from '../policy.js';

/**
 * Personal bests: only their owner makes one the ultimate, or deletes a criterion. Who may see
 * someone's personal bests is the profile policy's `read`; what only the owner sees of a personal
 * best is the view's `isOwner`.
 */

export interface PersonalBestRecord {
  readonly ownerId: string;
}

export const personalBestPolicy = definePolicy<PersonalBestRecord, 'setUltimate'>('personalBests', {
  setUltimate: ownerOnly({ code: 'personalbests.not_owner', detail: 'Only the owner of a personal best can make it their ultimate personal best.' }),
});

export const personalBestCriterionPolicy = definePolicy<PersonalBestRecord, 'delete'>('personalBestCriteria', {
  delete: ownerOnly({ code: 'personalbests.criterion_not_owner', detail: 'Only the owner of a criterion can delete it.' }),
});
