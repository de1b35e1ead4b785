import { definePolicy, ownerOnly } from '../policy.js';

/** Gear setups are private to their owner; only the owner links a catch to one (`use`). */

export interface SetupRecord {
  readonly ownerId: string;
}

const ownSetup = ownerOnly<SetupRecord>({ code: 'gear.setup_not_owned', detail: 'This gear setup belongs to another angler; only its owner can see or change it.' });

export const setupPolicy = definePolicy<SetupRecord, 'read' | 'update' | 'delete' | 'use'>('setups', { read: ownSetup, update: ownSetup, delete: ownSetup, use: ownSetup });
