import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { makeRoutesPublic } from '../access/access.js';

/**
 * The staff console (packages/console, a react-admin app built by `npm run build` into its dist/)
 * served at /console by the API process itself, so that it calls the API on its own origin.
 *
 * - Hashed assets (`/console/assets/*`, the file name changes with the content) are cached for a
 *   year, immutable; index.html is never cached, so a new build is picked up at the next load.
 * - Content-Security-Policy: scripts only from the console's own files (no inline script, no
 *   other host: react-admin's telemetry is off), connections only to this origin. Styles allow
 *   'unsafe-inline' because the UI library (MUI, Emotion) inserts its style elements at run time.
 *   Images: this origin, and `blob:` for the photos the console fetches with the caller's token.
 * - The routes are public (the files hold no data; every call the console makes is an API call
 *   with the caller's token) and hidden from the OpenAPI document.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' blob: data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function consoleDistDir(projectRoot: string): string {
  return path.join(projectRoot, 'packages', 'console', 'dist');
}

/** Registers /console; answers false (and registers nothing) when the console was not built. */
export async function registerConsole(app: FastifyInstance, root: string): Promise<boolean> {
  if (!existsSync(path.join(root, 'index.html'))) {
    app.log.warn({ root }, 'the console is not built (run npm run build): /console is not served');
    return false;
  }
  await app.register(async (scope) => {
    makeRoutesPublic(scope);
    scope.addHook('onSend', async (_request, reply, payload) => {
      reply.header('content-security-policy', CONSOLE_CSP);
      reply.header('x-content-type-options', 'nosniff');
      reply.header('referrer-policy', 'no-referrer');
      return payload;
    });
    scope.get('/console', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/console/', 301));
    await scope.register(fastifyStatic, {
      root,
      prefix: '/console/',
      index: ['index.html'],
      cacheControl: false,
      etag: true,
      lastModified: true,
      // Source maps and the build stamp stay on disk.
      allowedPath: (pathName) => !pathName.endsWith('.map') && !pathName.includes('/.'),
      setHeaders: (res, filePath) => {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  });
  return true;
}
