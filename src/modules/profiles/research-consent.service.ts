import type { ServiceDeps } from '../../core/service-deps.js';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import { researchConsents } from './profiles.tables.js';

/**
 * Research consent: the one source of truth for whether DNR research may read a user's log data
 * (`None` by default, `Anonymized`, `Identified`). An angler's own setting, kept by the profile
 * (which shows and edits it); the fishing log applies it to DNR reads and sets it through
 * /api/fishinglog/research-consent. Withdrawing it (back to None) applies to the next DNR read.
 */
export const CONSENT_LEVELS = ['None', 'Anonymized', 'Identified'] as const;
export type ConsentLevel = (typeof CONSENT_LEVELS)[number];

export interface ResearchConsent {
  level: ConsentLevel;
  /** When the current level was set; null while the user never chose. */
  givenAt: string | null;
}

export async function getResearchConsent(deps: ServiceDeps<DbOrTx>, userId: string): Promise<ResearchConsent> {
  const { db } = deps;
  const [row] = await db.select().from(researchConsents).where(eq(researchConsents.userId, userId));
  return row ? { level: row.level, givenAt: row.givenAt.toISOString() } : { level: 'None', givenAt: null };
}

export async function setResearchConsent(deps: ServiceDeps<DbOrTx>, userId: string, level: ConsentLevel): Promise<ResearchConsent> {
  const { db } = deps;
  const givenAt = new Date();
  const [row] = await db
    .insert(researchConsents)
    .values({ userId, level, givenAt })
    .onConflictDoUpdate({ target: researchConsents.userId, set: { level, givenAt } })
    .returning();
  return { level: row!.level, givenAt: row!.givenAt.toISOString() };
}
