/** The brands module's public read model (with brands.service.ts): the brands table for joins (names), never to write. */
export { brands } from './brands.tables.js';
/** The kinds of catalog gear a brand makes (the gear catalog's kinds too). */
export { GEAR_KINDS, GearKindEnum, type GearKind } from './brands.kinds.js';
/** What uses a brand: the modules that reference brands register their counters and rename listeners (the registering module's <module>.module.ts). */
export { onBrandRenamed, registerBrandUsage, type BrandItemCount } from './brands.usage.js';
