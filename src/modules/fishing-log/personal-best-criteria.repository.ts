import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../core/db/client.js';
import { uuidv7 } from '../../core/db/ids.js';
import { fishSpecies } from '../species/index.js';
import type { PbFilter } from './personal-bests.repository.js';
import { pbCriteria, personalBests, type PbCriterionRow } from './personal-bests.tables.js';

/** The SQL of an angler's personal-best criteria (what counts as a best: species, measure, water, state, released only). */


export async function countCriteria(tx: DbOrTx, ownerId: string): Promise<number> {
  const [row] = await tx.select({ n: sql<number>`count(*)::int` }).from(pbCriteria).where(eq(pbCriteria.ownerId, ownerId));
  return row?.n ?? 0;
}

export type NewCriterion = Pick<PbCriterionRow, 'ownerId' | 'speciesId' | 'measure' | 'waterBody' | 'stateCode' | 'releasedOnly'>;

/** Inserts the criterion; undefined when an identical one exists (unique index). */
export async function insertCriterion(tx: DbOrTx, criterion: NewCriterion): Promise<string | undefined> {
  const [row] = await tx
    .insert(pbCriteria)
    .values({ id: uuidv7(), ...criterion })
    .onConflictDoNothing()
    .returning({ id: pbCriteria.id });
  return row?.id;
}

/** The existing criterion identical to `criterion` (as the unique index compares them). */
export async function findIdentical(tx: DbOrTx, criterion: NewCriterion): Promise<string | undefined> {
  const [row] = await tx
    .select({ id: pbCriteria.id })
    .from(pbCriteria)
    .where(
      and(
        eq(pbCriteria.ownerId, criterion.ownerId),
        eq(pbCriteria.speciesId, criterion.speciesId),
        eq(pbCriteria.measure, criterion.measure),
        sql`coalesce(lower(${pbCriteria.waterBody}), '') = coalesce(lower(${criterion.waterBody}::text), '')`,
        sql`coalesce(${pbCriteria.stateCode}, '') = coalesce(${criterion.stateCode}::text, '')`,
        eq(pbCriteria.releasedOnly, criterion.releasedOnly),
      ),
    );
  return row?.id;
}

export async function findCriterion(db: DbOrTx, id: string): Promise<PbCriterionRow | undefined> {
  const [row] = await db.select().from(pbCriteria).where(eq(pbCriteria.id, id));
  return row;
}

export async function deleteCriterion(tx: DbOrTx, id: string): Promise<void> {
  await tx.delete(pbCriteria).where(eq(pbCriteria.id, id));
}

const best = alias(personalBests, 'best');

function criteriaQuery(db: DbOrTx) {
  return db
    .select({
      id: pbCriteria.id,
      measure: pbCriteria.measure,
      waterBody: pbCriteria.waterBody,
      stateCode: pbCriteria.stateCode,
      releasedOnly: pbCriteria.releasedOnly,
      createdAt: pbCriteria.createdAt,
      species: { id: fishSpecies.id, commonName: fishSpecies.commonName },
      best: { personalBestId: best.id, catchId: best.catchId, value: best.value, caughtAt: best.caughtAt, achievedAt: best.achievedAt },
    })
    .from(pbCriteria)
    .innerJoin(fishSpecies, eq(fishSpecies.id, pbCriteria.speciesId))
    .leftJoin(best, and(eq(best.criterionId, pbCriteria.id), eq(best.status, 'current'), isNotNull(best.catchId)));
}

export type CriterionView = Awaited<ReturnType<ReturnType<typeof criteriaQuery>['execute']>>[number];

/** The owner's criteria, newest first, each with its best in force. */
export async function listCriteria(db: DbOrTx, ownerId: string, filter: PbFilter, page: { limit: number; offset: number }) {
  const where = and(
    eq(pbCriteria.ownerId, ownerId),
    filter.speciesId ? eq(pbCriteria.speciesId, filter.speciesId) : undefined,
    filter.measure ? eq(pbCriteria.measure, filter.measure) : undefined,
  );
  const [items, [count]] = await Promise.all([
    criteriaQuery(db)
      .where(where)
      .orderBy(sql`${pbCriteria.createdAt} DESC NULLS LAST, ${pbCriteria.id} DESC NULLS LAST`)
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(pbCriteria).where(where),
  ]);
  return { items, total: count?.n ?? 0 };
}

export async function findCriterionView(db: DbOrTx, id: string): Promise<CriterionView | undefined> {
  const [row] = await criteriaQuery(db).where(eq(pbCriteria.id, id));
  return row;
}
