import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'packages/*/dist/', 'node_modules/', 'data/', 'drizzle/', 'coverage/', '.tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', fetch: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
    },
  },
  {
    // One access path: who owns a record is compared in src/core/access only (isOwner, the policies).
    files: ['src/modules/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          "BinaryExpression[operator=/^[!=]==$/]:not([left.type='Literal']):not([right.type='Literal']) > MemberExpression[object.name='viewer'][property.name='userId']",
          "BinaryExpression[operator=/^[!=]==$/]:not([left.type='Literal']):not([right.type='Literal']) > Identifier[name='viewerId']",
          "BinaryExpression[operator=/^[!=]==$/]:not([left.type='Literal']):not([right.type='Literal']) > MemberExpression[property.name=/^(ownerId|authorId|captainId|creatorId|organizerId|reporterId)$/]",
        ].map((selector) => ({ selector, message: 'Compare owners through src/core/access (isOwner, or a policy through authorize/allows), not by hand.' })),
      ],
    },
  },
  {
    // One way to make test data: the factories' barrel (test/factories.ts), never a file behind it.
    files: ['src/**/*.ts', 'test/**/*.ts', 'packages/**/*.ts'],
    ignores: ['test/factories.ts', 'test/factories/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/test/factories/*', './factories/*'], message: 'Import test factories from test/factories.ts (the one barrel).' }] }] },
  },
  {
    // The barrel re-exports the factories: a factory imports its siblings, never the barrel (a cycle).
    files: ['test/factories/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: '../factories.js', message: 'Import the sibling factory file (e.g. ./users.js).' }] }] },
  },
  {
    // The console runs in the browser (its build script in Node).
    files: ['packages/console/**/*.{ts,tsx,mjs}'],
    languageOptions: { globals: { window: 'readonly', document: 'readonly', sessionStorage: 'readonly', URL: 'readonly', process: 'readonly' } },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['bench/**', 'bin/**', 'scripts/*.mjs', 'packages/console/scripts/*.mjs'],
    rules: { 'no-console': 'off' },
  },
);
