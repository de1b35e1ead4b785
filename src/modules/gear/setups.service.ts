import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { uuidv7 } from '../../core/db/ids.js';
import { allows, authorize, isOwner } from '../../core/access/policy.js';
import { setupPolicy } from '../../core/access/policies/setups.js';
import type { DbOrTx } from '../../core/db/client.js';
import { clientIdOf, replayOf } from '../../core/http/client-ids.js';
import { preconditionFailed, type Precondition } from '../../core/http/conditional.js';
import { applyChange, type Change } from '../../core/http/merge-patch.js';
import type { Page } from '../../core/http/pagination.js';
import type { GearKind } from './gear.kinds.js';
import { catalogItemsById, catalogItemStatus } from './gear.service.js';
import { SetupErrors } from './setups.errors.js';
import * as repo from './setups.repository.js';
import { SetupBody, type SetupCreateInput, type SetupInput } from './setups.schemas.js';
import type { SetupRow } from './setups.tables.js';

/**
 * A user's gear setups: catalog rod, reel, line and lures. Only the owner sees or changes a setup
 * (403 for others). A referenced item must exist, be of the field's kind and be selectable
 * (item and brand active): else a 400 naming the field. Keeping an item that has since been
 * deactivated is allowed.
 */

const SLOTS = [
  ['rodId', 'rod'],
  ['reelId', 'reel'],
  ['lineId', 'line'],
] as const satisfies ReadonlyArray<readonly [keyof SetupInput, GearKind]>;

/** Full views of setups with their catalog items: three queries for a whole page. */
async function setupViews(deps: ServiceDeps<DbOrTx>, rows: SetupRow[]) {
  const { db } = deps;
  const lures = await repo.setupLures(db, rows.map((r) => r.id));
  const itemIds = [...rows.flatMap((r) => [r.rodId, r.reelId, r.lineId]), ...lures.map((l) => l.lureId)].filter((id): id is string => id !== null);
  const items = await catalogItemsById(deps, itemIds);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    technique: r.technique,
    notes: r.notes,
    rod: r.rodId ? (items.get(r.rodId) ?? null) : null,
    reel: r.reelId ? (items.get(r.reelId) ?? null) : null,
    line: r.lineId ? (items.get(r.lineId) ?? null) : null,
    lures: lures.filter((l) => l.setupId === r.id).flatMap((l) => items.get(l.lureId) ?? []),
    version: r.version,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }));
}

/** Checks the catalog references of a body; `current` ones may stay even when deactivated. */
async function checkReferences(deps: ServiceDeps<DbOrTx>, input: SetupInput, current?: { ids: Set<string> }) {
  const lureIds = input.lureIds ?? [];
  const wanted: Array<{ pointer: string; id: string; kind: GearKind }> = [
    ...SLOTS.flatMap(([field, kind]) => (input[field] ? [{ pointer: `/${field}`, id: input[field] as string, kind }] : [])),
    ...lureIds.map((id, index) => ({ pointer: `/lureIds/${index}`, id, kind: 'lure' as const })),
  ];
  const status = await catalogItemStatus(deps, wanted.map((w) => w.id));
  for (const w of wanted) checkCatalogItem(status.get(w.id), w, current?.ids.has(w.id) ?? false);
}

/**
 * The rule of a catalog reference, given the items' status (`catalogItemStatus`, one statement for a whole batch): a 400
 * naming `wanted.pointer` unless the item exists, is of the field's kind and is selectable (`kept`: one the record had).
 */
export function checkCatalogItem(item: { kind: GearKind; selectable: boolean } | undefined, wanted: { pointer: string; id: string; kind: GearKind }, kept = false): void {
  if (!item) throw SetupErrors.badItem(wanted.pointer, wanted.id, wanted.kind, { missing: true });
  if (item.kind !== wanted.kind) throw SetupErrors.badItem(wanted.pointer, wanted.id, wanted.kind, { kind: item.kind });
  if (!item.selectable && !kept) throw SetupErrors.badItem(wanted.pointer, wanted.id, wanted.kind, { inactive: true });
}

function values(input: SetupInput) {
  return {
    name: input.name,
    rodId: input.rodId ?? null,
    reelId: input.reelId ?? null,
    lineId: input.lineId ?? null,
    technique: input.technique ?? null,
    notes: input.notes ?? null,
  };
}

async function ownSetup(deps: ServiceDeps<DbOrTx>, ownerId: string, id: string, action: 'read' | 'update' | 'delete' = 'read'): Promise<SetupRow> {
  const { db } = deps;
  const row = action === 'read' ? await repo.findSetup(db, id) : await repo.lockSetup(db, id);
  return authorize(setupPolicy, ownerId, action, row, deps, () => SetupErrors.notFound(id));
}

export async function listSetups(deps: ServiceDeps, ownerId: string, page: Page) {
  const { db } = deps;
  const { items, total } = await repo.listSetups(db, ownerId, page);
  return { items: await setupViews(deps, items), total };
}

export async function getSetup(deps: ServiceDeps, ownerId: string, id: string) {
  const [view] = await setupViews(deps, [await ownSetup(deps, ownerId, id)]);
  return view!;
}

/** A new setup (`created`), or the one a retried create with the client's `id` made before (409 for another's or another body). */
export async function createSetup(deps: ServiceDeps, ownerId: string, input: SetupCreateInput) {
  const { db } = deps;
  const client = clientIdOf(input);
  const { id: _id, ...body } = input;
  return db.transaction(async (tx) => {
    await checkReferences(inTx(deps, tx), body);
    const inserted = await repo.insertSetup(tx, { id: client?.id ?? uuidv7(), ownerId, createDigest: client?.digest ?? null, ...values(body) });
    const row = inserted ?? replayOf(client!, await repo.findSetup(tx, client!.id), (existing) => isOwner(ownerId, existing), 'gear setup');
    if (inserted) await repo.setLures(tx, row.id, body.lureIds ?? []);
    const [view] = await setupViews(inTx(deps, tx), [row]);
    return { created: inserted !== undefined, setup: view! };
  });
}

/** A setup as a PUT body: the one mapping of a setup's columns to its body (a merge patch's; a pushed record's, sync.records.ts). */
export function setupAsInput(row: SetupRow, lureIds: string[]): SetupInput {
  return { name: row.name, rodId: row.rodId, reelId: row.reelId, lineId: row.lineId, lureIds, technique: row.technique, notes: row.notes };
}

/** PUT (replace) or PATCH (merge patch) of a setup; with If-Match, only of that version (412 otherwise). */
export async function updateSetup(deps: ServiceDeps, ownerId: string, id: string, change: Change<SetupInput>, precondition?: Precondition) {
  const { db } = deps;
  return db.transaction(async (tx) => {
    const current = await ownSetup(inTx(deps, tx), ownerId, id, 'update');
    const currentLures = await repo.setupLures(tx, [id]);
    const input = applyChange(change, SetupBody, () => setupAsInput(current, currentLures.map((l) => l.lureId)));
    const kept = new Set([current.rodId, current.reelId, current.lineId, ...currentLures.map((l) => l.lureId)].filter((v): v is string => v !== null));
    await checkReferences(inTx(deps, tx), input, { ids: kept });
    const row = await repo.updateSetup(tx, id, values(input), precondition);
    if (!row) throw preconditionFailed('gear setup', current.version);
    await repo.setLures(tx, id, input.lureIds ?? []);
    const [view] = await setupViews(inTx(deps, tx), [row]);
    return view!;
  });
}

/** Deletes a setup; catches logged with it keep their data and lose the link (ON DELETE SET NULL). */
export async function deleteSetup(deps: ServiceDeps, ownerId: string, id: string, precondition?: Precondition): Promise<void> {
  const { db } = deps;
  await db.transaction(async (tx) => {
    const current = await ownSetup(inTx(deps, tx), ownerId, id, 'delete');
    if (!(await repo.deleteSetup(tx, id, precondition))) throw preconditionFailed('gear setup', current.version);
  });
}

/**
 * For modules that link records to a gear setup (catches): throws a 400 naming `field` unless
 * `setupId` is one of `ownerId`'s setups.
 */
export async function assertOwnGearSetup(deps: ServiceDeps<DbOrTx>, ownerId: string, setupId: string, field: string): Promise<void> {
  assertUsableGearSetup(await usableGearSetups(deps, ownerId, [setupId]), setupId, field);
}

/** Which of these setups `ownerId` may link a record to (the setup policy's `use`), in one statement for any number. */
export async function usableGearSetups(deps: ServiceDeps<DbOrTx>, ownerId: string, setupIds: readonly string[]): Promise<Set<string>> {
  const { db } = deps;
  const usable = new Set<string>();
  for (const row of await repo.findSetups(db, setupIds)) if (await allows(setupPolicy, ownerId, 'use', row, deps)) usable.add(row.id);
  return usable;
}

/** The 400 naming `field` unless `setupId` is one of `usable` (`usableGearSetups`). */
export function assertUsableGearSetup(usable: ReadonlySet<string>, setupId: string, field: string): void {
  if (!usable.has(setupId)) throw SetupErrors.notYourSetup(field, setupId);
}
