import type { GearKind } from '../brands/index.js';

/**
 * The kinds of the gear catalog and the vocabularies of their fields. Constants only (no tables).
 * The kinds themselves belong to the brands module (what a brand makes); re-exported here.
 */

export { GEAR_KINDS, GearKindEnum, type GearKind } from '../brands/index.js';

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
