import { pascalEnum } from '../../core/http/enums.js';

/**
 * The kinds of catalog gear: what a brand makes (its `gearKinds`) and what the gear catalog holds.
 * Constants only, kept here in the reference tier's lower module so that brands imports nothing
 * of gear (gear re-exports them from gear.kinds.ts).
 */
export const GEAR_KINDS = ['rod', 'reel', 'line', 'lure', 'apparel'] as const;
export type GearKind = (typeof GEAR_KINDS)[number];
/** Rod, Reel, Line, Lure or Apparel; `rod`, `reel`, … are still accepted. URL segments stay lower-case plurals (/api/gear/rods). */
export const GearKindEnum = pascalEnum(GEAR_KINDS, 'A kind of catalog gear: Rod, Reel, Line, Lure or Apparel.');
