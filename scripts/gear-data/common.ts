/**
 * Helpers of the gear-data generator: unit conversions (the data files hold canonical units) and
 * the item shapes written to reference-data/gear/*.json.
 */

/** "3/8", "1 1/2", "2" (ounces) → grams, one decimal. */
export function oz(value: string): number {
  const parts = value.trim().split(/\s+/);
  let total = 0;
  for (const part of parts) {
    const [num, den] = part.split('/');
    total += den === undefined ? Number(num) : Number(num) / Number(den);
  }
  if (!Number.isFinite(total) || total <= 0) throw new Error(`bad ounce value ${value}`);
  return round(total * 28.3495, 1);
}

/** Decimal ounces → grams, one decimal. */
export function ozDecimal(value: number): number {
  return round(value * 28.3495, 1);
}

/** `7'1"`, `9'0"` or `28"` → whole inches. */
export function ftIn(value: string): number {
  const feet = /^(\d+)'(\d+)"?$/.exec(value);
  if (feet) return Number(feet[1]) * 12 + Number(feet[2]);
  const inches = /^(\d+)"$/.exec(value);
  if (inches) return Number(inches[1]);
  throw new Error(`bad length ${value}`);
}

export const inchesToCm = (inches: number): number => round(inches * 2.54, 1);
export const yardsToM = (yards: number): number => round(yards * 0.9144, 1);
export const lbToKg = (lb: number): number => round(lb * 0.45359237, 1);

export function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/(\d)\/(\d)/g, '$1-$2')
    .replace(/(\d)'(?=\d)/g, '$1ft')
    .replace(/'/g, '')
    .replace(/"/g, 'in')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

interface Common {
  slug: string;
  brand: string;
  name: string;
  productLine: string;
  modelNumber?: string;
  description?: string;
  priceUsd?: number;
}

export interface RodItem extends Common {
  rodType: string;
  lengthIn: number;
  power?: string;
  action: string;
  pieces: number;
  material: string;
  lineMinLb?: number;
  lineMaxLb?: number;
  lureMinG?: number;
  lureMaxG?: number;
  flyLineWeight?: number;
}

export interface ReelItem extends Common {
  reelType: string;
  size?: string;
  gearRatio: number;
  weightG: number;
  maxDragKg: number;
  bearings?: string;
  retrieveCm?: number;
}

export interface LineItem extends Common {
  lineType: string;
  testLb: number;
  diameterMm: number;
  spoolLengthM: number;
  colour: string;
}

export interface LureItem extends Common {
  lureType: string;
  weightG?: number;
  lengthCm?: number;
  colour: string;
  divingDepthMinM?: number;
  divingDepthMaxM?: number;
  /** Scientific names; the seed turns them into species ids. */
  targetSpecies: string[];
}

export interface ApparelItem extends Common {
  apparelType: string;
  sizes: string[];
  gender: string;
  material?: string;
  waterproof: boolean;
  colours: string[];
}

export function common(brand: string, name: string, productLine: string, extra: { modelNumber?: string; description?: string; priceUsd?: number }): Common {
  return {
    slug: slugify(`${brand} ${name}`),
    brand,
    name,
    productLine,
    ...(extra.modelNumber ? { modelNumber: extra.modelNumber } : {}),
    ...(extra.description ? { description: extra.description } : {}),
    ...(extra.priceUsd !== undefined ? { priceUsd: extra.priceUsd } : {}),
  };
}

/** Target-species groups, by scientific name (all in reference-data/species.json). */
export const SPECIES = {
  blackBass: ['Micropterus salmoides', 'Micropterus dolomieu', 'Micropterus punctulatus'],
  largemouth: ['Micropterus salmoides'],
  smallmouth: ['Micropterus dolomieu'],
  panfish: ['Lepomis macrochirus', 'Pomoxis nigromaculatus', 'Pomoxis annularis', 'Perca flavescens'],
  crappie: ['Pomoxis nigromaculatus', 'Pomoxis annularis'],
  trout: ['Oncorhynchus mykiss', 'Salmo trutta', 'Salvelinus fontinalis'],
  lakeTrout: ['Salvelinus namaycush'],
  salmon: ['Oncorhynchus tshawytscha', 'Oncorhynchus kisutch'],
  walleye: ['Sander vitreus', 'Sander canadensis'],
  perch: ['Perca flavescens'],
  pike: ['Esox lucius', 'Esox masquinongy'],
  pickerel: ['Esox niger'],
  whiteBass: ['Morone chrysops'],
  striper: ['Morone saxatilis'],
  bluefish: ['Pomatomus saltatrix'],
  inshore: ['Sciaenops ocellatus', 'Cynoscion nebulosus', 'Centropomus undecimalis'],
  flounder: ['Paralichthys dentatus', 'Paralichthys lethostigma'],
  mackerel: ['Scomberomorus maculatus'],
  tarpon: ['Megalops atlanticus'],
  falseAlbacore: ['Euthynnus alletteratus'],
} as const;

export function species(...groups: Array<keyof typeof SPECIES>): string[] {
  return [...new Set(groups.flatMap((g) => SPECIES[g]))];
}
