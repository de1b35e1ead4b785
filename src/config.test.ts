import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, redactUrl, withEnvFile } from './config.js';

describe('loadConfig', () => {
  it('uses the documented defaults', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      dataDir: path.resolve('/srv/app', 'data'),
      databaseUrl: undefined,
      logLevel: 'info',
      publicDocs: true,
      bodyLimitBytes: 1_048_576,
      heapGrowingPercent: 50,
      shutdownTimeoutMs: 10_000,
    });
    expect(loadConfig({ FISHLOG_HEAP_GROWING_PERCENT: '0' }).heapGrowingPercent).toBe(0);
    expect(loadConfig({}).idp).toMatchObject({ kind: 'local', tokenLifetimeSeconds: 3600 });
    expect(loadConfig({ IDP_LOCAL_TOKEN_LIFETIME_SECONDS: '300' }).idp).toMatchObject({ tokenLifetimeSeconds: 300 });
  });

  it('turns public docs off in production unless asked', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).publicDocs).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', FISHLOG_PUBLIC_DOCS: 'on' }).publicDocs).toBe(true);
  });

  it('reads every variable', () => {
    const config = loadConfig(
      { PORT: '8080', HOST: '0.0.0.0', FISHLOG_DATA_DIR: '/var/lib/fishlog', DATABASE_URL: 'postgres://u:p@db:5432/fishlog', LOG_LEVEL: 'DEBUG', FISHLOG_PUBLIC_DOCS: 'false' },
      '/x',
    );
    expect(config).toMatchObject({ port: 8080, host: '0.0.0.0', dataDir: '/var/lib/fishlog', databaseUrl: 'postgres://u:p@db:5432/fishlog', logLevel: 'debug', publicDocs: false });
  });

  it.each([
    ['PORT', 'abc', 'an integer from 0 to 65535'],
    ['PORT', '70000', 'an integer from 0 to 65535'],
    ['LOG_LEVEL', 'loud', 'one of fatal, error, warn, info, debug, trace, silent'],
    ['FISHLOG_PUBLIC_DOCS', 'maybe', 'one of 1, true, on, yes, 0, false, off, no'],
    ['DATABASE_URL', 'mysql://u@h/db', 'a PostgreSQL URL starting with postgres:// or postgresql://'],
    ['DATABASE_URL', 'not a url', 'a PostgreSQL URL such as'],
    ['HOST', 'bad host!', 'a host name or IP address'],
    ['FISHLOG_HEAP_GROWING_PERCENT', '400', 'an integer from 0 to 300'],
    ['IDP_LOCAL_TOKEN_LIFETIME_SECONDS', '0', 'an integer from 1 to 86400'],
  ])('refuses %s=%s with one clear line', (name, value, accepts) => {
    try {
      loadConfig({ [name]: value });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).toContain(name);
      expect(message).toContain(accepts);
      expect(message).not.toContain('\n');
    }
  });

  it('never prints a database password', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://user:hunter2@h/db' })).toThrow(/^(?!.*hunter2)/);
    expect(redactUrl('postgres://user:hunter2@h:5432/db')).toBe('postgres://user:***@h:5432/db');
  });
});

describe('.env file', () => {
  function inTempDir(envFile: string | undefined, fn: (dir: string) => void): void {
    const dir = mkdtempSync(path.join(tmpdir(), 'fishlog-env-'));
    try {
      if (envFile !== undefined) writeFileSync(path.join(dir, '.env'), envFile);
      fn(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('fills in variables from ./.env; the environment wins, also with an empty value', () => {
    inTempDir('PORT=4100\n# a comment\nLOG_LEVEL="debug"\nHOST=0.0.0.0\nDATABASE_URL=postgres://u:p@db/x\n', (dir) => {
      const env = withEnvFile({ HOST: '127.0.0.2', DATABASE_URL: '' }, dir);
      expect(env).toMatchObject({ PORT: '4100', LOG_LEVEL: 'debug', HOST: '127.0.0.2', DATABASE_URL: '' });
      expect(loadConfig(env, dir)).toMatchObject({ port: 4100, logLevel: 'debug', host: '127.0.0.2', databaseUrl: undefined });
    });
  });

  it('changes nothing without a .env file', () => {
    inTempDir(undefined, (dir) => {
      const env = { PORT: '1' };
      expect(withEnvFile(env, dir)).toBe(env);
    });
  });

  it('a bad value from .env is refused like one from the environment', () => {
    inTempDir('PORT=abc\n', (dir) => {
      expect(() => loadConfig(withEnvFile({}, dir), dir)).toThrow(ConfigError);
    });
  });
});

describe('.env.example, docs/configuration.md and engines', () => {
  const root = path.resolve(import.meta.dirname, '..');
  const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

  it('documents every variable config.ts reads, in .env.example and in docs/configuration.md', () => {
    const variables = [...new Set([...read('src/config.ts').matchAll(/\(env, '([A-Z][A-Z0-9_]*)'/g)].map((m) => m[1]!))];
    expect(variables.length).toBeGreaterThan(15);
    const example = read('.env.example');
    const configuration = read('docs/configuration.md');
    for (const name of variables) {
      expect(example, `.env.example documents ${name}`).toMatch(new RegExp(`^#? ?${name}=`, 'm'));
      expect(configuration, `docs/configuration.md documents ${name}`).toContain(`\`${name}\``);
    }
  });

  it('supports Node 20, 22 and 24, and no installed package warns about the engine on them', () => {
    const supported = ['20.19.0', '22.13.0', '24.0.0'];
    const range = JSON.parse(read('package.json')).engines.node as string;
    for (const version of supported) expect(semver.satisfies(version, range), `engines.node ${range} admits ${version}`).toBe(true);
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { engines?: { node?: string } | string[] }> };
    const refusing: string[] = [];
    for (const [name, entry] of Object.entries(lock.packages)) {
      const node = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (!name || !node) continue;
      for (const version of supported) if (!semver.satisfies(version, node)) refusing.push(`${name} (node ${node}) on ${version}`);
    }
    expect(refusing).toEqual([]);
  });
});
