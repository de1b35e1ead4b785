import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apparel } from './apparel.js';
import { lines } from './lines.js';
import { lures } from './lures.js';
import { reels } from './reels.js';
import { rods } from './rods.js';

/**
 * Writes reference-data/gear/{rods,reels,lines,lures,apparel}.json from the product-line
 * definitions next to this file (`npm run data:gear`). The JSON files are what the seed reads;
 * change the definitions here and run the script again rather than editing them by hand.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const outDir = path.join(root, 'reference-data', 'gear');

const ABOUT: Record<string, string> = {
  rods: 'Rods. lengthIn: inches; lineMinLb/lineMaxLb: line rating in lb; lureMinG/lureMaxG: lure rating in grams; flyLineWeight: fly line weight (fly rods are rated by it instead of power); priceUsd: list price in US dollars.',
  reels: 'Reels. gearRatio: spool turns per handle turn (n:1); weightG: grams; maxDragKg: kilograms; retrieveCm: line retrieved per handle turn in centimetres; bearings: ball+roller bearings; priceUsd: list price in US dollars.',
  lines: 'Lines. testLb: breaking strength in lb; diameterMm: millimetres; spoolLengthM: metres; priceUsd: list price per spool in US dollars.',
  lures: 'Lures. weightG: grams (absent for soft plastics, sold unweighted); lengthCm: centimetres; divingDepthMinM/MaxM: running depth in metres; targetSpecies: scientific names from species.json; priceUsd: list price in US dollars (per lure, or per pack for soft plastics).',
  apparel: 'Apparel. sizes: the sizes the product comes in; colours: its colourways; priceUsd: list price in US dollars.',
};

const kinds: Record<string, Array<{ slug: string }>> = { rods: rods(), reels: reels(), lines: lines(), lures: lures(), apparel: apparel() };
const slugs = new Set<string>();
for (const [kind, items] of Object.entries(kinds)) {
  for (const item of items) {
    if (slugs.has(item.slug)) throw new Error(`duplicate slug ${item.slug}`);
    slugs.add(item.slug);
  }
  const body = `{\n  "about": ${JSON.stringify(ABOUT[kind])},\n  "items": [\n${items.map((i) => `    ${JSON.stringify(i)}`).join(',\n')}\n  ]\n}\n`;
  writeFileSync(path.join(outDir, `${kind}.json`), body);
  process.stdout.write(`${kind}: ${items.length}\n`);
}
process.stdout.write(`total: ${slugs.size}\n`);
