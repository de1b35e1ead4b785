import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Route-level access, declared on each route as `config: { access }` and resolved in one place.
 * A route that declares nothing needs an authenticated caller.
 */
export type Access = 'public' | 'authenticated';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
}

export function routeAccess(request: FastifyRequest): Access {
  return request.routeOptions.config.access ?? 'authenticated';
}

export function describeAccess(access: Access): string {
  switch (access) {
    case 'public':
      return 'Public: no token needed.';
    case 'authenticated':
      return 'Any signed-in user (Authorization: Bearer <id_token>).';
  }
}

/** Marks every route registered in `scope` (and its children) public. */
export function makeRoutesPublic(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    route.config = { ...(route.config ?? {}), access: 'public' };
  });
}
