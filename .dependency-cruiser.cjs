/**
 * The module-boundary rules of fishlog (docs/architecture.md), checked by `npm run lint`:
 * 1. no import cycles;
 * 2. src/core never imports src/modules (modules register what the core needs at start-up);
 * 3. a module imports another module only through its public file (`index.ts` or a `*.service.ts`),
 *    never its repositories, tables, schemas or other internals;
 * 4. a module imports no module of a higher tier (module-tiers.cjs); `scripts/module-graph.mjs`
 *    (also in `npm run lint`) refuses module-level cycles and unlisted module folders.
 * Composition roots may import any module: src/app.ts, src/modules.ts, src/seeds.ts, src/cli/.
 * Tests are not part of the boundaries.
 */
const tiers = require('./module-tiers.cjs');

const names = Object.keys(tiers);
/** One rule per tier: its modules import nothing of the tiers above it. */
const tierRules = names.slice(0, -1).map((tier, i) => {
  const above = names.slice(i + 1).flatMap((name) => tiers[name]);
  return {
    name: `tier-${tier}`,
    severity: 'error',
    comment: `A ${tier} module (${tiers[tier].join(', ')}) imports no module of a higher tier (${names.slice(i + 1).join(', ')}): register with it instead (module-tiers.cjs).`,
    from: { path: `^src/modules/(${tiers[tier].join('|')})/`, pathNot: '\\.test\\.ts$' },
    to: { path: `^src/modules/(${above.join('|')})/` },
  };
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...tierRules,
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import cycles break the compiled server (modules evaluated before what they use).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-not-to-modules',
      severity: 'error',
      comment: 'The core knows no module: modules register providers (each in its plugin, <module>.module.ts) at start-up.',
      from: { path: '^src/core/', pathNot: ['\\.test\\.ts$'] },
      to: { path: '^src/modules/' },
    },
    {
      name: 'module-through-public-file',
      severity: 'error',
      comment: "A module uses another only through that module's public file: index.ts or *.service.ts.",
      from: { path: '^src/modules/([^/]+)/', pathNot: '\\.test\\.ts$' },
      to: {
        path: '^src/modules/',
        pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/(index|[^/]+[.]service)[.]ts$', '^src/modules/[^/]+/[^/]+/(index|[^/]+[.]service)[.]ts$'],
      },
    },
    {
      name: 'no-foreign-repository-or-tables',
      severity: 'error',
      comment: "Never another module's repository or tables, whatever the path.",
      from: { path: '^src/modules/([^/]+)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/modules/[^/]+/.+[.](repository|tables)[.]ts$', pathNot: '^src/modules/$1/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js'] },
  },
};
