import type { ServiceDeps } from '../../core/service-deps.js';
import { apiValue, ClarityEnum, MethodEnum } from './fishing-log.schemas.js';
import { uuidv7 } from '../../core/db/ids.js';
import type { Page } from '../../core/http/pagination.js';
import * as repo from './dnr.repository.js';
import type { AnalysisQueryType } from './dnr.schemas.js';
import { FishingLogErrors } from './fishing-log.errors.js';
import { forgetOwnProfile } from '../profiles/profiles.service.js';
import { setResearchConsent, type ConsentLevel, type ResearchConsent } from '../profiles/research-consent.service.js';

/**
 * DNR research access: consent-filtered reads, each logged (who, when, purpose, filters, how many
 * records, whose data) in the same transaction as the read. Aggregates suppress any group of
 * fewer than K_ANONYMITY distinct anglers.
 */
export const K_ANONYMITY = 5;

/**
 * PUT /api/fishinglog/research-consent: the caller's consent. Their own profile view shows it:
 * this process reads that view anew at once (other processes hear the trigger's NOTIFY).
 */
export async function setOwnResearchConsent(deps: ServiceDeps, userId: string, level: ConsentLevel): Promise<ResearchConsent> {
  const consent = await setResearchConsent(deps, userId, level);
  forgetOwnProfile(deps, userId);
  return consent;
}

function filtersOf(query: AnalysisQueryType): repo.AnalysisFilters {
  const box = [query.minLat, query.maxLat, query.minLng, query.maxLng];
  const given = box.filter((v) => v !== undefined).length;
  if (given !== 0 && (given !== 4 || query.minLat! > query.maxLat! || query.minLng! > query.maxLng!)) throw FishingLogErrors.partialBbox();
  return {
    ...(query.speciesId ? { speciesId: query.speciesId } : {}),
    ...(query.stateCode ? { stateCode: query.stateCode.toUpperCase() } : {}),
    ...(query.from ? { from: query.from } : {}),
    ...(query.to ? { to: query.to } : {}),
    ...(given === 4 ? { bbox: { minLat: query.minLat!, maxLat: query.maxLat!, minLng: query.minLng!, maxLng: query.maxLng! } } : {}),
  };
}

const num = (v: string | number | null) => (v === null ? null : Number(v));

function recordView(row: repo.RecordRow) {
  const identified = row.consent === 'Identified';
  const caughtAt = new Date(row.caught_at);
  if (!identified) caughtAt.setUTCMinutes(0, 0, 0);
  return {
    consent: row.consent,
    userId: identified ? row.owner_id : null,
    entryId: identified ? row.entry_id : null,
    catchId: identified ? row.catch_id : null,
    species: { id: row.species_id, commonName: row.common_name, scientificName: row.scientific_name },
    lengthCm: num(row.length_cm),
    weightKg: num(row.weight_kg),
    count: row.count,
    released: row.released,
    caughtAt: caughtAt.toISOString(),
    stateCode: row.state_code,
    waterBody: row.water_body,
    location: row.latitude === null || row.longitude === null ? null : { latitude: row.latitude, longitude: row.longitude },
    method: apiValue(MethodEnum, row.method),
    airTemperatureC: num(row.air_temperature_c),
    waterTemperatureC: num(row.water_temperature_c),
    waterClarity: apiValue(ClarityEnum, row.water_clarity),
    notes: identified ? row.notes : null,
  };
}

interface Caller {
  userId: string;
  requestId: string;
}

export async function analyse(deps: ServiceDeps, caller: Caller, query: AnalysisQueryType, page: Page) {
  const { db } = deps;
  const filters = filtersOf(query);
  const logged = { ...filters, ...(query.groupBy ? { groupBy: query.groupBy } : { page: page.page, pageSize: page.pageSize }) };
  // REPEATABLE READ: the logged subjects are exactly the data the response carries.
  return db.transaction(
    async (tx) => {
      const base = { id: uuidv7(), dnrUserId: caller.userId, purpose: query.purpose, filters: logged, requestId: caller.requestId };
      if (!query.groupBy) {
        const { rows, total } = await repo.records(tx, filters, page);
        const subjects = new Map(rows.map((r) => [r.owner_id, r.consent]));
        await repo.logAccess(tx, { ...base, mode: 'records', recordCount: rows.length }, [...subjects].map(([userId, level]) => ({ userId, level })));
        return { kind: 'records' as const, items: rows.map(recordView), total };
      }
      const all = await repo.groups(tx, filters, query.groupBy);
      const kept = all.filter((g) => g.anglers >= K_ANONYMITY);
      const subjects = await repo.groupSubjects(tx, filters, query.groupBy, kept.map((g) => g.key));
      await repo.logAccess(
        tx,
        { ...base, mode: 'aggregate', recordCount: kept.reduce((n, g) => n + g.records, 0) },
        subjects.map((s) => ({ userId: s.user_id, level: s.level })),
      );
      const items = kept.map((g) => ({
        key: g.key,
        label: g.label,
        records: g.records,
        anglers: g.anglers,
        fish: g.fish,
        meanLengthCm: g.mean_length_cm,
        meanWeightKg: g.mean_weight_kg,
      }));
      return { kind: 'aggregate' as const, items: items.slice(page.offset, page.offset + page.limit), total: items.length, suppressed: all.length - kept.length };
    },
    { isolationLevel: 'repeatable read' },
  );
}

export async function researchAccesses(deps: ServiceDeps, userId: string, page: Page) {
  const { db } = deps;
  const { rows, total } = await repo.accessesOf(db, userId, page);
  return {
    total,
    items: rows.map((r) => ({
      id: r.log.id,
      occurredAt: r.log.occurredAt.toISOString(),
      dnrUsername: r.dnrUsername,
      purpose: r.log.purpose,
      mode: r.log.mode,
      filters: r.log.filters as Record<string, unknown>,
      consentLevel: r.consentLevel,
    })),
  };
}
