import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/client.js';
import { users } from '../users/index.js';
import { dnrAccessLog, dnrAccessSubjects } from './fishing-log.tables.js';

/**
 * Research reads: only catches of users whose consent is not None, joined at query time, so a
 * withdrawal applies to the next read.
 */

export interface AnalysisFilters {
  speciesId?: string;
  stateCode?: string;
  from?: string;
  to?: string;
  bbox?: { minLat: number; maxLat: number; minLng: number; maxLng: number };
}

const FROM = sql`FROM catches c
  JOIN fishing_log_entries e ON e.id = c.entry_id
  JOIN research_consents rc ON rc.user_id = e.owner_id AND rc.level <> 'None'
  JOIN fish_species s ON s.id = c.species_id`;

/** Coordinates as the record shows them: rounded to 0.1° for anonymized consent. */
const LAT = sql`CASE WHEN rc.level = 'Anonymized' THEN round(e.latitude::numeric, 1)::float8 ELSE e.latitude END`;
const LNG = sql`CASE WHEN rc.level = 'Anonymized' THEN round(e.longitude::numeric, 1)::float8 ELSE e.longitude END`;
/** Catch times as the record shows them: to the hour for anonymized consent (so from/to cannot narrow them further). */
const CAUGHT_AT = sql`CASE WHEN rc.level = 'Anonymized' THEN date_trunc('hour', c.caught_at) ELSE c.caught_at END`;

function where(filters: AnalysisFilters): SQL {
  const conditions: SQL[] = [sql`true`];
  if (filters.speciesId) conditions.push(sql`c.species_id = ${filters.speciesId}`);
  if (filters.stateCode) conditions.push(sql`e.state_code = ${filters.stateCode}`);
  if (filters.from) conditions.push(sql`${CAUGHT_AT} >= ${filters.from}`);
  if (filters.to) conditions.push(sql`${CAUGHT_AT} <= ${filters.to}`);
  if (filters.bbox) {
    const b = filters.bbox;
    conditions.push(sql`e.latitude IS NOT NULL AND ${LAT} BETWEEN ${b.minLat} AND ${b.maxLat} AND ${LNG} BETWEEN ${b.minLng} AND ${b.maxLng}`);
  }
  return sql.join(conditions, sql` AND `);
}

export type RecordRow = {
  consent: 'Anonymized' | 'Identified';
  owner_id: string;
  entry_id: string;
  catch_id: string;
  species_id: string;
  common_name: string;
  scientific_name: string;
  length_cm: string | null;
  weight_kg: string | null;
  count: number;
  released: boolean;
  caught_at: Date;
  state_code: string | null;
  water_body: string | null;
  latitude: number | null;
  longitude: number | null;
  method: string | null;
  air_temperature_c: string | null;
  water_temperature_c: string | null;
  water_clarity: string | null;
  notes: string | null;
};

export async function records(db: DbOrTx, filters: AnalysisFilters, page: { limit: number; offset: number }) {
  const [rows, count] = await Promise.all([
    db.execute<RecordRow>(sql`
      SELECT rc.level AS consent, e.owner_id, e.id AS entry_id, c.id AS catch_id, s.id AS species_id, s.common_name, s.scientific_name,
             c.length_cm, c.weight_kg, c.count, c.released, c.caught_at, e.state_code, e.water_body, ${LAT} AS latitude, ${LNG} AS longitude,
             e.method, e.air_temperature_c, e.water_temperature_c, e.water_clarity, c.notes
      ${FROM} WHERE ${where(filters)}
      ORDER BY c.caught_at DESC, c.id DESC LIMIT ${page.limit} OFFSET ${page.offset}`),
    db.execute<{ n: number }>(sql`SELECT count(*)::int AS n ${FROM} WHERE ${where(filters)}`),
  ]);
  return { rows: rows.rows, total: Number(count.rows[0]?.n ?? 0) };
}

export type GroupBy = 'species' | 'state' | 'month';

const GROUP_KEY: Record<GroupBy, { key: SQL; label: SQL }> = {
  species: { key: sql`s.id::text`, label: sql`min(s.common_name)` },
  state: { key: sql`coalesce(e.state_code, 'unknown')`, label: sql`coalesce(e.state_code, 'unknown')` },
  month: { key: sql`to_char(c.caught_at AT TIME ZONE 'UTC', 'YYYY-MM')`, label: sql`to_char(c.caught_at AT TIME ZONE 'UTC', 'YYYY-MM')` },
};

export type GroupRow = {
  key: string;
  label: string;
  records: number;
  anglers: number;
  fish: number;
  mean_length_cm: number | null;
  mean_weight_kg: number | null;
};

export async function groups(db: DbOrTx, filters: AnalysisFilters, groupBy: GroupBy): Promise<GroupRow[]> {
  const g = GROUP_KEY[groupBy];
  const result = await db.execute<GroupRow>(sql`
    SELECT ${g.key} AS key, ${g.label} AS label, count(*)::int AS records, count(DISTINCT e.owner_id)::int AS anglers,
           sum(c.count)::int AS fish, round(avg(c.length_cm), 2)::float8 AS mean_length_cm, round(avg(c.weight_kg), 3)::float8 AS mean_weight_kg
    ${FROM} WHERE ${where(filters)}
    GROUP BY ${g.key} ORDER BY ${g.key}`);
  return result.rows;
}

/** The anglers (and their consent) whose catches fall in the kept groups. */
export async function groupSubjects(db: DbOrTx, filters: AnalysisFilters, groupBy: GroupBy, keys: string[]) {
  if (keys.length === 0) return [];
  const g = GROUP_KEY[groupBy];
  const result = await db.execute<{ user_id: string; level: 'Anonymized' | 'Identified' }>(sql`
    SELECT DISTINCT e.owner_id AS user_id, rc.level ${FROM}
    WHERE ${where(filters)} AND ${g.key} IN (${sql.join(keys.map((k) => sql`${k}`), sql`, `)})`);
  return result.rows;
}

export async function logAccess(
  db: DbOrTx,
  entry: { id: string; dnrUserId: string; purpose: string; mode: 'records' | 'aggregate'; filters: Record<string, unknown>; recordCount: number; requestId: string },
  subjects: Array<{ userId: string; level: 'Anonymized' | 'Identified' }>,
): Promise<void> {
  await db.insert(dnrAccessLog).values(entry);
  if (subjects.length > 0) {
    await db.insert(dnrAccessSubjects).values(subjects.map((s) => ({ accessId: entry.id, userId: s.userId, consentLevel: s.level })));
  }
}

export async function accessesOf(db: DbOrTx, userId: string, page: { limit: number; offset: number }) {
  const condition = eq(dnrAccessSubjects.userId, userId);
  const [rows, [count]] = await Promise.all([
    db
      .select({ log: dnrAccessLog, dnrUsername: users.username, consentLevel: dnrAccessSubjects.consentLevel })
      .from(dnrAccessSubjects)
      .innerJoin(dnrAccessLog, eq(dnrAccessLog.id, dnrAccessSubjects.accessId))
      .innerJoin(users, eq(users.id, dnrAccessLog.dnrUserId))
      .where(and(condition))
      .orderBy(desc(dnrAccessLog.occurredAt), desc(dnrAccessLog.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(dnrAccessSubjects).where(condition),
  ]);
  return { rows, total: count?.n ?? 0 };
}
