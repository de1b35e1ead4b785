import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, redactUrl } from './config.js';

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
      shutdownTimeoutMs: 10_000,
    });
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
