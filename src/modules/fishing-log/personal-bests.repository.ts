import { isSelf } from '../../core/access/policy.js';
import { and, eq, inArray, isNotNull, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { alias, PgTransaction } from 'drizzle-orm/pg-core';
import { uuidv7 } from '../../core/db/ids.js';
import { visibleTo, type RelationshipProvider } from '../../core/access/visibility.js';
import type { DbOrTx } from '../../core/db/client.js';
import { insertOf, namedIdsStatement, namedStatement } from '../../core/db/prepared.js';
import { catches, logEntries } from './fishing-log.tables.js';
import { fishSpecies } from '../species/index.js';
import { pbCriteria, personalBests, type PersonalBestRow } from './personal-bests.tables.js';
import type { Measure } from './personal-bests.schemas.js';

/** Key of the per-user advisory lock that serialises personal-best changes ("PBES"). */
const LOCK_NAMESPACE = 0x50424553;

/** The expression (void) that takes the personal-best lock of the owner `owner` until the end of the transaction. */
export function ownerLockSql(owner: SQLWrapper): SQL {
  return sql`pg_advisory_xact_lock(${sql.raw(String(LOCK_NAMESPACE))}, hashtext(${owner}))`;
}

/** The owners whose lock a transaction holds already (it is held until the transaction ends). */
const lockedIn = new WeakMap<object, Set<string>>();

const lockStatement = namedStatement<unknown, { ownerId: string }>('personal_bests_lock', () => sql`SELECT ${ownerLockSql(sql.placeholder('ownerId'))}`);

/** Serialises every personal-best change of one user until the end of the transaction (one round trip per transaction and user). */
export async function lockOwner(tx: DbOrTx, ownerId: string): Promise<void> {
  if (lockedIn.get(tx)?.has(ownerId)) return;
  await lockStatement.rows(tx, { ownerId });
  ownerLocked(tx, ownerId);
}

/** Records that the transaction `tx` holds the lock of `ownerId` (taken by `ownerLockSql` in a statement of its own). */
export function ownerLocked(tx: DbOrTx, ownerId: string): void {
  if (!(tx instanceof PgTransaction)) return;
  const held = lockedIn.get(tx);
  if (held) held.add(ownerId);
  else lockedIn.set(tx, new Set([ownerId]));
}

// ---- evaluation -------------------------------------------------------------------------------

/** The catch's measure for criterion `cr`: weight or length (aliases cr, c, e). */
const measured = sql`(CASE WHEN cr.measure = 'weight' THEN c.weight_kg ELSE c.length_cm END)`;

/**
 * Whether catch `c` (of entry `e`) counts for criterion `cr`: same owner and species, one fish
 * (a record of several fish does not describe one fish's size), the measure given, and the
 * criterion's water body (case-insensitive), state and released-only filters.
 */
const qualifies = sql`c.owner_id = cr.owner_id AND c.species_id = cr.species_id AND c.count = 1
  AND ${measured} > 0
  AND (cr.water_body IS NULL OR lower(btrim(e.water_body)) = lower(cr.water_body))
  AND (cr.state_code IS NULL OR upper(btrim(e.state_code)) = cr.state_code)
  AND (NOT cr.released_only OR c.released)`;

export interface BestCatch {
  criterionId: string;
  catchId: string;
  caughtAt: Date;
  value: number;
}

/** Which criteria an evaluation covers: all of the owner's, or only these ids or species. */
export interface EvaluationScope {
  criterionIds?: readonly string[];
  speciesIds?: readonly string[];
}

const anyOf = (column: SQL, values: readonly string[]) => (values.length === 0 ? sql`false` : sql`${column} IN (${sql.join(values.map((v) => sql`${v}`), sql`, `)})`);

function inScope(scope: EvaluationScope | undefined): SQL {
  const parts: SQL[] = [];
  if (scope?.criterionIds) parts.push(anyOf(sql`cr.id`, scope.criterionIds));
  if (scope?.speciesIds) parts.push(anyOf(sql`cr.species_id`, scope.speciesIds));
  return parts.length === 0 ? sql`` : sql` AND ${sql.join(parts, sql` AND `)}`;
}

type BestRow = { criterion_id: string; catch_id: string; caught_at: Date | string; value: number };
const toBest = (r: BestRow): BestCatch => ({ criterionId: r.criterion_id, catchId: r.catch_id, caughtAt: new Date(r.caught_at), value: Number(r.value) });

/**
 * The best catch of each of the owner's criteria (in `scope`): the largest measure; a tie goes to
 * the earliest catch (then the smaller id). Served by catches (owner_id, species_id).
 */
export async function bestCatches(tx: DbOrTx, ownerId: string, scope?: EvaluationScope): Promise<Map<string, BestCatch>> {
  const result = await tx.execute<BestRow>(sql`
    SELECT DISTINCT ON (cr.id) cr.id AS criterion_id, c.id AS catch_id, c.caught_at, ${measured}::float8 AS value
    FROM ${pbCriteria} cr
    JOIN ${catches} c ON c.owner_id = cr.owner_id AND c.species_id = cr.species_id
    JOIN ${logEntries} e ON e.id = c.entry_id
    WHERE cr.owner_id = ${ownerId} AND ${qualifies}${inScope(scope)}
    ORDER BY cr.id, ${measured} DESC, c.caught_at ASC, c.id ASC`);
  return new Map(result.rows.map((r) => [r.criterion_id, toBest(r)]));
}

/** `catches` as `c` (the alias `qualifies` reads), for the ids' condition of a named statement. */
const c = alias(catches, 'c');

const criteriaOfCatchesStatement = namedIdsStatement<BestRow>(
  'personal_bests_criteria_of_catch',
  (ids) => sql`
    SELECT cr.id AS criterion_id, c.id AS catch_id, c.caught_at, ${measured}::float8 AS value
    FROM ${catches} c
    JOIN ${logEntries} e ON e.id = c.entry_id
    JOIN ${pbCriteria} cr ON cr.owner_id = c.owner_id AND cr.species_id = c.species_id
    WHERE ${ids(c.id)} AND ${qualifies}`,
);

/** The criteria each of these catches counts for, with its measure for each (primary-key lookups, no scan of the log). */
export async function criteriaOfCatches(tx: DbOrTx, catchIds: readonly string[]): Promise<BestCatch[]> {
  if (catchIds.length === 0) return [];
  return (await criteriaOfCatchesStatement.rows(tx, { ids: [...catchIds] })).map(toBest);
}

/** The criteria whose best in force is one of these catches. */
export async function criteriaHeldBy(tx: DbOrTx, catchIds: readonly string[]): Promise<string[]> {
  const rows = await tx
    .select({ criterionId: personalBests.criterionId })
    .from(personalBests)
    .where(and(inArray(personalBests.catchId, [...catchIds]), eq(personalBests.status, 'current')));
  return rows.map((r) => r.criterionId);
}

export interface CurrentRow {
  id: string;
  criterionId: string;
  catchId: string | null;
  value: number;
  caughtAt: Date;
  isUltimate: boolean;
  /** The measure of its catch now, null when the catch is gone or no longer qualifies. */
  catchValue: number | null;
}

type CurrentDbRow = { id: string; criterion_id: string; catch_id: string | null; value: number; caught_at: Date | string; is_ultimate: boolean; catch_value: number | null };

const currentRowsQuery = (ownerId: SQLWrapper | string, scope: SQL) => sql`
    SELECT pb.id, pb.criterion_id, pb.catch_id, pb.value::float8 AS value, pb.caught_at, pb.is_ultimate,
      (SELECT ${measured}::float8 FROM ${catches} c JOIN ${logEntries} e ON e.id = c.entry_id
        WHERE c.id = pb.catch_id AND ${qualifies}) AS catch_value
    FROM ${personalBests} pb
    JOIN ${pbCriteria} cr ON cr.id = pb.criterion_id
    WHERE pb.owner_id = ${ownerId} AND pb.status = 'current'${scope}`;

/** The rows in force of some criteria (what a new or changed catch is compared with). */
const currentRowsOfCriteria = namedStatement<CurrentDbRow, { ownerId: string; criterionIds: string[] }>('personal_bests_current_of_criteria', () =>
  currentRowsQuery(sql.placeholder('ownerId'), sql` AND cr.id = ANY(${sql.placeholder('criterionIds')}::uuid[])`),
);

export async function currentRows(tx: DbOrTx, ownerId: string, scope?: EvaluationScope): Promise<Map<string, CurrentRow>> {
  const rows =
    scope?.criterionIds && !scope.speciesIds
      ? await currentRowsOfCriteria.rows(tx, { ownerId, criterionIds: [...scope.criterionIds] })
      : (await tx.execute<CurrentDbRow>(currentRowsQuery(ownerId, inScope(scope)))).rows;
  return new Map(
    rows.map((r) => [
      r.criterion_id,
      {
        id: r.id,
        criterionId: r.criterion_id,
        catchId: r.catch_id,
        value: Number(r.value),
        caughtAt: new Date(r.caught_at),
        isUltimate: r.is_ultimate,
        catchValue: r.catch_value === null ? null : Number(r.catch_value),
      },
    ]),
  );
}

const endRowStatement = namedStatement<never, { id: string; status: 'beaten' | 'withdrawn'; at: Date }>(
  'personal_bests_end',
  () => sql`UPDATE ${personalBests} SET status = ${sql.placeholder('status')}, ended_at = ${sql.placeholder('at')}, is_ultimate = false WHERE id = ${sql.placeholder('id')}`,
);

export async function endRow(tx: DbOrTx, id: string, status: 'beaten' | 'withdrawn', at: Date): Promise<void> {
  await endRowStatement.rows(tx, { id, status, at });
}

const refreshStatement = namedStatement<never, { id: string; value: number; caughtAt: Date }>(
  'personal_bests_refresh',
  () => sql`UPDATE ${personalBests} SET value = ${sql.placeholder('value')}, caught_at = ${sql.placeholder('caughtAt')} WHERE id = ${sql.placeholder('id')}`,
);

export async function refreshSnapshot(tx: DbOrTx, id: string, value: number, caughtAt: Date): Promise<void> {
  await refreshStatement.rows(tx, { id, value, caughtAt });
}

const previousStatement = namedStatement<{ id: string }, { criterionId: string; catchId: string; value: number }>(
  'personal_bests_previous',
  () => sql`
    SELECT id FROM ${personalBests}
    WHERE criterion_id = ${sql.placeholder('criterionId')} AND status <> 'withdrawn'
      AND catch_id IS DISTINCT FROM ${sql.placeholder('catchId')}::uuid AND value <= ${sql.placeholder('value')}
    ORDER BY achieved_at DESC NULLS LAST, id DESC NULLS LAST
    LIMIT 1`,
);

/**
 * The best a new best of `value` replaces: the latest non-withdrawn row of the criterion, of
 * another catch, not above `value` (rows above it are stale: their catch has changed since).
 */
export async function previousFor(tx: DbOrTx, criterionId: string, catchId: string, value: number): Promise<string | null> {
  return (await previousStatement.first(tx, { criterionId, catchId, value }))?.id ?? null;
}

const NEW_BEST_KEYS = { id: true, ownerId: true, criterionId: true, catchId: true, value: true, caughtAt: true, previousId: true, status: true, achievedAt: true, isUltimate: true } as const;
const NEW_BEST = insertOf(personalBests, NEW_BEST_KEYS);
const insertCurrentStatement = namedStatement<never, Pick<typeof personalBests.$inferInsert, keyof typeof NEW_BEST_KEYS>>(
  'personal_bests_insert',
  () => sql`INSERT INTO ${personalBests} ${NEW_BEST.columns} VALUES (${NEW_BEST.values})`,
);

export async function insertCurrent(
  tx: DbOrTx,
  row: { ownerId: string; criterionId: string; catchId: string; value: number; caughtAt: Date; previousId: string | null; isUltimate: boolean; at: Date },
): Promise<string> {
  const id = uuidv7();
  const { at, ...values } = row;
  await insertCurrentStatement.rows(tx, { id, ...values, status: 'current', achievedAt: at });
  return id;
}

// ---- personal bests ---------------------------------------------------------------------------

export async function findById(db: DbOrTx, id: string): Promise<PersonalBestRow | undefined> {
  const [row] = await db.select().from(personalBests).where(eq(personalBests.id, id));
  return row;
}

export async function makeUltimate(tx: DbOrTx, ownerId: string, id: string): Promise<void> {
  await tx
    .update(personalBests)
    .set({ isUltimate: false })
    .where(and(eq(personalBests.ownerId, ownerId), eq(personalBests.isUltimate, true)));
  await tx.update(personalBests).set({ isUltimate: true }).where(eq(personalBests.id, id));
}

const prev = alias(personalBests, 'prev');

/** A current personal best with its criterion, species, catch, entry (if `viewerId` sees it) and previous best. */
function viewQuery(db: DbOrTx, relationships: RelationshipProvider, viewerId: string) {
  const entryVisible = visibleTo(relationships, viewerId, logEntries.ownerId, logEntries.visibility);
  return db
    .select({
      id: personalBests.id,
      value: personalBests.value,
      caughtAt: personalBests.caughtAt,
      achievedAt: personalBests.achievedAt,
      isUltimate: personalBests.isUltimate,
      criterion: {
        id: pbCriteria.id,
        measure: pbCriteria.measure,
        waterBody: pbCriteria.waterBody,
        stateCode: pbCriteria.stateCode,
        releasedOnly: pbCriteria.releasedOnly,
      },
      species: { id: fishSpecies.id, commonName: fishSpecies.commonName },
      catch: {
        id: catches.id,
        lengthCm: catches.lengthCm,
        weightKg: catches.weightKg,
        released: catches.released,
        caughtAt: catches.caughtAt,
      },
      entryVisible: sql<boolean>`${entryVisible}`,
      entry: { id: logEntries.id, title: logEntries.title, waterBody: logEntries.waterBody, stateCode: logEntries.stateCode },
      previous: { id: prev.id, catchId: prev.catchId, value: prev.value, caughtAt: prev.caughtAt, achievedAt: prev.achievedAt },
    })
    .from(personalBests)
    .innerJoin(pbCriteria, eq(pbCriteria.id, personalBests.criterionId))
    .innerJoin(fishSpecies, eq(fishSpecies.id, pbCriteria.speciesId))
    .innerJoin(catches, eq(catches.id, personalBests.catchId))
    .innerJoin(logEntries, eq(logEntries.id, catches.entryId))
    .leftJoin(prev, eq(prev.id, personalBests.previousId));
}

export type PersonalBestView = Awaited<ReturnType<ReturnType<typeof viewQuery>['execute']>>[number];

export interface PbFilter {
  speciesId?: string | undefined;
  measure?: Measure | undefined;
}

function currentOf(ownerId: string, filter: PbFilter): SQL {
  return and(
    eq(personalBests.ownerId, ownerId),
    eq(personalBests.status, 'current'),
    isNotNull(personalBests.catchId),
    filter.speciesId ? eq(pbCriteria.speciesId, filter.speciesId) : undefined,
    filter.measure ? eq(pbCriteria.measure, filter.measure) : undefined,
  )!;
}

/**
 * Another viewer sees a personal best only when they may see the log entry of its catch: a best
 * from a Private entry would otherwise reveal that catch's size, time and water.
 */
function shownTo(relationships: RelationshipProvider, viewerId: string, ownerId: string): SQL | undefined {
  return isSelf(viewerId, ownerId) ? undefined : visibleTo(relationships, viewerId, logEntries.ownerId, logEntries.visibility);
}

/** The owner's current personal bests, newest first (index personal_bests_owner_current_idx). */
export async function listCurrent(db: DbOrTx, relationships: RelationshipProvider, viewerId: string, ownerId: string, filter: PbFilter, page: { limit: number; offset: number }) {
  const where = and(currentOf(ownerId, filter), shownTo(relationships, viewerId, ownerId))!;
  const [items, [count]] = await Promise.all([
    viewQuery(db, relationships, viewerId)
      .where(where)
      .orderBy(sql`${personalBests.achievedAt} DESC NULLS LAST, ${personalBests.id} DESC NULLS LAST`)
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(personalBests)
      .innerJoin(pbCriteria, eq(pbCriteria.id, personalBests.criterionId))
      .innerJoin(catches, eq(catches.id, personalBests.catchId))
      .innerJoin(logEntries, eq(logEntries.id, catches.entryId))
      .where(where),
  ]);
  return { items, total: count?.n ?? 0 };
}

export async function findView(db: DbOrTx, relationships: RelationshipProvider, viewerId: string, id: string): Promise<PersonalBestView | undefined> {
  const [row] = await viewQuery(db, relationships, viewerId).where(eq(personalBests.id, id));
  return row;
}

export async function findUltimateView(db: DbOrTx, relationships: RelationshipProvider, viewerId: string, ownerId: string): Promise<PersonalBestView | undefined> {
  const [row] = await viewQuery(db, relationships, viewerId).where(and(eq(personalBests.ownerId, ownerId), eq(personalBests.isUltimate, true), shownTo(relationships, viewerId, ownerId)));
  return row;
}
