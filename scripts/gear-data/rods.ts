import { common, ftIn, oz, type RodItem } from './common.js';

/**
 * Rods: real product lines, each in lengths/powers/actions that line offers (or plausibly
 * offers). Line rating in lb, lure rating converted from ounces to grams, length in inches.
 */

type Variant = [length: string, power: string, action: string, pieces: number, lineLb: [number, number] | null, lureOz: [string, string] | null];
type FlyVariant = [length: string, lineWeight: number, action: string, pieces: number];

interface Line {
  brand: string;
  productLine: string;
  rodType: 'Spinning' | 'Casting' | 'Conventional' | 'Trolling' | 'Ice' | 'Surf';
  material: 'Graphite' | 'Fiberglass' | 'Composite';
  priceUsd: number;
  description: string;
  variants: Variant[];
}

interface FlyLine {
  brand: string;
  productLine: string;
  material: 'Graphite' | 'Fiberglass';
  priceUsd: number;
  description: string;
  variants: FlyVariant[];
}

const TYPE_WORD: Record<Line['rodType'], string> = {
  Spinning: 'Spinning',
  Casting: 'Casting',
  Conventional: 'Conventional',
  Trolling: 'Trolling',
  Ice: 'Ice',
  Surf: 'Surf Spinning',
};

const LINES: Line[] = [
  {
    brand: 'St. Croix',
    productLine: 'Mojo Bass',
    rodType: 'Casting',
    material: 'Graphite',
    priceUsd: 200,
    description: 'Technique-specific bass casting rods with Fuji guides.',
    variants: [
      [`6'8"`, 'Medium', 'Fast', 1, [8, 14], ['1/4', '5/8']],
      [`7'1"`, 'Medium-heavy', 'Fast', 1, [12, 20], ['3/8', '1']],
      [`7'1"`, 'Medium', 'Moderate', 1, [10, 17], ['1/4', '3/4']],
      [`7'4"`, 'Heavy', 'Fast', 1, [15, 25], ['1/2', '1 1/2']],
      [`7'6"`, 'Heavy', 'Fast', 1, [15, 30], ['1/2', '2']],
    ],
  },
  {
    brand: 'St. Croix',
    productLine: 'Mojo Bass',
    rodType: 'Spinning',
    material: 'Graphite',
    priceUsd: 190,
    description: 'Technique-specific bass spinning rods for finesse presentations.',
    variants: [
      [`6'8"`, 'Medium-light', 'Extra-fast', 1, [6, 12], ['1/8', '3/8']],
      [`7'1"`, 'Medium', 'Fast', 1, [8, 14], ['1/4', '5/8']],
      [`7'1"`, 'Medium-light', 'Extra-fast', 1, [6, 10], ['1/8', '5/16']],
    ],
  },
  {
    brand: 'St. Croix',
    productLine: 'Premier',
    rodType: 'Spinning',
    material: 'Graphite',
    priceUsd: 120,
    description: 'All-purpose freshwater spinning rods, one- and two-piece.',
    variants: [
      [`5'6"`, 'Light', 'Fast', 2, [4, 8], ['1/32', '1/4']],
      [`6'0"`, 'Medium', 'Fast', 2, [6, 12], ['1/8', '5/8']],
      [`6'6"`, 'Medium-light', 'Fast', 2, [4, 10], ['1/16', '5/16']],
      [`7'0"`, 'Medium', 'Fast', 1, [6, 12], ['1/8', '5/8']],
    ],
  },
  {
    brand: 'St. Croix',
    productLine: 'Premier',
    rodType: 'Casting',
    material: 'Graphite',
    priceUsd: 125,
    description: 'All-purpose freshwater casting rods.',
    variants: [
      [`6'6"`, 'Medium', 'Fast', 1, [8, 17], ['1/4', '3/4']],
      [`7'0"`, 'Medium-heavy', 'Fast', 1, [10, 20], ['3/8', '1']],
    ],
  },
  {
    brand: 'St. Croix',
    productLine: 'Legend Tournament Bass',
    rodType: 'Casting',
    material: 'Graphite',
    priceUsd: 380,
    description: 'Premium tournament bass casting rods, lightweight and sensitive.',
    variants: [
      [`6'10"`, 'Medium', 'Moderate-fast', 1, [10, 17], ['1/4', '3/4']],
      [`7'1"`, 'Medium-heavy', 'Fast', 1, [12, 20], ['3/8', '1']],
      [`7'4"`, 'Heavy', 'Fast', 1, [15, 25], ['1/2', '1 1/2']],
    ],
  },
  {
    brand: 'St. Croix',
    productLine: 'Eyecon',
    rodType: 'Spinning',
    material: 'Graphite',
    priceUsd: 180,
    description: 'Walleye spinning rods for jigging and rigging.',
    variants: [
      [`6'3"`, 'Medium-light', 'Fast', 1, [4, 10], ['1/16', '3/8']],
      [`6'9"`, 'Medium-light', 'Extra-fast', 1, [4, 10], ['1/16', '5/16']],
      [`7'0"`, 'Medium', 'Fast', 1, [6, 12], ['1/8', '1/2']],
    ],
  },
  {
    brand: 'St. Croix',
    productLine: 'Mojo Inshore',
    rodType: 'Spinning',
    material: 'Graphite',
    priceUsd: 210,
    description: 'Saltwater inshore spinning rods with corrosion-resistant guides.',
    variants: [
      [`7'0"`, 'Medium-light', 'Fast', 1, [6, 12], ['1/8', '3/8']],
      [`7'0"`, 'Medium', 'Fast', 1, [8, 17], ['1/4', '5/8']],
      [`7'6"`, 'Medium-heavy', 'Fast', 1, [10, 20], ['3/8', '1']],
    ],
  },
  {
    brand: 'G. Loomis',
    productLine: 'E6X Bass',
    rodType: 'Casting',
    material: 'Graphite',
    priceUsd: 280,
    description: 'Bass casting rods in technique-specific lengths and powers.',
    variants: [
      [`7'0"`, 'Medium', 'Moderate', 1, [10, 17], ['1/4', '3/4']],
      [`7'1"`, 'Medium-heavy', 'Fast', 1, [12, 20], ['3/8', '1']],
      [`7'5"`, 'Heavy', 'Fast', 1, [15, 25], ['1/2', '1 1/2']],
    ],
  },
  {
    brand: 'G. Loomis',
    productLine: 'NRX+ Bass',
    rodType: 'Spinning',
    material: 'Graphite',
    priceUsd: 560,
    description: 'High-modulus finesse spinning rods for drop shot, shaky head and ned rigs.',
    variants: [
      [`6'10"`, 'Medium-light', 'Extra-fast', 1, [5, 10], ['1/16', '3/8']],
      [`7'2"`, 'Medium', 'Fast', 1, [6, 12], ['1/8', '1/2']],
    ],
  },
  {
    brand: 'Shimano',
    productLine: 'SLX',
    rodType: 'Casting',
    material: 'Graphite',
    priceUsd: 110,
    description: 'Value bass casting rods matched to the SLX reels.',
    variants: [
      [`6'10"`, 'Medium', 'Fast', 1, [8, 17], ['1/4', '5/8']],
      [`7'0"`, 'Medium-heavy', 'Fast', 1, [12, 20], ['3/8', '1']],
      [`7'2"`, 'Heavy', 'Fast', 1, [14, 25], ['1/2', '1 1/2']],
    ],
  },
  {
    brand: 'Shimano',
    productLine: 'Zodias',
    rodType: 'Casting',
    material: 'Graphite',
    priceUsd: 230,
    description: 'Light bass casting rods with split grips.',
    variants: [
      [`6'8"`, 'Medium', 'Moderate-fast', 1, [10, 16], ['1/4', '5/8']],
      [`7'0"`, 'Medium-heavy', 'Fast', 1, [12, 20], ['3/8', '1']],
      [`7'2"`, 'Heavy', 'Fast', 1, [14, 25], ['3/8', '1 1/2']],
    ],
  },
  {
    brand: 'Shimano',
    productLine: 'Teramar Inshore',
    rodType: 'Spinning',
    material: 'Graphite',
    priceUsd: 200,
    description: 'Inshore saltwater spinning rods for redfish, trout and snook.',
    variants: [
      [`7'0"`, 'Medium', 'Fast', 1, [8, 17], ['1/4', '5/8']],
      [`7'6"`, 'Medium-heavy', 'Moderate-fast', 1, [10, 20], ['3/8', '1']],
    ],
  },
  {
    brand: 'Daiwa',
    productLine: 'Tatula',
    rodType: 'Casting',
    material: 'Graphite',
    priceUsd: 170,
    description: 'Bass casting rods of HVF graphite.',
    variants: [
      [`6'10"`, 'Medium', 'Fast', 1, [10, 20], ['1/4', '3/4']],
      [`7'0"`, 'Medium-heavy', 'Fast', 1, [12, 25], ['3/8', '1']],
      [`7'4"`, 'Heavy', 'Fast', 1, [14, 30], ['1/2', '1 1/2']],
    ],
  },
  {
    brand: 'Daiwa',
    productLine: 'Tatula',
    rodType: 'Spinning',
    material: 'Graphite',
    priceUsd: 160,
    description: 'Bass spinning rods of HVF graphite.',
    variants: [
      [`6'10"`, 'Medium-light', 'Extra-fast', 1, [6, 12], ['1/16', '3/8']],
      [`7'1"`, 'Medium', 'Fast', 1, [6, 14], ['1/8', '1/2']],
    ],
  },
  {
    brand: 'Abu Garcia',
    productLine: 'Veritas',
    rodType: 'Casting',
    material: 'Graphite',
    priceUsd: 130,
    description: 'Light, strong casting rods for bass and walleye.',
    variants: [
      [`6'6"`, 'Medium', 'Fast', 1, [8, 17], ['1/4', '5/8']],
      [`7'0"`, 'Medium-heavy', 'Fast', 1, [10, 20], ['1/4', '1']],
      [`7'3"`, 'Heavy', 'Fast', 1, [12, 25], ['3/8', '1 1/2']],
    ],
  },
  {
    brand: 'Abu Garcia',
    productLine: 'Vendetta',
    rodType: 'Spinning',
    material: 'Graphite',
    priceUsd: 70,
    description: 'Affordable 30-ton graphite spinning rods.',
    variants: [
      [`6'6"`, 'Medium', 'Fast', 1, [6, 12], ['1/8', '1/2']],
      [`7'0"`, 'Medium-light', 'Fast', 1, [4, 10], ['1/16', '3/8']],
    ],
  },
  {
    brand: 'Ugly Stik',
    productLine: 'GX2',
    rodType: 'Spinning',
    material: 'Composite',
    priceUsd: 50,
    description: 'Graphite and fiberglass spinning rods with the Ugly Tuff guides.',
    variants: [
      [`5'6"`, 'Light', 'Moderate', 2, [4, 10], ['1/16', '5/16']],
      [`6'6"`, 'Medium', 'Moderate', 2, [6, 15], ['1/8', '5/8']],
      [`7'0"`, 'Medium', 'Moderate', 1, [6, 15], ['1/8', '5/8']],
      [`7'0"`, 'Medium-heavy', 'Moderate', 1, [10, 25], ['1/4', '1']],
    ],
  },
  {
    brand: 'Ugly Stik',
    productLine: 'GX2',
    rodType: 'Casting',
    material: 'Composite',
    priceUsd: 55,
    description: 'Graphite and fiberglass casting rods with the Ugly Tuff guides.',
    variants: [
      [`6'6"`, 'Medium', 'Moderate', 1, [10, 20], ['1/4', '3/4']],
      [`7'0"`, 'Medium-heavy', 'Moderate', 1, [10, 25], ['1/4', '1']],
    ],
  },
  {
    brand: 'Ugly Stik',
    productLine: 'Bigwater',
    rodType: 'Conventional',
    material: 'Composite',
    priceUsd: 70,
    description: 'Heavy boat and pier rods for bottom fishing and trolling.',
    variants: [
      [`6'6"`, 'Extra-heavy', 'Moderate', 1, [30, 80], null],
      [`7'0"`, 'Heavy', 'Moderate', 1, [15, 40], ['1', '6']],
    ],
  },
  {
    brand: 'Ugly Stik',
    productLine: 'GX2',
    rodType: 'Ice',
    material: 'Composite',
    priceUsd: 30,
    description: 'Ice rods with the GX2 graphite-and-fiberglass blank.',
    variants: [
      [`28"`, 'Medium', 'Moderate', 1, [4, 10], null],
      [`32"`, 'Medium-light', 'Moderate', 1, [2, 8], null],
    ],
  },
  {
    brand: 'Fenwick',
    productLine: 'HMG',
    rodType: 'Spinning',
    material: 'Graphite',
    priceUsd: 100,
    description: 'High-modulus graphite spinning rods.',
    variants: [
      [`6'0"`, 'Light', 'Fast', 2, [2, 6], ['1/32', '1/8']],
      [`6'6"`, 'Medium-light', 'Fast', 1, [4, 10], ['1/16', '3/8']],
      [`7'0"`, 'Medium', 'Fast', 1, [6, 12], ['1/8', '5/8']],
    ],
  },
  {
    brand: 'Fenwick',
    productLine: 'HMG',
    rodType: 'Casting',
    material: 'Graphite',
    priceUsd: 110,
    description: 'High-modulus graphite casting rods.',
    variants: [[`7'0"`, 'Medium-heavy', 'Fast', 1, [10, 20], ['3/8', '1']]],
  },
  {
    brand: "Lew's",
    productLine: 'Mach Crush',
    rodType: 'Casting',
    material: 'Graphite',
    priceUsd: 100,
    description: 'Bass casting rods matched to the Mach Crush reels.',
    variants: [
      [`6'10"`, 'Medium', 'Moderate-fast', 1, [8, 17], ['1/4', '5/8']],
      [`7'0"`, 'Medium-heavy', 'Fast', 1, [10, 20], ['3/8', '1']],
      [`7'3"`, 'Heavy', 'Fast', 1, [14, 25], ['1/2', '1 1/2']],
    ],
  },
  {
    brand: '13 Fishing',
    productLine: 'Omen Black',
    rodType: 'Casting',
    material: 'Graphite',
    priceUsd: 150,
    description: 'Bass casting rods with split grips and a blacked-out finish.',
    variants: [
      [`7'1"`, 'Medium-heavy', 'Fast', 1, [12, 20], ['3/8', '1']],
      [`7'3"`, 'Heavy', 'Fast', 1, [15, 25], ['1/2', '1 1/2']],
    ],
  },
  {
    brand: '13 Fishing',
    productLine: 'Tickle Stick',
    rodType: 'Ice',
    material: 'Graphite',
    priceUsd: 40,
    description: 'Sensitive ice rods for panfish and perch.',
    variants: [
      [`24"`, 'Ultra-light', 'Fast', 1, [1, 4], null],
      [`27"`, 'Light', 'Fast', 1, [2, 6], null],
      [`30"`, 'Medium-light', 'Fast', 1, [2, 8], null],
    ],
  },
  {
    brand: '13 Fishing',
    productLine: 'Widow Maker',
    rodType: 'Ice',
    material: 'Graphite',
    priceUsd: 50,
    description: 'Ice rods for walleye, pike and lake trout.',
    variants: [
      [`28"`, 'Medium', 'Fast', 1, [4, 10], null],
      [`32"`, 'Medium-heavy', 'Fast', 1, [6, 14], null],
    ],
  },
  {
    brand: 'Dobyns Rods',
    productLine: 'Fury',
    rodType: 'Casting',
    material: 'Graphite',
    priceUsd: 150,
    description: 'Bass casting rods designed by Gary Dobyns.',
    variants: [
      [`6'8"`, 'Medium', 'Fast', 1, [8, 17], ['1/4', '5/8']],
      [`7'0"`, 'Medium-heavy', 'Fast', 1, [10, 20], ['1/4', '1']],
      [`7'4"`, 'Heavy', 'Fast', 1, [12, 25], ['3/8', '1 1/2']],
    ],
  },
  {
    brand: 'Dobyns Rods',
    productLine: 'Champion XP',
    rodType: 'Casting',
    material: 'Graphite',
    priceUsd: 300,
    description: 'Tournament-grade bass casting rods.',
    variants: [
      [`7'3"`, 'Medium-heavy', 'Fast', 1, [10, 20], ['1/4', '1']],
      [`7'6"`, 'Heavy', 'Fast', 1, [15, 30], ['3/8', '2']],
    ],
  },
  {
    brand: 'Duckett Fishing',
    productLine: 'Micro Magic Pro',
    rodType: 'Casting',
    material: 'Graphite',
    priceUsd: 100,
    description: 'Bass casting rods with micro guides.',
    variants: [
      [`7'0"`, 'Medium-heavy', 'Fast', 1, [10, 20], ['1/4', '1']],
      [`7'3"`, 'Heavy', 'Fast', 1, [12, 25], ['3/8', '1 1/2']],
    ],
  },
  {
    brand: 'Penn',
    productLine: 'Prevail II',
    rodType: 'Surf',
    material: 'Composite',
    priceUsd: 100,
    description: 'Two-piece surf spinning rods of graphite composite.',
    variants: [
      [`9'0"`, 'Medium', 'Moderate-fast', 2, [10, 25], ['1', '4']],
      [`10'0"`, 'Medium-heavy', 'Moderate-fast', 2, [15, 30], ['2', '6']],
      [`11'0"`, 'Heavy', 'Moderate-fast', 2, [17, 40], ['3', '8']],
    ],
  },
  {
    brand: 'Penn',
    productLine: 'Battalion II Inshore',
    rodType: 'Spinning',
    material: 'Graphite',
    priceUsd: 130,
    description: 'Inshore spinning rods with Fuji guides and reel seats.',
    variants: [
      [`7'0"`, 'Medium', 'Fast', 1, [8, 17], ['1/4', '3/4']],
      [`7'6"`, 'Medium-heavy', 'Fast', 1, [10, 20], ['3/8', '1']],
    ],
  },
  {
    brand: 'Penn',
    productLine: 'Carnage III',
    rodType: 'Conventional',
    material: 'Graphite',
    priceUsd: 230,
    description: 'Offshore boat rods for jigging and bottom fishing.',
    variants: [
      [`6'6"`, 'Heavy', 'Fast', 1, [30, 80], null],
      [`7'0"`, 'Medium-heavy', 'Fast', 1, [20, 50], ['1', '4']],
    ],
  },
  {
    brand: 'Okuma',
    productLine: 'Celilo',
    rodType: 'Spinning',
    material: 'Graphite',
    priceUsd: 60,
    description: 'Two-piece trout, steelhead and salmon spinning rods.',
    variants: [
      [`8'6"`, 'Medium-light', 'Moderate-fast', 2, [6, 12], ['1/8', '3/8']],
      [`9'6"`, 'Medium', 'Moderate', 2, [8, 17], ['1/4', '3/4']],
    ],
  },
  {
    brand: 'Okuma',
    productLine: 'Classic Pro GLT',
    rodType: 'Trolling',
    material: 'Fiberglass',
    priceUsd: 55,
    description: 'Fiberglass trolling rods for downriggers and planer boards.',
    variants: [
      [`7'0"`, 'Medium-heavy', 'Moderate', 1, [15, 30], null],
      [`8'6"`, 'Medium', 'Moderate', 2, [10, 25], null],
    ],
  },
  {
    brand: 'Berkley',
    productLine: 'Lightning Rod',
    rodType: 'Spinning',
    material: 'Graphite',
    priceUsd: 40,
    description: 'Entry-level IM6 graphite spinning rods.',
    variants: [
      [`5'6"`, 'Light', 'Moderate', 2, [2, 6], ['1/16', '1/4']],
      [`6'6"`, 'Medium', 'Moderate-fast', 2, [6, 14], ['1/8', '5/8']],
    ],
  },
];

const FLY_LINES: FlyLine[] = [
  {
    brand: 'St. Croix',
    productLine: 'Imperial',
    material: 'Graphite',
    priceUsd: 240,
    description: 'Four-piece fly rods for trout and bass.',
    variants: [
      [`8'6"`, 4, 'Moderate-fast', 4],
      [`9'0"`, 5, 'Moderate-fast', 4],
      [`9'0"`, 6, 'Moderate-fast', 4],
      [`9'0"`, 8, 'Fast', 4],
    ],
  },
  {
    brand: 'Orvis',
    productLine: 'Clearwater',
    material: 'Graphite',
    priceUsd: 300,
    description: 'Four-piece fly rods for every-day fishing.',
    variants: [
      [`8'6"`, 4, 'Moderate-fast', 4],
      [`9'0"`, 5, 'Moderate-fast', 4],
      [`9'0"`, 6, 'Moderate-fast', 4],
      [`9'0"`, 8, 'Fast', 4],
    ],
  },
  {
    brand: 'Orvis',
    productLine: 'Helios D',
    material: 'Graphite',
    priceUsd: 1000,
    description: 'Distance-tuned, high-end fly rods.',
    variants: [
      [`9'0"`, 5, 'Fast', 4],
      [`9'0"`, 8, 'Fast', 4],
    ],
  },
  {
    brand: 'Orvis',
    productLine: 'Helios F',
    material: 'Graphite',
    priceUsd: 1000,
    description: 'Finesse-tuned, high-end fly rods for delicate presentations.',
    variants: [[`8'6"`, 4, 'Moderate-fast', 4]],
  },
  {
    brand: 'Sage',
    productLine: 'R8 Core',
    material: 'Graphite',
    priceUsd: 1100,
    description: 'Premium fast-action fly rods made on Bainbridge Island.',
    variants: [
      [`9'0"`, 5, 'Fast', 4],
      [`9'0"`, 6, 'Fast', 4],
      [`9'6"`, 7, 'Fast', 4],
    ],
  },
  {
    brand: 'Sage',
    productLine: 'Foundation',
    material: 'Graphite',
    priceUsd: 450,
    description: 'Fast-action fly rods made in the USA at a lower price.',
    variants: [
      [`9'0"`, 5, 'Fast', 4],
      [`9'0"`, 8, 'Fast', 4],
    ],
  },
  {
    brand: 'Redington',
    productLine: 'Classic Trout',
    material: 'Graphite',
    priceUsd: 200,
    description: 'Moderate-action trout fly rods for dry flies and small streams.',
    variants: [
      [`8'6"`, 4, 'Moderate', 4],
      [`9'0"`, 5, 'Moderate', 4],
    ],
  },
  {
    brand: 'Redington',
    productLine: 'Vice',
    material: 'Graphite',
    priceUsd: 230,
    description: 'Fast-action fly rods for freshwater and light saltwater.',
    variants: [
      [`9'0"`, 6, 'Fast', 4],
      [`9'0"`, 8, 'Fast', 4],
    ],
  },
  {
    brand: 'Temple Fork Outfitters',
    productLine: 'Professional II',
    material: 'Graphite',
    priceUsd: 200,
    description: 'Versatile fly rods designed with Lefty Kreh.',
    variants: [
      [`9'0"`, 5, 'Moderate-fast', 4],
      [`9'0"`, 8, 'Fast', 4],
    ],
  },
  {
    brand: 'Hardy',
    productLine: 'Zephrus Ultralite',
    material: 'Graphite',
    priceUsd: 700,
    description: 'Light, fast fly rods from Alnwick.',
    variants: [[`9'0"`, 5, 'Fast', 4]],
  },
];

export function rods(): RodItem[] {
  const out: RodItem[] = [];
  for (const line of LINES) {
    for (const [length, power, action, pieces, lineLb, lureOz] of line.variants) {
      const name = `${line.productLine} ${TYPE_WORD[line.rodType]} ${length} ${power} ${action}${pieces > 1 ? ` ${pieces}-piece` : ''}`;
      out.push({
        ...common(line.brand, name, line.productLine, { description: line.description, priceUsd: line.priceUsd }),
        rodType: line.rodType,
        lengthIn: ftIn(length),
        power,
        action,
        pieces,
        material: line.material,
        ...(lineLb ? { lineMinLb: lineLb[0], lineMaxLb: lineLb[1] } : {}),
        ...(lureOz ? { lureMinG: oz(lureOz[0]), lureMaxG: oz(lureOz[1]) } : {}),
      });
    }
  }
  for (const line of FLY_LINES) {
    for (const [length, weight, action, pieces] of line.variants) {
      const name = `${line.productLine} ${length} ${weight}-weight ${pieces}-piece`;
      out.push({
        ...common(line.brand, name, line.productLine, { description: line.description, priceUsd: line.priceUsd }),
        rodType: 'Fly',
        lengthIn: ftIn(length),
        action,
        pieces,
        material: line.material,
        flyLineWeight: weight,
      });
    }
  }
  return out;
}
