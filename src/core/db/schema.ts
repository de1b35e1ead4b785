/** Every Drizzle table of the project, for the typed client and drizzle-kit. */
export * from './core.tables.js';
