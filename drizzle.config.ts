import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` turns the Drizzle tables of every module into a new SQL migration.
export default defineConfig({
  dialect: 'postgresql',
  schema: ['./src/core/**/*.tables.ts', './src/modules/**/*.tables.ts'],
  out: './drizzle',
  casing: 'snake_case',
});
