import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MODULES } from './modules.js';

const require = createRequire(import.meta.url);
const tiers = require('../module-tiers.cjs') as Record<string, string[]>;

describe('the module list (src/modules.ts)', () => {
  it('registers every module folder once, through its <module>.module.ts, tier by tier (settings starts first, outside the list)', () => {
    const folders = fs
      .readdirSync(path.join(import.meta.dirname, 'modules'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    const names = MODULES.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...names, 'settings'].sort()).toEqual([...folders].sort());
    for (const name of names) expect(fs.existsSync(path.join(import.meta.dirname, 'modules', name, `${name}.module.ts`)), name).toBe(true);
    const tierOf = (name: string) => Object.values(tiers).findIndex((list) => list.includes(name));
    const order = names.map(tierOf);
    expect(order.every((tier) => tier >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });
});
