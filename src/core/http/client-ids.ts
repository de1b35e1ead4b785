import { createHash } from 'node:crypto';
import { Type, type TObject, type TProperties } from 'typebox';
import { AppError } from './problem.js';

/**
 * Client-generated ids (issue 45: offline apps make a record's UUID on the device), once for every
 * module whose create takes an `id`:
 * - `clientIdOf(body, scope)`: the id the client chose, with the digest of its request (the body,
 *   canonical JSON, and the path's own ids in `scope`), stored in the row's `createDigest`
 *   (`clientCreated()` of core/db/columns.ts); undefined when the client sent no id;
 * - the repository inserts with `ON CONFLICT (id) DO NOTHING`; when nothing was inserted,
 *   `replayOf` decides on the existing row: the same owner and the same request is a retry, and is
 *   answered with the record as it is now (200, nothing created twice); anything else is a 409
 *   `request.id_conflict`.
 */

export interface ClientId {
  id: string;
  digest: string;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
  );
}

/** The client's id of a create body and the digest of the request (body and `scope`, e.g. the entry of a catch). */
export function clientIdOf(body: { id?: string | undefined }, scope: Record<string, string> = {}): ClientId | undefined {
  if (body.id === undefined) return undefined;
  const digest = createHash('sha256')
    .update(JSON.stringify(canonical({ body, scope })))
    .digest('base64url');
  return { id: body.id, digest };
}

/**
 * After an insert that found the id taken: the existing record when it was created by this owner
 * with this very request (a retry), else a 409 naming the id. `isOwn` is the module's policy answer.
 */
export function replayOf<T extends { createDigest: string | null }>(client: ClientId, existing: T | undefined, isOwn: (row: T) => boolean, what: string): T {
  if (existing && existing.createDigest === client.digest && isOwn(existing)) return existing;
  throw new AppError(
    409,
    'request.id_conflict',
    `The id ${client.id} is taken by another ${what} (or was created with a different request). Send a create with a new UUID; a retry of a create must send the same body with its id.`,
  );
}

const CLIENT_ID_DESCRIPTION =
  'Optional: the record’s id, a UUID made by the client (an offline app makes it on the device). The same create sent again with that id and the same body ' +
  'answers 200 with the record (nothing is created twice); that id with another body or by another user is a 409 `request.id_conflict`. Without it the server chooses the id.';

/** A create body: the record's body with the optional client-chosen `id`. */
export function withClientId<P extends TProperties>(schema: TObject<P>) {
  const { properties: _p, required: _r, type: _t, ...options } = schema as unknown as Record<string, unknown>;
  return Type.Object({ id: Type.Optional(Type.String({ format: 'uuid', description: CLIENT_ID_DESCRIPTION, examples: ['0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21'] })), ...schema.properties }, { ...options, additionalProperties: false });
}
