import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from './app-deps.js';

/** A plugin of a module's routes: registered with the app's dependencies. */
export type RoutesPlugin = FastifyPluginAsyncTypebox<{ deps: AppDeps }>;

/**
 * One module of src/modules as the app registers it (src/modules.ts lists them, src/app.ts
 * registers the list): its name (its folder, as module-tiers.cjs lists it) and its one Fastify
 * plugin, which registers the module's providers (what it registers with the modules below it:
 * usage counters, photo records, moderated content, payment listeners …) and then its public and
 * admin routes.
 */
export interface FishlogModule {
  readonly name: string;
  readonly plugin: FastifyPluginAsyncTypebox<{ deps: AppDeps }>;
}

export interface ModuleParts {
  /** The module's route plugins, public and admin, in the order they register. */
  routes: readonly RoutesPlugin[];
  /** Registers what the module provides to others, once per app, before its routes. */
  providers?: (deps: AppDeps) => void;
}

/**
 * Fastify names a plugin without a display name by searching `require.cache` for it (every
 * loaded file, at each registration: ~40 ms of an app's start); a plugin's own name is given instead.
 */
const DISPLAY_NAME = Symbol.for('fastify.display-name');
function named<T extends object>(plugin: T, name: string): T {
  (plugin as Record<symbol, unknown>)[DISPLAY_NAME] ??= name;
  return plugin;
}

export function defineModule(name: string, parts: ModuleParts): FishlogModule {
  const plugin: FishlogModule['plugin'] = async (app, { deps }) => {
    parts.providers?.(deps);
    for (const routes of parts.routes) await app.register(named(routes, `${name}:${routes.name || 'routes'}`), { deps });
  };
  Object.defineProperty(plugin, 'name', { value: `module:${name}` });
  return { name, plugin: named(plugin, `module:${name}`) };
}

/** Registers the modules of `list` in order. */
export async function registerModules(app: FastifyInstance, list: readonly FishlogModule[], deps: AppDeps): Promise<void> {
  for (const module of list) await app.register(module.plugin, { deps });
}
