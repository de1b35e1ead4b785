/**
 * `npx tsx bench/pg-row-shapes.ts`: what node-postgres' row building (`Result.addFields` +
 * `parseRow`, as every query result goes through it) costs for one result of 20 rows × 25 text
 * columns, first in a process that has only ever built that row shape (as the bare reference of
 * the benches, which replays three statements), then after it has built 200 other shapes (as the
 * service, which runs hundreds of statements). Not a bench with a goal: it shows one reason why
 * the same SQL costs the service more CPU than its bare reference (docs/scaling.md, "Reading a
 * ratio"), which no change of the service's own code removes.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const Result = require('pg/lib/result.js') as new (rowMode?: string, types?: unknown) => {
  addFields(fields: Array<{ name: string; dataTypeID: number; format: string }>): void;
  parseRow(row: string[]): unknown;
};

const shape = (prefix: string, columns: number) => Array.from({ length: columns }, (_, i) => ({ name: `${prefix}${i}`, dataTypeID: 25, format: 'text' }));

/** Nanoseconds per 20-row result of `fields`. */
function perResult(fields: ReturnType<typeof shape>, iterations: number): number {
  const row = fields.map((_, i) => `value${i}`);
  let kept: unknown;
  const started = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) {
    const result = new Result();
    result.addFields(fields);
    for (let r = 0; r < 20; r++) kept = result.parseRow(row);
  }
  if (kept === undefined) throw new Error('no row');
  return Number(process.hrtime.bigint() - started) / iterations;
}

const measured = shape('column', 25);
perResult(measured, 20_000); // warm-up
const alone = perResult(measured, 50_000);
for (let other = 0; other < 200; other++) perResult(shape(`s${other}_`, 5 + (other % 30)), 50);
perResult(measured, 20_000);
const amongOthers = perResult(measured, 50_000);
console.log(`one row shape only: ${(alone / 1000).toFixed(1)} µs per result; after 200 other shapes: ${(amongOthers / 1000).toFixed(1)} µs (${((amongOthers / alone - 1) * 100).toFixed(0)}% more)`);
