import { recordAudit, type AuditContext } from '../audit/audit.js';
import type { DbOrTx } from '../db/client.js';
import { inTx, type ServiceDeps } from '../service-deps.js';
import { featureWindow, type FeatureInput } from '../db/featured.js';
import type { AppError } from '../http/problem.js';

/**
 * One administrative action on a record (verify, correct, review, feature …), the same way for
 * every module: in one transaction, the record is locked (404 when missing), the action computes
 * the changed columns from it (throwing its refusals, e.g. 409 when already so), they are written,
 * the audit entry records the action, the reason and the changed fields before and after, a
 * follow-up runs in the same transaction (a notification), and the answer is the record's view.
 * The record's accessors have the names of `core/admin/lifecycle`'s, so a module's lifecycle
 * object serves both (`{ ...lifecycle, write }`).
 */
export interface AdminRecord<Row extends object, View> {
  /** The row, locked for the transaction; undefined when it does not exist. */
  lock(tx: DbOrTx, id: string): Promise<Row | undefined>;
  /** Writes the changed columns. */
  write(tx: DbOrTx, id: string, values: Partial<Row>): Promise<unknown>;
  /** The record's view after the change (`deps.db`: the change's transaction). */
  view(deps: ServiceDeps<DbOrTx>, id: string): Promise<View>;
  notFound(id: string): AppError;
  audit: { targetType: string };
}

export async function adminChange<Row extends object, View>(
  deps: ServiceDeps,
  context: AuditContext,
  record: AdminRecord<Row, View>,
  id: string,
  action: string,
  reason: string | null,
  change: (row: Row) => Partial<Row>,
  then?: (tx: DbOrTx, row: Row) => Promise<unknown>,
): Promise<View> {
  return deps.db.transaction(async (tx) => {
    const row = await record.lock(tx, id);
    if (!row) throw record.notFound(id);
    const values = change(row);
    await record.write(tx, id, values);
    const before = Object.fromEntries(Object.keys(values).map((key) => [key, row[key as keyof Row]]));
    await recordAudit(inTx(deps, tx), context, { action, targetType: record.audit.targetType, targetId: id, reason, before, after: values });
    await then?.(tx, row);
    return record.view(inTx(deps, tx), id);
  });
}

/**
 * Features the record for a window (`input`: 400 when it ends before it starts) or unfeatures it
 * (`null`): the actions `<noun>.featured` and `<noun>.unfeatured`, with the input's reason.
 */
export function featureChange<Row extends { featuredFrom: Date | null; featuredUntil: Date | null }, View>(
  deps: ServiceDeps,
  context: AuditContext,
  record: AdminRecord<Row, View>,
  id: string,
  noun: string,
  input: FeatureInput | null,
  now = new Date(),
): Promise<View> {
  const window = input ? featureWindow(input, now) : { featuredFrom: null, featuredUntil: null };
  return adminChange(deps, context, record, id, input ? `${noun}.featured` : `${noun}.unfeatured`, input?.reason ?? null, () => window as Partial<Row>);
}
