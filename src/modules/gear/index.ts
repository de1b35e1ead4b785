/** The gear module's public read model and constants (with gear.service.ts and setups.service.ts). */
export { gearItems } from './gear.tables.js';
export { GEAR_KINDS, GearKindEnum, type GearKind } from './gear.kinds.js';
/** Offline sync (the sync module) reads the owner's boats and setups and checks pushed records against the REST bodies. */
export { boats } from './boats.tables.js';
export { gearSetups, gearSetupLures } from './setups.tables.js';
export { BoatBody, BoatCreateBody } from './boats.schemas.js';
export { SetupBody, SetupCreateBody } from './setups.schemas.js';
