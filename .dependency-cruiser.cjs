/**
 * The module-boundary rules of fishlog (docs/architecture.md), checked by `npm run lint`:
 * 1. no import cycles;
 * 2. src/core never imports src/modules (modules register what the core needs at start-up);
 * 3. a module imports another module only through its public file (`index.ts` or a `*.service.ts`),
 *    never its repositories, tables, schemas or other internals;
 * 4. the reference tier (species, brands, lookups, settings; gear above them) imports no higher module.
 * Composition roots may import any module: src/app.ts, src/providers.ts, src/seeds.ts, src/cli/.
 * Tests are not part of the boundaries.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
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
      comment: 'The core knows no module: modules register providers (src/providers.ts) at start-up.',
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
    {
      name: 'reference-tier-one-way',
      severity: 'error',
      comment:
        'The reference tier (species, brands, lookups, settings, then the gear catalog that references them) imports no higher module: usage is counted by registration (core/admin/usage.ts, src/providers.ts).',
      from: { path: '^src/modules/(species|brands|lookups|settings|gear)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/modules/', pathNot: ['^src/modules/(species|brands|lookups|settings)/', '^src/modules/$1/'] },
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
