import type { FastifyInstance, RouteOptions } from 'fastify';

type Phase = 'onRequest' | 'preParsing' | 'preValidation' | 'preHandler' | 'onSend';

/**
 * Adds `hook` to every route registered after this call for which `applies(route)` holds, as a
 * route-level hook of `phase` (after the global hooks of that phase, in the order of the calls).
 * A global hook runs on every request of every route; a hook that only some routes need (body
 * checks: not on GET, which has no body) is thereby no cost to the others.
 */
export function addRouteHook(app: FastifyInstance, phase: Phase, hook: (...args: never[]) => unknown, applies: (route: RouteOptions) => boolean = () => true): void {
  app.addHook('onRoute', (route) => {
    if (!applies(route)) return;
    const existing = route[phase] === undefined ? [] : Array.isArray(route[phase]) ? route[phase] : [route[phase]];
    (route as unknown as Record<Phase, unknown>)[phase] = [...(existing as unknown[]), hook];
  });
}

/** Whether a route takes a request body: Fastify reads none for GET and HEAD. */
export function takesBody(route: RouteOptions): boolean {
  return (Array.isArray(route.method) ? route.method : [route.method]).some((method) => method !== 'GET' && method !== 'HEAD');
}
