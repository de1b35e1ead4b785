/** The brands module's public read model (with brands.service.ts): the brands table for joins (names), never to write. */
export { brands } from './brands.tables.js';
