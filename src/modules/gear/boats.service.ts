import { inTx, type ServiceDeps } from '../../core/service-deps.js';
import { uuidv7 } from '../../core/db/ids.js';
import { authorize, isOwner } from '../../core/access/policy.js';
import { boatPolicy } from '../../core/access/policies/boats.js';
import type { DbOrTx } from '../../core/db/client.js';
import { clientIdOf, replayOf } from '../../core/http/client-ids.js';
import { preconditionFailed, type Precondition } from '../../core/http/conditional.js';
import { applyChange, type Change } from '../../core/http/merge-patch.js';
import type { Page } from '../../core/http/pagination.js';
import { BoatErrors } from './boats.errors.js';
import * as repo from './boats.repository.js';
import { BoatBody, type BoatCreateInput, type BoatInput } from './boats.schemas.js';
import type { BoatRow } from './boats.tables.js';

/** A user's boats: only their owner sees or changes them (another user's boat is a 403). */

function boatView(row: BoatRow) {
  return {
    id: row.id,
    name: row.name,
    make: row.make,
    model: row.model,
    year: row.year,
    lengthCm: row.lengthCm,
    hullType: row.hullType,
    hullMaterial: row.hullMaterial,
    motor: row.motor,
    horsepower: row.horsepower,
    homeWater: row.homeWater,
    notes: row.notes,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The stored values of a body: PUT replaces, so an omitted optional field is null. */
function values(input: BoatInput) {
  const maxYear = new Date().getUTCFullYear() + 1;
  if (input.year != null && input.year > maxYear) throw BoatErrors.yearInFuture(maxYear);
  return {
    name: input.name,
    make: input.make ?? null,
    model: input.model ?? null,
    year: input.year ?? null,
    lengthCm: input.lengthCm ?? null,
    hullType: input.hullType ?? null,
    hullMaterial: input.hullMaterial ?? null,
    motor: input.motor ?? null,
    horsepower: input.horsepower ?? null,
    homeWater: input.homeWater ?? null,
    notes: input.notes ?? null,
  };
}

async function ownBoat(deps: ServiceDeps<DbOrTx>, ownerId: string, id: string, action: 'read' | 'update' | 'delete' = 'read'): Promise<BoatRow> {
  const { db } = deps;
  const row = action === 'read' ? await repo.findBoat(db, id) : await repo.lockBoat(db, id);
  return authorize(boatPolicy, ownerId, action, row, deps, () => BoatErrors.notFound(id));
}

/** A boat as a PUT body: the one mapping of a boat's columns to its body (a merge patch's; a pushed record's, sync.records.ts). */
export function boatAsInput(row: BoatRow): BoatInput {
  const { id: _id, ownerId: _owner, createdAt: _created, updatedAt: _updated, version: _version, createDigest: _digest, ...fields } = row;
  return fields as BoatInput;
}

export async function listBoats(deps: ServiceDeps, ownerId: string, page: Page) {
  const { db } = deps;
  const { items, total } = await repo.listBoats(db, ownerId, page);
  return { items: items.map(boatView), total };
}

export async function getBoat(deps: ServiceDeps, ownerId: string, id: string) {
  return boatView(await ownBoat(deps, ownerId, id));
}

/** A new boat (`created`), or the one a retried create with the client's `id` made before (409 for another's or another body). */
export async function createBoat(deps: ServiceDeps, ownerId: string, input: BoatCreateInput) {
  const { db } = deps;
  const client = clientIdOf(input);
  const { id: _id, ...body } = input;
  const row = await repo.insertBoat(db, { id: client?.id ?? uuidv7(), ownerId, createDigest: client?.digest ?? null, ...values(body) });
  if (row) return { created: true, boat: boatView(row) };
  return { created: false, boat: boatView(replayOf(client!, await repo.findBoat(db, client!.id), (existing) => isOwner(ownerId, existing), 'boat')) };
}

/** PUT (replace) or PATCH (merge patch) of a boat; with If-Match, only of that version (412 otherwise). */
export async function updateBoat(deps: ServiceDeps, ownerId: string, id: string, change: Change<BoatInput>, precondition?: Precondition) {
  const { db } = deps;
  return db.transaction(async (tx) => {
    const current = await ownBoat(inTx(deps, tx), ownerId, id, 'update');
    const updated = await repo.updateBoat(tx, id, values(applyChange(change, BoatBody, () => boatAsInput(current))), precondition);
    if (!updated) throw preconditionFailed('boat', current.version);
    return boatView(updated);
  });
}

export async function deleteBoat(deps: ServiceDeps, ownerId: string, id: string, precondition?: Precondition): Promise<void> {
  const { db } = deps;
  await db.transaction(async (tx) => {
    const current = await ownBoat(inTx(deps, tx), ownerId, id, 'delete');
    if (!(await repo.deleteBoat(tx, id, precondition))) throw preconditionFailed('boat', current.version);
  });
}
