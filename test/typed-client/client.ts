/**
 * A small client of the fishlog API, typed only by the types `openapi-typescript` generates from
 * /openapi.json (./schema.d.ts, written by typed-client.test.ts). It logs in, creates a log entry and
 * reads it back. If the document changes in a way that breaks clients, this file stops compiling.
 */
import type { paths } from './schema.js';

type Login = paths['/api/auth/login']['post'];
type CreateEntry = paths['/api/fishinglog/entries']['post'];
type GetEntry = paths['/api/fishinglog/entries/{id}']['get'];

export type LoginBody = Login['requestBody']['content']['application/json'];
export type Tokens = Login['responses'][200]['content']['application/json'];
export type EntryInput = CreateEntry['requestBody']['content']['application/json'];
export type Entry = GetEntry['responses'][200]['content']['application/json'];
export type Problem = GetEntry['responses'][404]['content']['application/problem+json'];

async function call<T>(base: string, method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const send = () =>
    fetch(new URL(path, base), {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  // A connection reset before any answer (a kept-alive socket closed as it was reused) is retried once.
  const response = await send().catch(() => send());
  if (!response.ok) {
    const problem = (await response.json()) as Problem;
    throw new Error(`${method} ${path}: ${problem.status} ${problem.code}: ${problem.detail}`);
  }
  return (await response.json()) as T;
}

export async function logAndReadBack(base: string, credentials: LoginBody): Promise<{ created: Entry; read: Entry }> {
  const tokens = await call<Tokens>(base, 'POST', '/api/auth/login', credentials);
  const input: EntryInput = {
    title: 'Evening bite on Mille Lacs',
    occurredAt: '2026-06-01T19:30:00Z',
    timeZone: 'America/Chicago',
    visibility: 'Friends',
    location: { latitude: 46.2, longitude: -93.65, waterBody: 'Mille Lacs Lake', stateCode: 'US-MN' },
  };
  const created = await call<Entry>(base, 'POST', '/api/fishinglog/entries', input, tokens.id_token);
  const path: `/api/fishinglog/entries/${string}` = `/api/fishinglog/entries/${created.id}`;
  const read = await call<Entry>(base, 'GET', path, undefined, tokens.id_token);
  return { created, read };
}
