/**
 * The module graph of src/modules, checked by `npm run lint` after dependency-cruiser's file rules:
 * - every module folder is listed in a tier (module-tiers.cjs);
 * - no module-level cycle: module A imports B (any non-test file of A imports a file of B) and B,
 *   directly or through others, imports A. File-level cycles are dependency-cruiser's rule; this
 *   one sees loops that pass through different files of each module.
 * Prints the graph's size, or each cycle with one import per edge, and exits 1.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const tiers = require(path.join(root, 'module-tiers.cjs'));

const listed = new Set(Object.values(tiers).flat());
const folders = fs.readdirSync(path.join(root, 'src/modules'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
const unlisted = folders.filter((name) => !listed.has(name));
const gone = [...listed].filter((name) => !folders.includes(name));

const cruiser = path.join(root, 'node_modules/.bin/depcruise');
const result = JSON.parse(execFileSync(cruiser, ['src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], { cwd: root, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' }));

const moduleOf = (file) => /^src\/modules\/([^/]+)\//.exec(file)?.[1];
/** @type {Map<string, Map<string, string>>} module → imported module → one import (for the report) */
const edges = new Map();
for (const source of result.modules) {
  const from = moduleOf(source.source);
  if (!from || source.source.endsWith('.test.ts')) continue;
  for (const dependency of source.dependencies) {
    const to = moduleOf(dependency.resolved);
    if (!to || to === from) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    if (!edges.get(from).has(to)) edges.get(from).set(to, `${source.source} → ${dependency.resolved}`);
  }
}

// Tarjan's strongly connected components: each component of more than one module is a cycle.
let index = 0;
const stack = [];
const onStack = new Set();
const indexOf = new Map();
const low = new Map();
const cycles = [];
function connect(v) {
  indexOf.set(v, index);
  low.set(v, index++);
  stack.push(v);
  onStack.add(v);
  for (const w of edges.get(v)?.keys() ?? []) {
    if (!indexOf.has(w)) {
      connect(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), indexOf.get(w)));
  }
  if (low.get(v) === indexOf.get(v)) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) cycles.push(component.sort());
  }
}
for (const name of folders) if (!indexOf.has(name)) connect(name);

let failed = false;
if (unlisted.length > 0) {
  failed = true;
  console.error(`✘ module folders in no tier of module-tiers.cjs: ${unlisted.join(', ')}`);
}
if (gone.length > 0) {
  failed = true;
  console.error(`✘ module-tiers.cjs lists modules that have no folder: ${gone.join(', ')}`);
}
for (const component of cycles) {
  failed = true;
  console.error(`✘ module cycle: ${component.join(', ')}`);
  for (const from of component) {
    for (const [to, example] of edges.get(from) ?? []) if (component.includes(to)) console.error(`    ${from} → ${to}  (${example})`);
  }
}
const edgeCount = [...edges.values()].reduce((sum, targets) => sum + targets.size, 0);
if (failed) process.exit(1);
console.log(`✔ module graph: ${folders.length} modules in ${Object.keys(tiers).length} tiers, ${edgeCount} module imports, no module cycle`);
