import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../src/paths.js';

/** The Dockerfile is not built in CI (no Docker here): its promises are checked as text. */

const dockerfile = readFileSync(path.join(projectRoot, 'Dockerfile'), 'utf8');
const compose = readFileSync(path.join(projectRoot, 'compose.yaml'), 'utf8');
const pkg = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

describe('Dockerfile', () => {
  it('runs the same command as npm start', () => {
    const cmd = /^CMD\s+(\[.*\])\s*$/m.exec(dockerfile);
    expect(cmd).not.toBeNull();
    const argv = JSON.parse(cmd![1]!) as string[];
    const start = pkg.scripts.start!.replace(/^MALLOC_ARENA_MAX=\S+\s+/, '').replace(/^exec\s+/, '').split(/\s+/);
    expect(argv).toEqual(start);
  });

  it('runs with the malloc arenas npm start defaults to (MALLOC_ARENA_MAX=2, which the environment may override there)', () => {
    expect(dockerfile).toMatch(/^ENV MALLOC_ARENA_MAX=2$/m);
    expect(pkg.scripts.start).toMatch(/^MALLOC_ARENA_MAX=\$\{MALLOC_ARENA_MAX:-2\} exec /);
  });

  it('is multi-stage, installs production dependencies only, runs as a non-root user, checks /health/live', () => {
    expect(dockerfile.match(/^FROM /gm)!.length).toBeGreaterThanOrEqual(2);
    expect(dockerfile).toMatch(/npm ci --omit=dev/);
    const users = [...dockerfile.matchAll(/^USER\s+(\S+)/gm)].map((m) => m[1]);
    expect(users.at(-1)).not.toMatch(/^(root|0)$/);
    expect(dockerfile).toMatch(/^HEALTHCHECK[\s\S]*\/health\/live/m);
  });
});

describe('Dockerfile and the staff console', () => {
  it('builds the console in the build stage and ships its dist, where the API serves /console from', () => {
    expect(dockerfile).toMatch(/^COPY packages\/console\/package\.json /m);
    expect(dockerfile).toMatch(/^RUN node packages\/console\/scripts\/build\.mjs$/m);
    expect(dockerfile).toMatch(/^COPY --from=build \/app\/packages\/console\/dist \.\/packages\/console\/dist$/m);
    // The build reads the client's sources (the console calls the API only through @fishlog/client).
    expect(dockerfile).toMatch(/^COPY packages\/client\/src /m);
  });
});

describe('compose.yaml', () => {
  it('runs the API with PostgreSQL 16+ and an optional Redis', () => {
    expect(compose).toMatch(/image:\s*postgres:(1[6-9]|[2-9]\d)/);
    expect(compose).toMatch(/DATABASE_URL:\s*postgres:\/\//);
    expect(compose).toMatch(/redis:[\s\S]*profiles:\s*\["redis"\]/);
  });
});
