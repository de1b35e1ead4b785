import { common, type LineItem, yardsToM } from './common.js';

/**
 * Lines: real product lines in the tests they are sold in, with the diameter (mm) of each test.
 * Spools are sold in yards in North America; the data files hold metres.
 */

type Variant = [testLb: number, diameterMm: number];

interface Line {
  brand: string;
  productLine: string;
  lineType: 'Monofilament' | 'Fluorocarbon' | 'Braid' | 'Copolymer';
  colours: string[];
  spoolYd: number;
  priceUsd: number;
  description: string;
  variants: Variant[];
}

const LINES: Line[] = [
  {
    brand: 'Berkley',
    productLine: 'Trilene XL',
    lineType: 'Monofilament',
    colours: ['Clear'],
    spoolYd: 330,
    priceUsd: 7,
    description: 'Smooth-casting monofilament for spinning reels.',
    variants: [
      [4, 0.2],
      [6, 0.23],
      [8, 0.25],
      [10, 0.28],
      [12, 0.3],
      [14, 0.33],
      [17, 0.38],
    ],
  },
  {
    brand: 'Berkley',
    productLine: 'Trilene XT',
    lineType: 'Monofilament',
    colours: ['Low-Vis Green'],
    spoolYd: 330,
    priceUsd: 7,
    description: 'Extra-tough, abrasion-resistant monofilament for casting reels.',
    variants: [
      [10, 0.3],
      [12, 0.33],
      [14, 0.36],
      [17, 0.41],
      [20, 0.43],
    ],
  },
  {
    brand: 'Berkley',
    productLine: 'Trilene 100% Fluorocarbon',
    lineType: 'Fluorocarbon',
    colours: ['Clear'],
    spoolYd: 200,
    priceUsd: 20,
    description: 'Pure fluorocarbon main line, nearly invisible under water.',
    variants: [
      [6, 0.23],
      [8, 0.25],
      [10, 0.28],
      [12, 0.3],
      [15, 0.36],
    ],
  },
  {
    brand: 'Berkley',
    productLine: 'FireLine',
    lineType: 'Braid',
    colours: ['Flame Green'],
    spoolYd: 300,
    priceUsd: 30,
    description: 'Fused superline with the diameter of much lighter monofilament.',
    variants: [
      [6, 0.15],
      [8, 0.18],
      [10, 0.2],
      [14, 0.23],
      [20, 0.28],
    ],
  },
  {
    brand: 'Berkley',
    productLine: 'x9 Braid',
    lineType: 'Braid',
    colours: ['Low-Vis Green'],
    spoolYd: 165,
    priceUsd: 25,
    description: 'Nine-carrier braid, round and smooth through the guides.',
    variants: [
      [10, 0.15],
      [20, 0.2],
      [30, 0.25],
      [50, 0.33],
    ],
  },
  {
    brand: 'Seaguar',
    productLine: 'InvizX',
    lineType: 'Fluorocarbon',
    colours: ['Clear'],
    spoolYd: 200,
    priceUsd: 22,
    description: '100% fluorocarbon main line, soft and easy to manage.',
    variants: [
      [6, 0.235],
      [8, 0.26],
      [10, 0.285],
      [12, 0.31],
      [15, 0.34],
      [20, 0.41],
    ],
  },
  {
    brand: 'Seaguar',
    productLine: 'Tatsu',
    lineType: 'Fluorocarbon',
    colours: ['Clear'],
    spoolYd: 200,
    priceUsd: 40,
    description: 'Two-resin fluorocarbon main line, thin for its strength.',
    variants: [
      [6, 0.21],
      [8, 0.24],
      [10, 0.27],
      [12, 0.29],
      [15, 0.33],
      [20, 0.38],
    ],
  },
  {
    brand: 'Seaguar',
    productLine: 'Blue Label',
    lineType: 'Fluorocarbon',
    colours: ['Clear'],
    spoolYd: 25,
    priceUsd: 18,
    description: 'Fluorocarbon leader material for saltwater.',
    variants: [
      [20, 0.45],
      [30, 0.55],
      [40, 0.65],
      [60, 0.8],
    ],
  },
  {
    brand: 'Sunline',
    productLine: 'Sniper FC',
    lineType: 'Fluorocarbon',
    colours: ['Natural Clear'],
    spoolYd: 200,
    priceUsd: 22,
    description: 'Fluorocarbon bass line with a hard, abrasion-resistant finish.',
    variants: [
      [6, 0.205],
      [8, 0.235],
      [10, 0.26],
      [12, 0.285],
      [14, 0.31],
      [16, 0.33],
    ],
  },
  {
    brand: 'Sunline',
    productLine: 'Super Natural',
    lineType: 'Monofilament',
    colours: ['Natural Clear'],
    spoolYd: 330,
    priceUsd: 7,
    description: 'Soft, low-memory nylon monofilament.',
    variants: [
      [6, 0.23],
      [8, 0.26],
      [10, 0.29],
      [12, 0.31],
    ],
  },
  {
    brand: 'PowerPro',
    productLine: 'Spectra',
    lineType: 'Braid',
    colours: ['Moss Green', 'Hi-Vis Yellow'],
    spoolYd: 150,
    priceUsd: 20,
    description: 'Four-carrier Spectra braid with Enhanced Body Technology.',
    variants: [
      [10, 0.13],
      [15, 0.15],
      [20, 0.19],
      [30, 0.23],
      [50, 0.33],
      [65, 0.38],
    ],
  },
  {
    brand: 'PowerPro',
    productLine: 'Super Slick V2',
    lineType: 'Braid',
    colours: ['Timber Brown'],
    spoolYd: 150,
    priceUsd: 30,
    description: 'Eight-carrier braid with a slick coating for long casts.',
    variants: [
      [10, 0.13],
      [20, 0.19],
      [30, 0.23],
      [50, 0.33],
    ],
  },
  {
    brand: 'Spiderwire',
    productLine: 'Stealth',
    lineType: 'Braid',
    colours: ['Moss Green'],
    spoolYd: 125,
    priceUsd: 18,
    description: 'Braid of Dyneema fibers with a Colorlock coating.',
    variants: [
      [10, 0.15],
      [20, 0.2],
      [30, 0.25],
      [50, 0.35],
      [65, 0.38],
    ],
  },
  {
    brand: 'Spiderwire',
    productLine: 'Stealth Smooth 8',
    lineType: 'Braid',
    colours: ['Moss Green'],
    spoolYd: 150,
    priceUsd: 28,
    description: 'Eight-carrier braid, rounder and quieter than four-carrier.',
    variants: [
      [10, 0.12],
      [15, 0.15],
      [20, 0.18],
      [30, 0.23],
    ],
  },
  {
    brand: 'Stren',
    productLine: 'Original',
    lineType: 'Monofilament',
    colours: ['Clear/Blue Fluorescent'],
    spoolYd: 330,
    priceUsd: 6,
    description: 'All-purpose monofilament that glows above water and is clear below.',
    variants: [
      [6, 0.23],
      [8, 0.25],
      [10, 0.28],
      [12, 0.3],
      [14, 0.33],
      [17, 0.36],
    ],
  },
  {
    brand: 'Yo-Zuri',
    productLine: 'Hybrid',
    lineType: 'Copolymer',
    colours: ['Clear'],
    spoolYd: 275,
    priceUsd: 11,
    description: 'Nylon and fluorocarbon co-polymer with low stretch.',
    variants: [
      [6, 0.2],
      [8, 0.23],
      [10, 0.26],
      [12, 0.28],
      [15, 0.31],
    ],
  },
  {
    brand: 'Daiwa',
    productLine: 'J-Braid x8',
    lineType: 'Braid',
    colours: ['Dark Green'],
    spoolYd: 165,
    priceUsd: 28,
    description: 'Eight-carrier braid, round and smooth.',
    variants: [
      [10, 0.13],
      [20, 0.18],
      [30, 0.22],
      [50, 0.29],
    ],
  },
  {
    brand: 'Shimano',
    productLine: 'Kairiki 8',
    lineType: 'Braid',
    colours: ['Mantis Green'],
    spoolYd: 165,
    priceUsd: 30,
    description: 'Eight-carrier braid with a smooth, round profile.',
    variants: [
      [10, 0.13],
      [20, 0.19],
      [30, 0.23],
      [50, 0.33],
    ],
  },
  {
    brand: 'KastKing',
    productLine: 'SuperPower',
    lineType: 'Braid',
    colours: ['Low-Vis Gray'],
    spoolYd: 327,
    priceUsd: 12,
    description: 'Value four-carrier braid.',
    variants: [
      [10, 0.16],
      [20, 0.21],
      [30, 0.26],
      [50, 0.36],
    ],
  },
];

export function lines(): LineItem[] {
  const out: LineItem[] = [];
  for (const line of LINES) {
    for (const colour of line.colours) {
      for (const [testLb, diameterMm] of line.variants) {
        const name = `${line.productLine} ${testLb} lb ${line.spoolYd} yd ${colour}`;
        out.push({
          ...common(line.brand, name, line.productLine, { description: line.description, priceUsd: line.priceUsd }),
          lineType: line.lineType,
          testLb,
          diameterMm,
          spoolLengthM: yardsToM(line.spoolYd),
          colour,
        });
      }
    }
  }
  return out;
}
