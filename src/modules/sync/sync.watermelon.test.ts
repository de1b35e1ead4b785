import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database, Model, appSchema, tableSchema, type TableName } from '@nozbe/watermelondb/index.js';
import LokiModule from '@nozbe/watermelondb/adapters/lokijs/index.js';
import { synchronize, type SyncDatabaseChangeSet } from '@nozbe/watermelondb/sync/index.js';
import { setGenerator } from '@nozbe/watermelondb/utils/common/randomId/index.js';
import loggerModule from '@nozbe/watermelondb/utils/common/logger/index.js';
import { createFishlogClient, ok } from '@fishlog/client';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { createUser, PIKE, WALLEYE, type TestUser } from '../../../test/factories.js';
import { serviceDeps } from '../../core/service-deps.js';
import { purgeTombstones } from './sync.service.js';

/**
 * The real WatermelonDB (0.28, its LokiJS adapter in memory, in Node) syncing through `synchronize()`
 * with two small functions that call the typed client (@fishlog/client), against the test app. The
 * models are plain classes without decorators (no Babel here): the test reads and writes raw columns.
 */

// The CommonJS build's default export, as Node's ESM loader or Vite's interop hands it over.
const LokiJSAdapter = ((LokiModule as unknown as { default?: unknown }).default ?? LokiModule) as typeof LokiModule.default;
// Its console lines ([🍉] Loki set-up) are not the test's.
(((loggerModule as unknown as { default?: unknown }).default ?? loggerModule) as typeof loggerModule.default).silence();
// Records made on the device get UUIDs, the ids the server keeps.
setGenerator(() => randomUUID());

const optional = (name: string, type: 'string' | 'number' | 'boolean') => ({ name, type, isOptional: true });
const stamps = [optional('version', 'number'), { name: 'created_at', type: 'number' as const }, { name: 'updated_at', type: 'number' as const }];
const SCHEMA = appSchema({
  version: 1,
  tables: [
    tableSchema({
      name: 'sessions',
      columns: [
        { name: 'started_at', type: 'number' },
        optional('ended_at', 'number'),
        ...['time_zone', 'water_body', 'state_code', 'participants', 'notes', 'weather_summary', 'water_summary'].map((c) => optional(c, 'string')),
        optional('latitude', 'number'),
        optional('longitude', 'number'),
        ...stamps,
      ],
    }),
    tableSchema({
      name: 'entries',
      columns: [
        { name: 'title', type: 'string' },
        { name: 'occurred_at', type: 'number' },
        { name: 'time_zone', type: 'string' },
        { name: 'session_id', type: 'string', isOptional: true, isIndexed: true },
        ...['water_body', 'state_code', 'sky', 'wind_direction', 'moon_phase', 'water_clarity', 'method', 'notes', 'visibility'].map((c) => optional(c, 'string')),
        ...['latitude', 'longitude', 'air_temperature_c', 'wind_speed_kmh', 'pressure_hpa', 'water_temperature_c', 'water_depth_m'].map((c) => optional(c, 'number')),
        { name: 'share_exact_location', type: 'boolean' },
        ...stamps,
      ],
    }),
    tableSchema({
      name: 'catches',
      columns: [
        { name: 'entry_id', type: 'string', isIndexed: true },
        { name: 'species_id', type: 'string' },
        { name: 'released', type: 'boolean' },
        { name: 'count', type: 'number' },
        { name: 'caught_at', type: 'number' },
        ...['bait', 'lure', 'lure_item_id', 'gear_setup_id', 'photo_urls', 'notes'].map((c) => optional(c, 'string')),
        ...['length_cm', 'weight_kg', 'latitude', 'longitude'].map((c) => optional(c, 'number')),
        ...stamps,
      ],
    }),
    tableSchema({ name: 'species', columns: [{ name: 'common_name', type: 'string' }, { name: 'scientific_name', type: 'string' }, optional('is_active', 'boolean')] }),
  ],
});
const TABLES = new Set(Object.keys(SCHEMA.tables));

class SessionRecord extends Model {
  static override table = 'sessions';
}
class EntryRecord extends Model {
  static override table = 'entries';
}
class CatchRecord extends Model {
  static override table = 'catches';
}
class SpeciesRecord extends Model {
  static override table = 'species';
}

type Values = Record<string, string | number | boolean | null>;
const rawOf = (record: Model) => record._raw as unknown as Values;

let t: TestApp;
let jo: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  jo = await createUser(t);
});
afterAll(async () => {
  await t?.close();
});

/** fetch() answered by the test app (no socket); `loseNextAnswer` makes the next push reach the server and its answer get lost. */
function appFetch(control: { loseNextAnswer: boolean }) {
  return async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const payload = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const res = await t.app.inject({ method: request.method as 'GET', url: url.pathname + url.search, headers: Object.fromEntries(request.headers), ...(payload ? { payload } : {}) });
    if (control.loseNextAnswer && url.pathname === '/api/sync/push') {
      control.loseNextAnswer = false;
      throw new TypeError('fetch failed: the connection dropped before the answer');
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers.set(name, String(value));
    return new Response(res.statusCode === 204 || res.statusCode === 304 ? null : res.rawPayload, { status: res.statusCode, headers });
  };
}

interface Device {
  database: Database;
  control: { loseNextAnswer: boolean };
  /** Runs between the pull and the push of the next sync (another device's sync, to make this one's copy stale). */
  beforePush: (() => Promise<void>) | undefined;
  /** What the last pull answered (its strategy). */
  lastPull: { experimentalStrategy?: string | undefined; timestamp: number } | undefined;
  sync(): Promise<void>;
  catches(): Promise<Values[]>;
  write<T>(fn: () => Promise<T>): Promise<T>;
}

async function device(user: TestUser): Promise<Device> {
  const adapter = new LokiJSAdapter({ schema: SCHEMA, useWebWorker: false, useIncrementalIndexedDB: false, dbName: randomUUID() });
  const database = new Database({ adapter, modelClasses: [SessionRecord, EntryRecord, CatchRecord, SpeciesRecord] });
  const control = { loseNextAnswer: false };
  const fishlog = createFishlogClient({ baseUrl: 'http://fishlog.test', fetch: appFetch(control) });
  await ok(fishlog.auth.login(user.username, user.password));
  const self: Device = {
    database,
    control,
    beforePush: undefined,
    lastPull: undefined,
    // The two functions an app writes (README "Offline apps"): the typed client's pull and push.
    sync: () =>
      synchronize({
        database,
        sendCreatedAsUpdated: true,
        pullChanges: async ({ lastPulledAt }) => {
          const pulled = await ok(fishlog.GET('/api/sync/pull', { params: { query: { lastPulledAt: lastPulledAt ? String(lastPulledAt) : 'null' } } }));
          self.lastPull = { experimentalStrategy: pulled.experimentalStrategy, timestamp: pulled.timestamp };
          // The tables this app keeps (the server also sends boats, setups, friends …).
          const changes = Object.fromEntries(Object.entries(pulled.changes).filter(([table]) => TABLES.has(table))) as unknown as SyncDatabaseChangeSet;
          return { changes, timestamp: pulled.timestamp, ...(pulled.experimentalStrategy ? { experimentalStrategy: pulled.experimentalStrategy } : {}) } as never;
        },
        pushChanges: async ({ changes, lastPulledAt }) => {
          await self.beforePush?.();
          await ok(fishlog.POST('/api/sync/push', { params: { query: { lastPulledAt: String(lastPulledAt) } }, body: { changes: changes as never } }));
        },
      }),
    catches: async () => (await database.get<CatchRecord>('catches').query().fetch()).map(rawOf).sort((a, b) => String(a.id).localeCompare(String(b.id))),
    write: (fn) => database.write(fn),
  };
  return self;
}

const create = (d: Device, table: string, values: Values) =>
  d.database.get(table as TableName<Model>).create((record) => {
    for (const [column, value] of Object.entries(values)) record._setRaw(column, value);
  });
const find = (d: Device, table: string, id: string) => d.database.get(table as TableName<Model>).find(id);
const change = async (d: Device, table: string, id: string, values: Values) => {
  const record = await find(d, table, id);
  await d.write(() =>
    record.update((r) => {
      for (const [column, value] of Object.entries(values)) r._setRaw(column, value);
    }),
  );
};
const rest = (url: string) => t.app.inject({ method: 'GET', url, headers: jo.headers });
/** What both devices and REST must agree on for a catch. */
const comparable = (raw: Values) => ({ id: raw.id, entry_id: raw.entry_id, species_id: raw.species_id, length_cm: raw.length_cm, weight_kg: raw.weight_kg, bait: raw.bait, notes: raw.notes, released: raw.released, version: raw.version });
const fromRest = (c: { id: string; entryId: string; species: { id: string }; lengthCm: number | null; weightKg: number | null; bait: string | null; notes: string | null; released: boolean; version: number }) => ({
  id: c.id,
  entry_id: c.entryId,
  species_id: c.species.id,
  length_cm: c.lengthCm,
  weight_kg: c.weightKg,
  bait: c.bait,
  notes: c.notes,
  released: c.released,
  version: c.version,
});

describe('WatermelonDB devices syncing through /api/sync', () => {
  it('A logs a trip offline, B pulls it, both edit one catch in either order and end equal, deletes reach the other, retries and refusals write nothing twice or at all, an old device re-syncs fully', async () => {
    const a = await device(jo);
    const b = await device(jo);
    const at = Date.parse('2026-06-01T05:00:00Z');

    // 1. A, offline: a session, an entry in it and three catches; then a signal, one sync.
    const { session, entry, caught } = await a.write(async () => {
      const session = await create(a, 'sessions', { started_at: at, time_zone: 'America/Chicago', water_body: 'Mille Lacs', participants: '["Sam"]' });
      const entry = await create(a, 'entries', { title: 'Evening bite', occurred_at: at, time_zone: 'America/Chicago', session_id: session.id, visibility: 'Friends', share_exact_location: false, sky: 'PartlyCloudy' });
      const caught = [];
      for (let i = 0; i < 3; i++) {
        caught.push(await create(a, 'catches', { entry_id: entry.id, species_id: WALLEYE, released: true, count: 1, caught_at: at + i * 60_000, length_cm: 40 + i, photo_urls: '[]' }));
      }
      return { session, entry, caught };
    });
    await a.sync();
    const logged = (await rest(`/api/fishinglog/entries/${entry.id}`)).json();
    expect(logged).toMatchObject({ id: entry.id, sessionId: session.id, title: 'Evening bite', visibility: 'Friends', weather: { sky: 'PartlyCloudy' }, catchCount: 3 });
    expect(logged.catches.map((c: { id: string }) => c.id).sort()).toEqual(caught.map((c) => c.id).sort());
    expect((await rest(`/api/fishinglog/sessions/${session.id}`)).json()).toMatchObject({ participants: ['Sam'], entries: [{ id: entry.id }] });

    // 2. B pulls them (its first sync), and the species for its pickers.
    await b.sync();
    expect((await b.catches()).map((c) => c.id)).toEqual((await a.catches()).map((c) => c.id));
    expect(rawOf(await find(b, 'entries', entry.id))).toMatchObject({ title: 'Evening bite', session_id: session.id, _status: 'synced' });
    expect(rawOf(await find(b, 'species', WALLEYE))).toMatchObject({ common_name: 'Walleye' });

    // 3. Both edit different fields of one catch offline; A syncs first, then B, then A again: equal everywhere.
    const [first, second, third] = caught.map((c) => c.id) as [string, string, string];
    await change(a, 'catches', first, { weight_kg: 2.5 });
    await change(b, 'catches', first, { notes: 'Tagged, released at the drop-off' });
    await a.sync();
    await b.sync();
    await a.sync();
    // The other order on another catch: B first, then A, then B.
    await change(a, 'catches', second, { bait: 'Leech' });
    await change(b, 'catches', second, { length_cm: 55.5, species_id: PIKE });
    await b.sync();
    await a.sync();
    await b.sync();
    // A pulls back what it pushed (a device's copy has the new version once it pulls again).
    await a.sync();
    const restCatches = (await rest(`/api/fishinglog/entries/${entry.id}/catches`)).json().map(fromRest).sort((x: { id: string }, y: { id: string }) => x.id.localeCompare(y.id));
    expect((await a.catches()).map(comparable)).toEqual((await b.catches()).map(comparable));
    expect((await a.catches()).map(comparable)).toEqual(restCatches);
    expect(restCatches.find((c: { id: string }) => c.id === first)).toMatchObject({ weight_kg: 2.5, notes: 'Tagged, released at the drop-off' });
    expect(restCatches.find((c: { id: string }) => c.id === second)).toMatchObject({ bait: 'Leech', length_cm: 55.5, species_id: PIKE });

    // 4. B pushes between A's pull and A's push (A's copy is then stale): A's push is refused whole (409 sync.conflict); A syncs again and both end equal.
    await change(a, 'catches', third, { bait: 'Minnow' });
    await change(b, 'catches', third, { notes: 'Near the weed edge' });
    a.beforePush = async () => {
      a.beforePush = undefined;
      await b.sync();
    };
    const conflict = await a.sync().then(
      () => undefined,
      (error: unknown) => error as { status: number; code: string; detail: string },
    );
    expect(conflict).toMatchObject({ status: 409, code: 'sync.conflict' });
    expect(conflict!.detail).toContain(third);
    expect(rawOf(await find(a, 'catches', third))._status).toBe('updated');
    await a.sync();
    await b.sync();
    await a.sync();
    expect((await a.catches()).map(comparable)).toEqual((await b.catches()).map(comparable));
    expect(comparable(rawOf(await find(a, 'catches', third)))).toMatchObject({ bait: 'Minnow', notes: 'Near the weed edge' });

    // 5. B deletes a catch; A's next pull removes it; REST no longer has it.
    await b.write(async () => (await find(b, 'catches', third)).markAsDeleted());
    await b.sync();
    await a.sync();
    expect((await a.catches()).map((c) => c.id)).not.toContain(third);
    expect((await rest(`/api/fishinglog/entries/${entry.id}/catches/${third}`)).statusCode).toBe(404);

    // 6. A push whose answer is lost: the device pushes the same changes again, nothing is created twice.
    const late = await a.write(() => create(a, 'catches', { entry_id: entry.id, species_id: WALLEYE, released: false, count: 1, caught_at: at + 600_000, length_cm: 47, photo_urls: '[]' }));
    a.control.loseNextAnswer = true;
    await expect(a.sync()).rejects.toThrow();
    expect(rawOf(await find(a, 'catches', late.id))._status).toBe('created');
    await a.sync();
    expect(rawOf(await find(a, 'catches', late.id))._status).toBe('synced');
    const after = (await rest(`/api/fishinglog/entries/${entry.id}`)).json();
    expect(after.catchCount).toBe(3);
    expect(after.catches.filter((c: { id: string }) => c.id === late.id)).toHaveLength(1);

    // 7. A push with one invalid record (a title of 201 characters) writes nothing, and the problem names it.
    const bad = await a.write(async () => {
      const badEntry = await create(a, 'entries', { title: 'x'.repeat(201), occurred_at: at, time_zone: 'America/Chicago', share_exact_location: false });
      await create(a, 'catches', { entry_id: badEntry.id, species_id: WALLEYE, released: true, count: 1, caught_at: at, photo_urls: '[]' });
      return badEntry;
    });
    const refused = await a.sync().then(
      () => undefined,
      (error: unknown) => error as { status: number; code: string; detail: string; errors: { pointer: string }[] },
    );
    expect(refused).toMatchObject({ status: 400, code: 'request.validation_failed', errors: [{ pointer: '/changes/entries/created/0/title' }] });
    expect(refused!.detail).toContain(bad.id);
    expect((await rest(`/api/fishinglog/entries/${bad.id}`)).statusCode).toBe(404);
    await change(a, 'entries', bad.id, { title: 'Fixed title' });
    await a.sync();
    expect((await rest(`/api/fishinglog/entries/${bad.id}`)).json()).toMatchObject({ title: 'Fixed title', catchCount: 1 });

    // 8. B deletes a catch; its tombstone is purged (past the retention) before A pulls: A re-syncs fully and drops it too.
    await b.sync();
    await b.write(async () => (await find(b, 'catches', first)).markAsDeleted());
    await b.sync();
    expect(await purgeTombstones(serviceDeps(t), 90, new Date(Date.now() + 91 * 86_400_000))).toBeGreaterThanOrEqual(1);
    await a.sync();
    expect(a.lastPull?.experimentalStrategy).toBe('replacement');
    await b.sync();
    expect((await a.catches()).map((c) => c.id)).not.toContain(first);
    expect((await a.catches()).map(comparable)).toEqual((await b.catches()).map(comparable));
    const restIds = (await rest(`/api/fishinglog/entries/${entry.id}/catches`)).json().map((c: { id: string }) => c.id);
    const badIds = (await rest(`/api/fishinglog/entries/${bad.id}/catches`)).json().map((c: { id: string }) => c.id);
    expect([...restIds, ...badIds].sort()).toEqual((await a.catches()).map((c) => c.id));
  });
});
