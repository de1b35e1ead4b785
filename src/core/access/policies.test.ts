import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as policies from './policies/index.js';

/**
 * The one access path: every policy file is in the barrel, and every action of every policy is
 * asked by a service through `authorize` or `allows` (an action nobody asks is a rule that
 * protects nothing, and usually a sign that a service decides by itself).
 */

const here = path.dirname(new URL(import.meta.url).pathname);
const src = path.resolve(here, '../..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

describe('record policies', () => {
  const exported = Object.entries(policies).filter(([, value]) => typeof value === 'object' && value !== null && 'actions' in value && 'resource' in value) as [string, { actions: readonly string[] }][];

  it('the barrel lists every policy file', () => {
    // common.ts holds the rules' building blocks, not a policy.
    const files = readdirSync(path.join(here, 'policies')).filter((f) => f.endsWith('.ts') && f !== 'index.ts' && f !== 'common.ts');
    const barrel = readFileSync(path.join(here, 'policies/index.ts'), 'utf8');
    expect(files.filter((f) => !barrel.includes(`'./${f.replace(/\.ts$/, '.js')}'`))).toEqual([]);
    expect(exported.length).toBeGreaterThanOrEqual(files.length);
  });

  it('every action of every policy is asked through authorize or allows outside core/access', () => {
    const files = sources(src)
      .filter((file) => !file.startsWith(path.join(src, 'core/access/')))
      .map((file) => readFileSync(file, 'utf8'));
    // Asked: `authorize(xPolicy, viewer, 'action', …)` / `allows(…)`, or, where a service asks
    // through a helper of its own (`authorize(xPolicy, viewer, action, …)`), the action named as a
    // literal in that service file.
    const asks = (name: string, action: string) =>
      files.some((code) => {
        if (new RegExp(`(?:authorize|allows)\\(\\s*${name}\\s*,[^;]*?'${action}'`).test(code)) return true;
        return new RegExp(`(?:authorize|allows)\\(\\s*${name}\\s*,\\s*\\w+\\s*,\\s*\\w+\\s*,`).test(code) && code.includes(`'${action}'`);
      });
    const unused = exported.flatMap(([name, policy]) => policy.actions.filter((action) => !asks(name, action)).map((action) => `${name}.${action}`));
    expect(unused).toEqual([]);
  });
});
