import { describe, expect, it } from 'vitest';
import { AppError } from '../http/problem.js';
import type { DbOrTx } from '../db/client.js';
import { Registries } from '../registries.js';
import { allows, authorize, conflict, definePolicy, isOwner, ownerOnly } from './policy.js';

const context = { db: {} as DbOrTx, registries: new Registries() };
const notYours = { code: 'things.not_owner', detail: 'only its owner may change this thing' };
const things = definePolicy<{ ownerId: string; shared: boolean }, 'read' | 'update' | 'like'>('things', {
  read: (viewer, record) => (record.shared || isOwner(viewer, record) ? true : { code: 'things.not_visible', detail: 'not shared with you' }),
  update: ownerOnly(notYours),
  like: (viewer, record) => (isOwner(viewer, record) ? conflict('things.own_thing', 'you cannot like your own thing') : true),
});
const owner = { userId: 'u1', role: 0 };
const other = { userId: 'u2', role: 0 };
const notFound = () => new AppError(404, 'things.not_found', 'no such thing');

describe('record policies', () => {
  it('answers 404 only for a missing record and 403 with the rule’s code for a refusal', async () => {
    await expect(authorize(things, owner, 'read', null, context, notFound)).rejects.toMatchObject({ status: 404, code: 'things.not_found' });
    await expect(authorize(things, other, 'read', { ownerId: 'u1', shared: false }, context, notFound)).rejects.toMatchObject({
      status: 403,
      code: 'things.not_visible',
      detail: 'not shared with you',
    });
    await expect(authorize(things, other, 'update', { ownerId: 'u1', shared: true }, context, notFound)).rejects.toMatchObject({ status: 403, code: 'things.not_owner' });
  });

  it('answers 409 for a refusal made with conflict() (a state conflict, not a "you may not")', async () => {
    await expect(authorize(things, owner, 'like', { ownerId: 'u1', shared: true }, context, notFound)).rejects.toMatchObject({
      status: 409,
      code: 'things.own_thing',
      detail: 'you cannot like your own thing',
    });
    expect(await allows(things, other, 'like', { ownerId: 'u1', shared: true }, context)).toBe(true);
  });

  it('returns the record when allowed, and allows() answers without throwing', async () => {
    const record = { ownerId: 'u1', shared: true };
    expect(await authorize(things, other, 'read', record, context, notFound)).toBe(record);
    expect(await allows(things, owner, 'update', record, context)).toBe(true);
    expect(await allows(things, other, 'update', record, context)).toBe(false);
    expect(things.actions).toEqual(['read', 'update', 'like']);
    expect(isOwner('u1', record)).toBe(true);
  });
});
