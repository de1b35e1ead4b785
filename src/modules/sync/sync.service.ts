import { isOwner } from '../../core/access/policy.js';
import type { Db } from '../../core/db/client.js';
import { transaction } from '../../core/db/pipeline.js';
import { assertValidBody, type Change } from '../../core/http/merge-patch.js';
import { AppError, type FieldError } from '../../core/http/problem.js';
import type { Precondition } from '../../core/http/conditional.js';
import type { ServiceDeps } from '../../core/service-deps.js';
import { addCatches, createEntry, deleteCatch, deleteEntry, updateCatch, updateEntry } from '../fishing-log/entries.service.js';
import { createSession, deleteSession, updateSession } from '../fishing-log/sessions.service.js';
import { lockPersonalBests } from '../fishing-log/personal-bests.service.js';
import { createBoat, deleteBoat, updateBoat } from '../gear/boats.service.js';
import { createSetup, deleteSetup, updateSetup } from '../gear/setups.service.js';
import * as repo from './sync.repository.js';
import { BOATS, CATCHES, columnOfPointer, ENTRIES, FRIENDS, GEAR_SETUPS, PULLED, PUSHED, SESSIONS, TABLE_NAMES, type PullSpec, type PushSpec, type Raw } from './sync.records.js';
import { SyncErrors } from './sync.errors.js';

/**
 * Offline sync on WatermelonDB's protocol (issue 45). A pull answers the caller's records changed
 * since `lastPulledAt` (a transaction id: see migration 0051 and sync.tables.ts), deletions from the
 * tombstones, and `timestamp`, the cursor of its snapshot. A push applies a device's changes in one
 * transaction through the owning modules' services (their rules, their errors), refusing it whole
 * when one record is refused or was changed on the server since the device last saw it.
 */

export interface TableChanges {
  created: Raw[];
  updated: Raw[];
  deleted: string[];
}
export type Changes = Record<string, TableChanges>;

export interface PullResult {
  changes: Changes;
  timestamp: number;
  /** Set when the device's cursor is older than the tombstones kept: everything is sent, and what the device has that is not in it is deleted. */
  experimentalStrategy?: 'replacement';
  /** A paged pull with more to come: sync again with `next` (the `timestamp` of an unfinished page is the cursor the pull started from). */
  hasMore?: boolean;
  next?: string;
}

/** Tombstones are kept this many days unless the SyncTombstoneRetentionDays setting says otherwise. */
export const DEFAULT_TOMBSTONE_RETENTION_DAYS = 90;

const emptyChanges = (): Changes => Object.fromEntries(TABLE_NAMES.map((name) => [name, { created: [], updated: [], deleted: [] }]));

function asRaw(spec: PullSpec, row: Raw & { _xid?: string }): Raw {
  const { _xid: _omitted, ...out } = row;
  if (spec.json) for (const column of spec.json) out[column] = JSON.stringify(row[column] ?? []);
  return out as Raw;
}

/** A paged pull's continuation: the cursor it started from, the snapshot's cursor it will end with, and where it stopped. */
interface PageToken {
  since: string | null;
  cursor: string;
  at: repo.PagePosition;
}

const DIGITS = /^[0-9]{1,20}$/;

function decodeToken(token: string): PageToken {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as PageToken;
    const ok =
      (parsed.since === null || DIGITS.test(parsed.since)) &&
      DIGITS.test(parsed.cursor) &&
      Number.isInteger(parsed.at?.table) &&
      parsed.at.table >= 0 &&
      parsed.at.table < PULLED.length &&
      DIGITS.test(parsed.at.xid) &&
      /^[0-9a-f-]{36}$/.test(parsed.at.id);
    if (ok) return parsed;
  } catch {
    // answered below
  }
  throw SyncErrors.invalidPageToken();
}

const encodeToken = (token: PageToken) => Buffer.from(JSON.stringify(token)).toString('base64url');

/**
 * GET /api/sync/pull: the changes since `lastPulledAt` (null: everything), read in one REPEATABLE READ
 * snapshot. With `limit`, at most that many records of the caller's and the shared tables (a first
 * sync of a big log in pages): `hasMore` and `next` then say to sync again with `next`; the pages of
 * one pull end with the cursor of its first snapshot, so what changed while it was paged comes with
 * the next pull (rows changed meanwhile may come twice, none is skipped).
 */
export async function pull(deps: ServiceDeps, userId: string, lastPulledAt: number | null, page: { limit?: number | undefined; next?: string | undefined } = {}): Promise<PullResult> {
  const token = page.next === undefined ? undefined : decodeToken(page.next);
  // An incremental pull starts with its head alone: one statement, in its own snapshot, with no transaction around it
  // (no BEGIN, no COMMIT: one round trip). When no table changed (and no tombstone it needs was purged), that is the
  // whole pull, answered with that snapshot's cursor. Else the pull reads in a transaction, its head again included.
  if (!token && lastPulledAt !== null) {
    const head = await repo.pullHead(deps.db, userId, String(lastPulledAt));
    if (head.changed?.size === 0 && BigInt(lastPulledAt) > BigInt(head.purgedThrough)) return { changes: emptyChanges(), timestamp: Number(head.cursor) };
  }
  return deps.db.transaction(
    async (tx) => {
      let since = token ? (token.since ?? undefined) : lastPulledAt === null ? undefined : String(lastPulledAt);
      const head = token ? undefined : await repo.pullHead(tx, userId, since);
      const cursor = token?.cursor ?? head!.cursor;
      // The tables to read: all of them, or those the head's probes found changed.
      let changed = head?.changed;
      let replacement = false;
      if (head && since !== undefined && BigInt(since) <= BigInt(head.purgedThrough)) {
        // Deletions older than the tombstones kept may be missing: send everything (in one answer: a
        // replacement deletes what it does not list), the device drops the rest.
        replacement = true;
        since = undefined;
        changed = undefined;
      }
      const reads = (name: string) => !changed || changed.has(name);
      const limit = replacement ? undefined : page.limit;
      const changes = emptyChanges();
      let left = limit ?? Infinity;
      let stop: repo.PagePosition | undefined;
      const first = token?.at.table ?? 0;
      for (let index = first; index < PULLED.length && left > 0; index++) {
        const spec = PULLED[index]!;
        const after = token && index === first ? token.at : undefined;
        if (!reads(spec.name)) continue;
        const rows = await repo.changedRows(tx, spec, userId, since, limit === undefined ? undefined : { limit: left, after });
        // Always as updated: the server does not know what a device has (WatermelonDB's sendCreatedAsUpdated: true creates the missing ones).
        changes[spec.name]!.updated = rows.map((row) => asRaw(spec, row));
        left -= rows.length;
        const last = rows.at(-1);
        if (left === 0 && last) stop = { table: index, xid: last._xid, id: String(last.id) };
      }
      if (stop) return { changes, timestamp: since === undefined ? 1 : Number(since), hasMore: true, next: encodeToken({ since: since ?? null, cursor, at: stop }) };
      if (reads(FRIENDS)) changes[FRIENDS]!.updated = await repo.changedFriends(tx, userId, since);
      if (since !== undefined && reads('deleted')) {
        for (const { tableName, recordId } of await repo.tombstones(tx, userId, since)) changes[tableName]?.deleted.push(recordId);
      }
      return { changes, timestamp: Number(cursor), ...(replacement ? { experimentalStrategy: 'replacement' as const } : {}) };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

type Kind = 'created' | 'updated' | 'deleted';
type Body = Record<string, unknown>;

/** What became of a created record: made, the same create again (nothing done), or its id taken (the module's 409). */
type Created = 'created' | 'replayed' | { taken: AppError };

interface Ops {
  spec: PullSpec;
  /** The created records of a push, in order; the first one refused throws `refused(index, error)`. */
  createAll(d: ServiceDeps, userId: string, raws: Raw[], bodies: Body[], refused: (index: number, error: unknown) => unknown): Promise<Created[]>;
  update(d: ServiceDeps, userId: string, raw: Raw, body: Record<string, unknown>, precondition: Precondition | undefined, entryId: string | undefined): Promise<unknown>;
  remove(d: ServiceDeps, userId: string, id: string, entryId: string | undefined): Promise<void>;
}

const id = (raw: Raw) => String(raw.id);

/** Created records one by one through the module's single create (its REST POST). */
function oneByOne(create: (d: ServiceDeps, userId: string, input: never) => Promise<{ created: boolean }>): Ops['createAll'] {
  return async (d, u, raws, bodies, refused) => {
    const outcomes: Created[] = [];
    for (const [index, raw] of raws.entries()) {
      try {
        outcomes.push((await create(d, u, { ...bodies[index], id: id(raw) } as never)).created ? 'created' : 'replayed');
      } catch (error) {
        if (!(error instanceof AppError && error.code === 'request.id_conflict')) throw refused(index, error);
        outcomes.push({ taken: error });
      }
    }
    return outcomes;
  };
}

/** The operations of a record kind whose REST routes name it by its id alone (create, PUT, DELETE of one module's service). */
function byId(
  spec: PullSpec,
  create: (d: ServiceDeps, userId: string, input: never) => Promise<{ created: boolean }>,
  update: (d: ServiceDeps, userId: string, id: string, change: Change<never>, precondition?: Precondition) => Promise<unknown>,
  remove: (d: ServiceDeps, userId: string, id: string) => Promise<void>,
): Ops {
  return {
    spec,
    createAll: oneByOne(create),
    update: (d, u, raw, body, pre) => update(d, u, id(raw), { replace: body as never }, pre),
    remove: (d, u, recordId) => remove(d, u, recordId),
  };
}

const OPS: Record<string, Ops> = {
  sessions: byId(SESSIONS, createSession, updateSession, deleteSession),
  entries: byId(ENTRIES, createEntry, updateEntry, deleteEntry),
  // A catch's routes name its entry too: the pushed record's, or the server's for an existing catch.
  catches: {
    spec: CATCHES,
    // All of a push's new catches at once (the fishing log's batch create: a few statements for any number).
    createAll: async (d, u, raws, bodies, refused) => {
      const { outcomes } = await addCatches(d, u, raws.map((raw, index) => ({ entryId: String(raw.entry_id), input: { ...bodies[index], id: id(raw) } as never })), refused);
      return outcomes.map((outcome) => (outcome.kind === 'taken' ? { taken: outcome.error } : outcome.kind));
    },
    update: (d, u, raw, body, pre, entryId) => updateCatch(d, u, entryId ?? String(raw.entry_id), id(raw), { replace: body as never }, pre),
    remove: (d, u, recordId, entryId) => deleteCatch(d, u, entryId!, recordId),
  },
  boats: byId(BOATS, createBoat, updateBoat, deleteBoat),
  gear_setups: byId(GEAR_SETUPS, createSetup, updateSetup, deleteSetup),
};

/** A module's refusal of one record, as the push's problem: its status and code, the record and its fields named. */
function refusal(error: unknown, spec: PushSpec, kind: Kind, index: number, recordId: string): unknown {
  if (!(error instanceof AppError) || error.code.startsWith('sync.')) return error;
  const at = `/changes/${spec.name}/${kind}/${index}`;
  if (error.status === 412) return SyncErrors.conflict(spec.name, recordId, `${at}/version`, 'was changed on the server');
  const errors: FieldError[] = error.errors?.length
    ? error.errors.map((e) => ({ pointer: e.in === 'body' ? `${at}/${columnOfPointer(spec, e.pointer)}` : at, in: 'body', detail: e.detail }))
    : [{ pointer: at, in: 'body', detail: error.detail }];
  return SyncErrors.refused(error, spec.name, recordId, kind, errors);
}

export interface PushSummary {
  created: number;
  updated: number;
  deleted: number;
}

/**
 * POST /api/sync/push: the device's changes in one transaction. Creates and updates go parents
 * first (boats, setups, sessions, entries, catches), deletions children first; the created catches
 * go together through the fishing log's batch create (`addCatches`), the rest one by one. A created record
 * whose id exists already is the same create again (a retry after a lost answer: nothing happens)
 * or, when it is the caller's with other values, an update of it. An updated record must carry the
 * `version` the server has (else 409 `sync.conflict`: pull, then push again); one the server no
 * longer has is a conflict too (the pull deletes it on the device). A deleted record the server no
 * longer has is already deleted. Any refusal rolls the whole push back.
 */
export async function push(deps: ServiceDeps, userId: string, changes: Changes): Promise<PushSummary> {
  for (const [name, set] of Object.entries(changes)) {
    if (OPS[name]) continue;
    const kind = (['created', 'updated', 'deleted'] as const).find((k) => set[k].length > 0);
    if (kind) throw SyncErrors.readOnlyTable(name, `/changes/${name}/${kind}/0`);
  }
  const summary: PushSummary = { created: 0, updated: 0, deleted: 0 };
  await transaction(deps.db, async (tx) => {
    const d: ServiceDeps = { ...deps, db: tx as unknown as Db };
    await lockPersonalBests(d, userId);
    for (const spec of PUSHED) {
      const set = changes[spec.name];
      if (!set || set.created.length + set.updated.length === 0) continue;
      const ops = OPS[spec.name]!;
      const known = await repo.existing(tx, ops.spec, [...set.created, ...set.updated].map(id));
      const refusedCreate = (index: number, error: unknown) => refusal(error, spec, 'created', index, id(set.created[index]!));
      const bodies = set.created.map((raw, index) => {
        const body = spec.body(raw);
        try {
          assertValidBody(spec.createSchema, { ...body, id: raw.id });
        } catch (error) {
          throw refusedCreate(index, error);
        }
        return body;
      });
      const outcomes = await ops.createAll(d, userId, set.created, bodies, refusedCreate);
      for (const [index, outcome] of outcomes.entries()) {
        if (outcome === 'created') summary.created++;
        if (typeof outcome !== 'object') continue;
        const raw = set.created[index]!;
        const row = known.get(id(raw));
        // The caller's record made by an earlier push or POST with this id and other values: this is its update.
        if (!(row && isOwner(userId, row))) throw refusedCreate(index, outcome.taken);
        try {
          await ops.update(d, userId, raw, bodies[index]!, undefined, row.entryId);
        } catch (error) {
          throw refusedCreate(index, error);
        }
        summary.updated++;
      }
      for (const [index, raw] of set.updated.entries()) {
        const row = known.get(id(raw));
        if (!row) throw SyncErrors.conflict(spec.name, id(raw), `/changes/${spec.name}/updated/${index}`, 'was deleted on the server');
        const body = spec.body(raw);
        try {
          assertValidBody(spec.replaceSchema, body);
          const precondition: Precondition | undefined = typeof raw.version === 'number' ? { versions: [raw.version] } : undefined;
          await ops.update(d, userId, raw, body, precondition, row.entryId);
          summary.updated++;
        } catch (error) {
          throw refusal(error, spec, 'updated', index, id(raw));
        }
      }
    }
    for (const spec of [...PUSHED].reverse()) {
      const ids = changes[spec.name]?.deleted ?? [];
      if (ids.length === 0) continue;
      const ops = OPS[spec.name]!;
      const known = await repo.existing(tx, ops.spec, ids);
      for (const [index, recordId] of ids.entries()) {
        // Gone already (deleted on the server, or by an earlier try of this push): nothing to do. Children go first, so a
        // parent's deletion in this push has not taken them yet.
        const row = known.get(recordId);
        if (!row) continue;
        try {
          await ops.remove(d, userId, recordId, row.entryId);
          summary.deleted++;
        } catch (error) {
          throw refusal(error, spec, 'deleted', index, recordId);
        }
      }
    }
  });
  return summary;
}

/** The sync.tombstones job: deletes the tombstones older than the retention (days), moving the full-re-sync horizon past them. */
export async function purgeTombstones(deps: ServiceDeps, retentionDays: number, now = new Date()): Promise<number> {
  return repo.purgeTombstones(deps.db, new Date(now.getTime() - retentionDays * 86_400_000));
}
