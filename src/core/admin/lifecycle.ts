import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type TSchema } from 'typebox';
import type { Access } from '../access/access.js';
import { recordAudit, type AuditContext } from '../audit/audit.js';
import { auditContextOf } from '../audit/context.js';
import type { DbOrTx } from '../db/client.js';
import { inTx, type ServiceDeps } from '../service-deps.js';
import type { AppError } from '../http/problem.js';
import { errorResponses, IdParams } from '../http/schemas.js';

/**
 * Administrative removal is deactivation, never deletion. One helper for every admin-managed
 * entity (species, brands, gear items, moderation rules, and whatever comes next):
 *
 * - `setActive(db, context, lifecycle, id, active, reason)`: in one transaction, locks the row
 *   (`SELECT … FOR UPDATE`), answers 404 when it does not exist and 409 when it already is in the
 *   asked state, writes the `deactivation()` columns, records the audit entry and returns the
 *   entity's admin view (with its usage statistics: `lifecycle.view`).
 * - `lifecycleRoutes(app, options)`: `POST <base>/:id/deactivate` and `POST <base>/:id/reactivate`
 *   with a `{ reason }` body (required unless `reason: 'optional'`).
 */

/** The `deactivation()` columns of a row, as the lifecycle reads them. */
export interface LifecycleRow {
  readonly isActive: boolean;
}

/** The values written by a (de)activation. */
export interface LifecycleValues {
  isActive: boolean;
  deactivatedAt: Date | null;
  deactivatedBy: string | null;
  deactivationReason: string | null;
}

export interface Lifecycle<Row extends LifecycleRow, View> {
  /** The row, locked for the transaction; undefined when it does not exist. */
  lock(tx: DbOrTx, id: string): Promise<Row | undefined>;
  /** Writes the new state (plus whatever the entity stamps, e.g. `updatedBy`). */
  update(tx: DbOrTx, id: string, values: LifecycleValues, actorId: string | null): Promise<void>;
  /** The admin view after the change (`deps.db`: the change's transaction): the usage statistics hook. */
  view(deps: ServiceDeps<DbOrTx>, id: string): Promise<View>;
  /** Refusals: 404 for a missing row; 409 for a row already in the asked state. */
  notFound(id: string): AppError;
  alreadyActive(id: string): AppError;
  alreadyInactive(id: string): AppError;
  /** A further check of the locked row (e.g. a gear item of another kind), throwing its refusal. */
  check?(row: Row): void;
  /** Audit: target type and the actions of both directions. */
  audit: { targetType: string; deactivated: string; reactivated: string };
}

/** The columns of the new state: who deactivated, when and why; all cleared on reactivation. */
export function lifecycleValues(active: boolean, actorId: string | null, reason: string | null): LifecycleValues {
  return active
    ? { isActive: true, deactivatedAt: null, deactivatedBy: null, deactivationReason: null }
    : { isActive: false, deactivatedAt: new Date(), deactivatedBy: actorId, deactivationReason: reason };
}

export async function setActive<Row extends LifecycleRow, View>(
  deps: ServiceDeps,
  context: AuditContext,
  lifecycle: Lifecycle<Row, View>,
  id: string,
  active: boolean,
  reason: string | null | undefined,
): Promise<View> {
  return deps.db.transaction(async (tx) => {
    const current = await lifecycle.lock(tx, id);
    if (!current) throw lifecycle.notFound(id);
    lifecycle.check?.(current);
    if (current.isActive === active) throw active ? lifecycle.alreadyActive(id) : lifecycle.alreadyInactive(id);
    const actor = context.actor.userId ?? null;
    await lifecycle.update(tx, id, lifecycleValues(active, actor, reason ?? null), actor);
    await recordAudit(inTx(deps, tx), context, {
      action: active ? lifecycle.audit.reactivated : lifecycle.audit.deactivated,
      targetType: lifecycle.audit.targetType,
      targetId: id,
      reason: reason ?? null,
      before: { isActive: current.isActive },
      after: { isActive: active },
    });
    return lifecycle.view(inTx(deps, tx), id);
  });
}

const reasonText = Type.String({ minLength: 1, maxLength: 1000, description: 'Why (kept in the audit log)' });

/** The body of a deactivate/reactivate request. */
export const RequiredReasonBody = Type.Object({ reason: reasonText }, { additionalProperties: false, description: 'Why: required, kept in the audit log', examples: [{ reason: 'Superseded by a newer record' }] });
export const OptionalReasonBody = Type.Object(
  { reason: Type.Optional(Type.String({ maxLength: 1000, description: 'Why (kept in the audit log)' })) },
  { additionalProperties: false, description: 'Optional; an empty or absent body is fine' },
);

export interface LifecycleRoutesOptions {
  /** E.g. `/api/admin/brands`: the routes are `<base>/:id/deactivate` and `<base>/:id/reactivate`. */
  base: string;
  /** Route-level access, e.g. `{ permission: 'Brands.Manage' }`. */
  access: Access;
  tags: string[];
  /** The entity in prose, e.g. `brand`. */
  noun: string;
  /** The response schema of both routes (the admin view). */
  response: TSchema;
  /** What deactivation means for this entity (prepended to the 409 and audit note). */
  deactivationEffect: string;
  /** `required` (the default for new entities) or `optional` (kept where the API always had it so). */
  reason?: 'required' | 'optional';
  handler(request: FastifyRequest, id: string, active: boolean, reason: string | undefined): Promise<unknown>;
}

export function lifecycleRoutes(app: FastifyInstance, options: LifecycleRoutesOptions): void {
  const optional = options.reason === 'optional';
  const body = optional ? OptionalReasonBody : RequiredReasonBody;
  for (const active of [false, true]) {
    app.post(
      `${options.base}/:id/${active ? 'reactivate' : 'deactivate'}`,
      {
        config: { access: options.access },
        ...(optional
          ? {
              preValidation: async (request: { body: unknown }) => {
                request.body ??= {};
              },
            }
          : {}),
        schema: {
          tags: options.tags,
          operationId: `admin${active ? 'Reactivate' : 'Deactivate'}${pascalNoun(options.noun)}`,
          summary: active ? `Reactivate a deactivated ${options.noun}` : `Deactivate a ${options.noun} (soft delete)`,
          description: active
            ? `409 when the ${options.noun} is active. Audit-logged${optional ? '' : ' with the reason'}.`
            : `${options.deactivationEffect} 409 when already deactivated. Audit-logged${optional ? '' : ' with the reason'}.`,
          params: IdParams,
          body,
          response: { 200: options.response, ...errorResponses(404, 409) },
        },
      },
      async (request) => {
        const { id } = request.params as { id: string };
        return options.handler(request, id, active, (request.body as { reason?: string } | undefined)?.reason);
      },
    );
  }
}

export { auditContextOf };

/** `gear item` → `GearItem`, for operationIds. */
function pascalNoun(noun: string): string {
  return noun
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');
}
