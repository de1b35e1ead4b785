import { definePolicy, ownerOnly } from '../policy.js';

/**
 * Photos. Who may see a photo is its record's rule (the record's own policy, asked by the photos
 * module for the record); this policy holds what is the photos' own: only the record's owner
 * adds, orders and removes them (`ownerId`: the owner of the photo's record).
 */
export interface PhotoRecord {
  readonly ownerId: string;
}

export const photoPolicy = definePolicy<PhotoRecord, 'manage'>('photos', {
  manage: ownerOnly({ code: 'photos.not_owner', detail: 'Only the owner of this record may add, order or remove its photos.' }),
});
