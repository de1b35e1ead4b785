import { pascalEnum } from '../../core/http/enums.js';

/**
 * The kinds of the gear catalog and the vocabularies of their fields. Constants only (no tables),
 * so that the brands module can share them without an import cycle.
 */

export const GEAR_KINDS = ['rod', 'reel', 'line', 'lure', 'apparel'] as const;
export type GearKind = (typeof GEAR_KINDS)[number];
/** Rod, Reel, Line, Lure or Apparel; `rod`, `reel`, … are still accepted. URL segments stay lower-case plurals (/api/gear/rods). */
export const GearKindEnum = pascalEnum(GEAR_KINDS, 'A kind of catalog gear: Rod, Reel, Line, Lure or Apparel.');

/** URL segment of each kind: /api/gear/{segment}, /api/admin/gear/{segment}. */
export const KIND_SEGMENTS: Record<GearKind, string> = { rod: 'rods', reel: 'reels', line: 'lines', lure: 'lures', apparel: 'apparel' };

/** Conventional: boat rods for conventional (star or lever drag) reels; Trolling: rods made for trolling. */
export const ROD_TYPES = ['Spinning', 'Casting', 'Conventional', 'Trolling', 'Fly', 'Ice', 'Surf'] as const;
export const ROD_POWERS = ['Ultra-light', 'Light', 'Medium-light', 'Medium', 'Medium-heavy', 'Heavy', 'Extra-heavy'] as const;
export const ROD_ACTIONS = ['Slow', 'Moderate', 'Moderate-fast', 'Fast', 'Extra-fast'] as const;
export const ROD_MATERIALS = ['Graphite', 'Fiberglass', 'Composite'] as const;

export const REEL_TYPES = ['Spinning', 'Baitcasting', 'Spincast', 'Conventional', 'Fly'] as const;

export const LINE_TYPES = ['Monofilament', 'Fluorocarbon', 'Braid', 'Copolymer'] as const;

export const LURE_TYPES = [
  'Crankbait',
  'Lipless crankbait',
  'Jerkbait',
  'Minnow',
  'Topwater',
  'Spinnerbait',
  'Bladed jig',
  'Buzzbait',
  'Jig',
  'Soft plastic',
  'Swimbait',
  'Spoon',
  'Inline spinner',
  'Blade bait',
] as const;

export const APPAREL_TYPES = [
  'Jacket',
  'Bib',
  'Pants',
  'Shorts',
  'Shirt',
  'Hoodie',
  'Waders',
  'Wading boots',
  'Deck boots',
  'Hat',
  'Gloves',
  'Neck gaiter',
  'Sunglasses',
] as const;
export const APPAREL_GENDERS = ['Men', 'Women', 'Unisex', 'Youth'] as const;
