import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The console is served by the API at /console (src/core/http/console.ts). `npm run console:dev`
 * serves it with hot reload on http://127.0.0.1:5173/console/ and forwards /api to the API given
 * by FISHLOG_API_URL (default http://127.0.0.1:3000), so the browser sees one origin as in production.
 */
const api = process.env.FISHLOG_API_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  base: '/console/',
  plugins: [react()],
  resolve: {
    // The client's TypeScript source: no build of packages/client needed first, and changes to it reload too.
    alias: { '@fishlog/client': fileURLToPath(new URL('../client/src/index.ts', import.meta.url)) },
  },
  server: { host: '127.0.0.1', port: 5173, strictPort: true, proxy: { '/api': api, '/health': api } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    // Module preload polyfill off: it is an inline script, which the CSP (script-src 'self') would refuse.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1200,
  },
});
