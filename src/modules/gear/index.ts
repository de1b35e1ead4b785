/** The gear module's public read model and constants (with gear.service.ts and setups.service.ts). */
export { gearItems } from './gear.tables.js';
export { GEAR_KINDS, GearKindEnum, type GearKind } from './gear.kinds.js';
