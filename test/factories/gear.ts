import type { TestApp } from '../harness.js';
import type { TestUser } from './users.js';

/** An angler's boats and gear setups, made through the gear API. */

async function create<T>(t: TestApp, owner: TestUser, url: string, payload: Record<string, unknown>): Promise<T> {
  const res = await t.app.inject({ method: 'POST', url, headers: owner.headers, payload });
  if (res.statusCode !== 201) throw new Error(`POST ${url} failed: ${res.statusCode} ${res.body}`);
  return res.json() as T;
}

export type BoatView = { id: string; name: string } & Record<string, unknown>;

export function createBoat(t: TestApp, owner: TestUser, body: Record<string, unknown> = {}): Promise<BoatView> {
  return create<BoatView>(t, owner, '/api/gear/boats', { name: 'Lund Fury', ...body });
}

export type SetupView = { id: string; name: string } & Record<string, unknown>;

export function createSetup(t: TestApp, owner: TestUser, body: Record<string, unknown> = {}): Promise<SetupView> {
  return create<SetupView>(t, owner, '/api/gear/setups', { name: 'Walleye jig', ...body });
}
