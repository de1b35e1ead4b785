import { validate, version } from 'uuid';
import { describe, expect, it } from 'vitest';
import { uuidv7 } from './ids.js';

describe('uuidv7 (row ids)', () => {
  it('makes valid, distinct version-7 UUIDs that sort in the order they were made', () => {
    const ids = Array.from({ length: 5000 }, () => uuidv7());
    for (const id of ids.slice(0, 300)) {
      expect(validate(id)).toBe(true);
      expect(version(id)).toBe(7);
      expect(id[19]).toMatch(/[89ab]/); // RFC 9562 variant
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('carries the time it was made in its first 48 bits', () => {
    const before = Date.now();
    const id = uuidv7();
    const millis = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    expect(millis).toBeGreaterThanOrEqual(before);
    expect(millis).toBeLessThanOrEqual(Date.now() + 1);
  });
});
