import { common, inchesToCm, lbToKg, ozDecimal, type ReelItem } from './common.js';

/**
 * Reels: real product lines in the sizes they come in. Specs are given as catalogs print them in
 * North America (weight in ounces, drag in pounds, retrieve in inches per crank) and converted to
 * the canonical units (grams, kilograms, centimetres).
 */

/** `label` names the variant: its size (default), its gear ratio, or its model number (`labelIs`). */
type Variant = [label: string, gearRatio: number, weightOz: number, maxDragLb: number, retrieveIn?: number];

interface Line {
  brand: string;
  productLine: string;
  reelType: 'Spinning' | 'Baitcasting' | 'Spincast' | 'Conventional' | 'Fly';
  labelIs?: 'size' | 'ratio' | 'model' | 'none';
  bearings?: string;
  priceUsd: number;
  /** Price per size when it varies within the line. */
  prices?: Record<string, number>;
  description: string;
  variants: Variant[];
}

const LINES: Line[] = [
  {
    brand: 'Shimano',
    productLine: 'Stradic FL',
    reelType: 'Spinning',
    bearings: '6+1',
    priceUsd: 230,
    prices: { C5000XG: 250 },
    description: 'Hagane cold-forged gearing, MicroModule II and X-Protect water resistance.',
    variants: [
      ['1000', 5.0, 6.3, 7, 26],
      ['2500', 5.3, 7.9, 20, 29],
      ['2500HG', 6.0, 7.9, 20, 35],
      ['C3000XG', 6.4, 8.6, 20, 40],
      ['4000XG', 6.2, 9.7, 24, 41],
      ['C5000XG', 6.2, 10.4, 24, 45],
    ],
  },
  {
    brand: 'Shimano',
    productLine: 'Sedona FI',
    reelType: 'Spinning',
    bearings: '3+1',
    priceUsd: 90,
    description: 'Affordable spinning reels with Hagane gearing and a G-Free body.',
    variants: [
      ['1000', 5.0, 8.3, 7, 26],
      ['2500', 5.0, 8.9, 20, 29],
      ['C3000HG', 6.2, 9.3, 20, 37],
      ['4000XG', 6.2, 10.6, 24, 41],
    ],
  },
  {
    brand: 'Shimano',
    productLine: 'Vanford',
    reelType: 'Spinning',
    bearings: '7+1',
    priceUsd: 280,
    description: 'Light spinning reels with a CI4+ body and rotor.',
    variants: [
      ['2500', 5.1, 6.2, 20, 29],
      ['C3000XG', 6.4, 6.5, 20, 40],
      ['4000XG', 6.2, 8.2, 24, 41],
    ],
  },
  {
    brand: 'Shimano',
    productLine: 'Saragosa SW A',
    reelType: 'Spinning',
    bearings: '5+1',
    priceUsd: 300,
    prices: { '10000HG': 330 },
    description: 'Sealed saltwater spinning reels for inshore and offshore.',
    variants: [
      ['5000XG', 6.2, 15.5, 22, 44],
      ['8000PG', 4.9, 24.0, 33, 38],
      ['10000HG', 5.7, 24.5, 44, 44],
    ],
  },
  {
    brand: 'Daiwa',
    productLine: 'BG MQ',
    reelType: 'Spinning',
    bearings: '6+1',
    priceUsd: 150,
    prices: { '2500D-XH': 130, '3000D-XH': 140, '8000-H': 180 },
    description: 'Monocoque-bodied spinning reels with the Digigear drive and ATD drag.',
    variants: [
      ['2500D-XH', 6.2, 9.0, 22, 36],
      ['3000D-XH', 6.2, 9.2, 22, 36],
      ['4000D-XH', 6.2, 11.3, 26, 41],
      ['5000D-H', 5.7, 14.8, 33, 41],
      ['8000-H', 5.7, 24.3, 33, 49],
    ],
  },
  {
    brand: 'Daiwa',
    productLine: 'Fuego LT',
    reelType: 'Spinning',
    bearings: '6+1',
    priceUsd: 100,
    description: 'Light and tough (LT) spinning reels with a Zaion V rotor.',
    variants: [
      ['2500D-XH', 6.2, 7.4, 22, 36],
      ['3000D-C-XH', 6.2, 7.6, 22, 36],
    ],
  },
  {
    brand: 'Penn',
    productLine: 'Battle III',
    reelType: 'Spinning',
    bearings: '5+1',
    priceUsd: 120,
    prices: { '2500': 110, '6000': 140, '8000': 150 },
    description: 'Full-metal-body spinning reels with HT-100 carbon fiber drag washers.',
    variants: [
      ['2500', 6.2, 9.7, 12, 33],
      ['3000', 6.2, 11.6, 15, 35],
      ['4000', 6.2, 11.8, 15, 37],
      ['5000', 5.6, 19.6, 25, 37],
      ['6000', 5.3, 24.0, 25, 38],
      ['8000', 5.3, 30.5, 30, 42],
    ],
  },
  {
    brand: 'Penn',
    productLine: 'Spinfisher VII',
    reelType: 'Spinning',
    bearings: '5+1',
    priceUsd: 200,
    prices: { '3500': 170, '8500': 250 },
    description: 'IPX5-sealed saltwater spinning reels.',
    variants: [
      ['3500', 6.2, 13.6, 15, 35],
      ['4500', 6.2, 14.4, 20, 37],
      ['5500', 5.6, 21.5, 25, 38],
      ['6500', 5.6, 26.0, 30, 41],
      ['8500', 5.3, 35.0, 40, 45],
    ],
  },
  {
    brand: 'Penn',
    productLine: 'Slammer IV',
    reelType: 'Spinning',
    bearings: '6+1',
    priceUsd: 300,
    prices: { '3500': 250, '8500': 350 },
    description: 'IPX6-sealed heavy-duty spinning reels for big saltwater fish.',
    variants: [
      ['3500', 6.2, 16.0, 25, 35],
      ['4500', 6.2, 20.2, 30, 37],
      ['6500', 5.6, 26.5, 35, 41],
      ['8500', 5.3, 35.9, 40, 45],
    ],
  },
  {
    brand: 'Pflueger',
    productLine: 'President',
    reelType: 'Spinning',
    bearings: '9+1',
    priceUsd: 65,
    description: 'Classic freshwater spinning reels with a light graphite body.',
    variants: [
      ['20', 5.2, 6.5, 6, 22],
      ['25', 5.2, 7.9, 8, 25],
      ['30', 5.2, 8.6, 10, 27],
      ['35', 5.2, 10.1, 12, 30],
      ['40', 5.2, 11.3, 14, 32],
    ],
  },
  {
    brand: 'Van Staal',
    productLine: 'VR',
    reelType: 'Spinning',
    bearings: '5+1',
    priceUsd: 700,
    prices: { VR50: 650, VR150: 750 },
    description: 'Fully sealed, machined aluminum spinning reels for surf and inshore.',
    variants: [
      ['VR50', 6.2, 7.1, 15, 28],
      ['VR75', 6.2, 8.1, 20, 31],
      ['VR125', 6.2, 9.7, 25, 35],
      ['VR150', 6.2, 11.3, 30, 38],
    ],
  },
  {
    brand: 'Shimano',
    productLine: 'SLX',
    reelType: 'Baitcasting',
    bearings: '3+1',
    priceUsd: 130,
    description: 'Low-profile baitcasting reels with the SVS Infinity brake.',
    variants: [
      ['150', 6.3, 7.2, 12, 26],
      ['150HG', 7.2, 7.2, 12, 30],
      ['150XG', 8.2, 7.2, 12, 34],
    ],
  },
  {
    brand: 'Shimano',
    productLine: 'Curado DC',
    reelType: 'Baitcasting',
    bearings: '6+1',
    priceUsd: 260,
    description: 'Baitcasting reels with the I-DC4 digital brake.',
    variants: [
      ['150', 6.2, 7.6, 11, 26],
      ['150HG', 7.4, 7.6, 11, 31],
      ['150XG', 8.5, 7.6, 11, 36],
    ],
  },
  {
    brand: 'Shimano',
    productLine: 'Tranx',
    reelType: 'Baitcasting',
    bearings: '6+1',
    priceUsd: 350,
    prices: { '400HG': 380 },
    description: 'Large-capacity round-frame baitcasters for big swimbaits and saltwater.',
    variants: [
      ['300HG', 7.6, 12.7, 22, 35],
      ['400HG', 7.6, 14.5, 22, 38],
    ],
  },
  {
    brand: 'Daiwa',
    productLine: 'Tatula SV TW',
    reelType: 'Baitcasting',
    bearings: '7+1',
    priceUsd: 230,
    description: 'Compact baitcasters with the SV spool and T-Wing line guide.',
    variants: [
      ['103H', 7.1, 6.7, 11, 30],
      ['103XS', 8.1, 6.7, 11, 34],
    ],
  },
  {
    brand: 'Abu Garcia',
    productLine: 'Revo SX',
    labelIs: 'ratio',
    reelType: 'Baitcasting',
    bearings: '10+1',
    priceUsd: 180,
    description: 'Low-profile baitcasters with the Carbon Matrix drag.',
    variants: [
      ['6.6:1', 6.6, 6.3, 24, 26],
      ['7.3:1', 7.3, 6.3, 24, 30],
      ['8.0:1', 8.0, 6.3, 24, 33],
    ],
  },
  {
    brand: 'Abu Garcia',
    productLine: 'Black Max',
    labelIs: 'ratio',
    reelType: 'Baitcasting',
    bearings: '4+1',
    priceUsd: 60,
    description: 'Entry-level low-profile baitcaster with a graphite frame.',
    variants: [['6.4:1', 6.4, 7.7, 18, 26]],
  },
  {
    brand: 'Abu Garcia',
    productLine: 'Ambassadeur C3',
    reelType: 'Baitcasting',
    bearings: '3+1',
    priceUsd: 140,
    description: 'Classic round baitcasting reels for catfish, salmon and stripers.',
    variants: [
      ['5500', 5.3, 10.8, 15, 23],
      ['6500', 5.3, 12.0, 15, 25],
    ],
  },
  {
    brand: "Lew's",
    productLine: 'Speed Spool LFS',
    labelIs: 'ratio',
    reelType: 'Baitcasting',
    bearings: '10+1',
    priceUsd: 130,
    description: 'Low-profile baitcasters with a one-piece aluminum frame.',
    variants: [
      ['6.8:1', 6.8, 6.6, 20, 28],
      ['7.5:1', 7.5, 6.6, 20, 31],
      ['8.3:1', 8.3, 6.6, 20, 34],
    ],
  },
  {
    brand: '13 Fishing',
    productLine: 'Concept A2',
    labelIs: 'ratio',
    reelType: 'Baitcasting',
    bearings: '8+1',
    priceUsd: 150,
    description: 'Low-profile baitcasters with an aluminum frame.',
    variants: [
      ['6.6:1', 6.6, 6.3, 15, 26],
      ['7.5:1', 7.5, 6.3, 15, 30],
      ['8.1:1', 8.1, 6.3, 15, 32],
    ],
  },
  {
    brand: 'KastKing',
    productLine: 'Spartacus',
    labelIs: 'ratio',
    reelType: 'Baitcasting',
    bearings: '11+1',
    priceUsd: 45,
    description: 'Value baitcaster with a carbon fiber drag.',
    variants: [['7.2:1', 7.2, 7.8, 17.5, 28]],
  },
  {
    brand: 'Zebco',
    productLine: 'Zebco 33',
    labelIs: 'none',
    reelType: 'Spincast',
    bearings: '1',
    priceUsd: 25,
    description: 'The classic American push-button spincast reel.',
    variants: [['', 3.6, 9.5, 10, 19]],
  },
  {
    brand: 'Zebco',
    productLine: 'Omega Pro',
    labelIs: 'none',
    reelType: 'Spincast',
    bearings: '7',
    priceUsd: 80,
    description: 'Premium spincast reel with an all-metal body.',
    variants: [['', 4.1, 10.9, 12, 22]],
  },
  {
    brand: 'Zebco',
    productLine: 'Zebco 202',
    labelIs: 'none',
    reelType: 'Spincast',
    priceUsd: 15,
    description: 'Simple spincast reel for beginners and kids.',
    variants: [['', 2.8, 7.4, 4, 14]],
  },
  {
    brand: 'Penn',
    productLine: 'Fathom II Level Wind',
    reelType: 'Conventional',
    bearings: '5+1',
    priceUsd: 170,
    description: 'Level-wind star-drag reels for trolling and bottom fishing.',
    variants: [
      ['15', 6.1, 17.9, 15, 28],
      ['25', 5.3, 22.0, 20, 29],
    ],
  },
  {
    brand: 'Penn',
    productLine: 'Squall II Level Wind',
    reelType: 'Conventional',
    bearings: '3+1',
    priceUsd: 110,
    description: 'Graphite-frame level-wind reels for inshore and nearshore trolling.',
    variants: [
      ['30', 4.9, 20.0, 20, 25],
      ['40', 4.9, 24.0, 25, 28],
    ],
  },
  {
    brand: 'Accurate',
    productLine: 'Boss Valiant',
    labelIs: 'model',
    reelType: 'Conventional',
    bearings: '5+1',
    priceUsd: 430,
    description: 'Machined star-drag conventional reels with a twin drag.',
    variants: [
      ['BV-300', 6.0, 13.5, 24, 34],
      ['BV-500', 6.0, 17.0, 30, 38],
    ],
  },
  {
    brand: 'Avet',
    productLine: 'SX',
    labelIs: 'ratio',
    reelType: 'Conventional',
    bearings: '5+1',
    priceUsd: 300,
    description: 'Compact machined lever-drag reel.',
    variants: [['5.3', 5.3, 14.0, 18, 29]],
  },
  {
    brand: 'Avet',
    productLine: 'JX',
    labelIs: 'ratio',
    reelType: 'Conventional',
    bearings: '4+1',
    priceUsd: 420,
    description: 'Two-speed lever-drag reel (high gear shown).',
    variants: [['6/3', 6.0, 22.0, 25, 35]],
  },
  {
    brand: 'Avet',
    productLine: 'LX',
    labelIs: 'ratio',
    reelType: 'Conventional',
    bearings: '4+1',
    priceUsd: 460,
    description: 'Two-speed lever-drag reel for tuna and big game (high gear shown).',
    variants: [['6/3', 6.0, 27.0, 30, 38]],
  },
  {
    brand: 'Okuma',
    productLine: 'Cold Water',
    labelIs: 'model',
    reelType: 'Conventional',
    bearings: '2+1',
    priceUsd: 110,
    prices: { 'CW-303D': 120 },
    description: 'Line-counter trolling reels for salmon, trout and walleye.',
    variants: [
      ['CW-153D', 5.1, 16.0, 15, 25],
      ['CW-303D', 4.2, 23.0, 25, 27],
    ],
  },
  {
    brand: 'Orvis',
    productLine: 'Hydros',
    reelType: 'Fly',
    priceUsd: 230,
    description: 'Large-arbor machined fly reels with a sealed drag.',
    variants: [
      ['II (3-5 wt)', 1.0, 4.2, 7],
      ['IV (5-7 wt)', 1.0, 5.3, 10],
    ],
  },
  {
    brand: 'Orvis',
    productLine: 'Battenkill',
    reelType: 'Fly',
    priceUsd: 130,
    description: 'Classic click-and-pawl fly reel.',
    variants: [['III (4-6 wt)', 1.0, 3.8, 3]],
  },
  {
    brand: 'Ross Reels',
    productLine: 'Animas',
    reelType: 'Fly',
    priceUsd: 350,
    prices: { '7/8': 390 },
    description: 'Machined fly reels made in Colorado with a sealed carbon drag.',
    variants: [
      ['3/4', 1.0, 4.0, 9],
      ['5/6', 1.0, 4.5, 14],
      ['7/8', 1.0, 6.0, 18],
    ],
  },
  {
    brand: 'Ross Reels',
    productLine: 'Evolution R',
    reelType: 'Fly',
    priceUsd: 480,
    description: 'Machined fly reels made in Colorado with a conical drag.',
    variants: [
      ['3/4', 1.0, 4.4, 10],
      ['5/6', 1.0, 5.0, 15],
    ],
  },
  {
    brand: 'Sage',
    productLine: 'Spectrum LT',
    reelType: 'Fly',
    priceUsd: 400,
    description: 'Light machined fly reels with a sealed carbon drag.',
    variants: [
      ['5/6', 1.0, 4.5, 10],
      ['7/8', 1.0, 5.5, 14],
    ],
  },
  {
    brand: 'Redington',
    productLine: 'Zero',
    reelType: 'Fly',
    priceUsd: 100,
    description: 'Ultra-light click-drag fly reels.',
    variants: [
      ['2/3', 1.0, 3.3, 2],
      ['4/5', 1.0, 3.7, 3],
    ],
  },
  {
    brand: 'Redington',
    productLine: 'Behemoth',
    reelType: 'Fly',
    priceUsd: 170,
    description: 'Die-cast fly reels with a powerful carbon fiber drag.',
    variants: [
      ['5/6', 1.0, 6.5, 20],
      ['7/8', 1.0, 7.5, 25],
    ],
  },
];

export function reels(): ReelItem[] {
  const out: ReelItem[] = [];
  for (const line of LINES) {
    const labelIs = line.labelIs ?? 'size';
    for (const [label, gearRatio, weightOz, dragLb, retrieveIn] of line.variants) {
      const name = label ? `${line.productLine} ${label}` : line.productLine;
      out.push({
        ...common(line.brand, name, line.productLine, {
          description: line.description,
          priceUsd: line.prices?.[label] ?? line.priceUsd,
          ...(labelIs === 'model' ? { modelNumber: label } : {}),
        }),
        reelType: line.reelType,
        ...(labelIs === 'size' ? { size: label } : {}),
        gearRatio,
        weightG: ozDecimal(weightOz),
        maxDragKg: lbToKg(dragLb),
        ...(line.bearings ? { bearings: line.bearings } : {}),
        ...(retrieveIn ? { retrieveCm: inchesToCm(retrieveIn) } : {}),
      });
    }
  }
  return out;
}
