import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness.js';
import { main } from './index.js';

let target: TestDatabase;
beforeAll(async () => {
  target = await createTestDatabase({ empty: true });
});
afterAll(async () => {
  await target?.drop();
});

async function run(args: string[], env: Record<string, string> = {}) {
  let out = '';
  let err = '';
  const code = await main(args, { out: (t) => (out += t), err: (t) => (err += t), env: { DATABASE_URL: target.url, ...env } });
  return { code, out, err };
}

describe('fishlog CLI', () => {
  it('prints help listing every command, exit 0', async () => {
    const { code, out } = await run(['--help']);
    expect(code).toBe(0);
    for (const command of ['serve', 'migrate', 'seed']) expect(out).toContain(command);
  });

  it.each(['serve', 'migrate', 'seed'])('has --help on %s', async (command) => {
    const { code, out } = await run([command, '--help']);
    expect(code).toBe(0);
    expect(out).toContain(`Usage: fishlog ${command}`);
  });

  it('prints the version', async () => {
    const { code, out } = await run(['--version']);
    expect(code).toBe(0);
    expect(out.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('exits 2 on an unknown command or option, with a message', async () => {
    const unknown = await run(['fly']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("unknown command 'fly'");
    const option = await run(['migrate', '--nope']);
    expect(option.code).toBe(2);
    expect(option.err).toContain("unknown option '--nope'");
  });

  it('exits 2 with the variable named when the configuration is bad', async () => {
    const { code, err } = await run(['migrate'], { LOG_LEVEL: 'shouty' });
    expect(code).toBe(2);
    expect(err).toContain('LOG_LEVEL');
  });

  it('migrates, then finds nothing more to migrate', async () => {
    const first = await run(['migrate']);
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/migrations: [1-9]\d* applied/);
    const second = await run(['migrate']);
    expect(second.code).toBe(0);
    expect(second.out).toMatch(/migrations: 0 applied/);
  });

  it('seeds (idempotently)', async () => {
    const { code, out } = await run(['seed']);
    expect(code).toBe(0);
    expect(out).toMatch(/^seeds: \d+ applied, \d+ already current/);
    expect((await run(['seed', '--pending'])).code).toBe(0);
  });

  it('exits 1 with a message when the database cannot be reached', async () => {
    const { code, err } = await run(['migrate'], { DATABASE_URL: 'postgres://nobody:pw@127.0.0.1:1/none' });
    expect(code).toBe(1);
    expect(err).toMatch(/^fishlog: /);
  });
});
