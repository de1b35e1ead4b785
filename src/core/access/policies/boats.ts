import { definePolicy, ownerOnly } from '../policy.js';

/** Boats are private to their owner. */

export interface BoatRecord {
  readonly ownerId: string;
}

const ownBoat = ownerOnly<BoatRecord>({ code: 'gear.boat_not_owned', detail: 'This boat belongs to another angler; only its owner can see or change it.' });

export const boatPolicy = definePolicy<BoatRecord, 'read' | 'update' | 'delete'>('boats', { read: ownBoat, update: ownBoat, delete: ownBoat });
