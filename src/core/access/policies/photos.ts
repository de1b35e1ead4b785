import { definePolicy, isOwner } from '../policy.js';

/**
 * Photos. Who may see a photo is its record's rule (the record's own policy, asked by the photos
 * module for the record); this policy holds what is the photos' own: only the record's owner
 * adds, orders and removes them (`ownerId`: the owner of the photo's record; null for a reference
 * record nobody owns, such as a boat ramp of a public dataset, which takes no photos).
 */
export interface PhotoRecord {
  readonly ownerId: string | null;
}

export const photoPolicy = definePolicy<PhotoRecord, 'manage'>('photos', {
  manage: (viewer, record) =>
    record.ownerId !== null && isOwner(viewer, { ownerId: record.ownerId })
      ? true
      : { code: 'photos.not_owner', detail: record.ownerId === null ? 'This is a reference record (public data) that nobody owns: it takes no photos.' : 'Only the owner of this record may add, order or remove its photos.' },
});
