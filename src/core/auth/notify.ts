import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';

/**
 * Every process caches who a user is (role, enabled, exists) for at most 60 s. A change to any
 * of that sends a notification on this channel inside the changing transaction, so every
 * server drops its cached entry as soon as the change commits.
 */
export const PRINCIPAL_CHANNEL = 'fishlog_principal';

/** `who`: the user's id or its identity-provider sub (every process's cache answers to both). */
export async function notifyPrincipalChanged(db: DbOrTx, who: string): Promise<void> {
  await db.execute(sql`SELECT pg_notify(${PRINCIPAL_CHANNEL}, ${who})`);
}
