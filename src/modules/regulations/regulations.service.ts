import type { ServiceDeps } from '../../core/service-deps.js';
import type { DbOrTx } from '../../core/db/client.js';
import { speciesRefs } from '../species/species.service.js';
import type { CatchSource } from './catch-source.js';
import { RegulationErrors } from './regulations.errors.js';
import * as repo from './regulations.repository.js';
import type { EmergencyOrderRow, JurisdictionRow, LicenseYearRow, RuleSetRow } from './regulations.tables.js';
import { DataStatusEnum, LegalEnum, LevelEnum, SeasonStatusEnum } from './regulations.schemas.js';
import {
  addDays,
  applyOrders,
  cmToInches,
  evaluateKeep,
  inchesToCm,
  localDate,
  ordersInForce,
  rulesInForce,
  seasonStatus,
  type Area,
  type KeptFish,
  type RuleFields,
} from './rules.js';

/**
 * Regulations in force at a place and date, and whether a logged catch may be kept. Public API of
 * the module for others: `rulesAt`, `checkCatch`, and for the Master Angler module `activeJurisdiction`, `activeJurisdictionCodes`.
 */

export const DISCLAIMER =
  'Summary of the official regulations for information only. Special regulations of individual waters, zones and emergency orders may apply; ' +
  'always check the official regulation booklet of the state (see source) before keeping a fish.';

/** `US-MN`, `us-mn` or `MN` → `US-MN`. */
export function normaliseStateCode(value: string): string {
  const upper = value.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(upper) ? `US-${upper}` : upper;
}

/** The active jurisdiction of a state (`US-MN` or `MN`), or undefined. */
export async function activeJurisdiction(deps: ServiceDeps<DbOrTx>, stateId: string) {
  const { db } = deps;
  const jurisdiction = await repo.jurisdictionByCode(db, normaliseStateCode(stateId));
  return jurisdiction?.isActive ? jurisdiction : undefined;
}

/** The codes (ISO 3166-2) of the given jurisdictions (only the active ones with `activeOnly`), by id. */
export async function jurisdictionCodes(deps: ServiceDeps<DbOrTx>, ids: readonly string[], activeOnly = false): Promise<Map<string, string>> {
  const { db } = deps;
  const rows = ids.length ? await repo.jurisdictionsByIds(db, [...new Set(ids)]) : [];
  return new Map(rows.filter((j) => !activeOnly || j.isActive).map((j) => [j.id, j.code]));
}

/** Whether the jurisdiction exists, locking it against key changes for the transaction (a row referring to it is written next). */
export async function lockJurisdictionForReference(deps: ServiceDeps<DbOrTx>, id: string): Promise<boolean> {
  const { db: tx } = deps;
  return repo.lockJurisdictionForReference(tx, id);
}

export function todayIn(timeZone: string, now: Date = new Date()): string {
  return localDate(now, timeZone);
}

/** Time zone used for "today" in a state (the seeded states are all within one zone's day of each other). */
const STATE_TIME_ZONES: Record<string, string> = { 'US-MN': 'America/Chicago', 'US-WI': 'America/Chicago', 'US-MI': 'America/Detroit', 'US-OH': 'America/New_York', 'US-IA': 'America/Chicago' };
export function stateTimeZone(code: string): string {
  return STATE_TIME_ZONES[code] ?? 'America/Chicago';
}

const length = (inches: number | null) => (inches === null ? null : { in: inches, cm: inchesToCm(inches) });

function orderView(o: EmergencyOrderRow) {
  return { id: o.id, speciesId: o.speciesId, zoneId: o.zoneId, startsOn: o.startsOn, endsOn: o.endsOn, reason: o.reason, overrides: o.overrides, sourceUrl: o.sourceUrl };
}

interface Place {
  jurisdiction: JurisdictionRow;
  areas: Array<Area & { name: string }>;
}

/** The jurisdiction and the areas containing the point (or only the state when no point is given). */
async function placeOf(deps: ServiceDeps<DbOrTx>, point: { lat: number; lon: number } | null, state: string | undefined): Promise<Place> {
  const { db } = deps;
  const hits = point ? await repo.areasAt(db, point.lon, point.lat) : [];
  let jurisdiction: JurisdictionRow | undefined;
  if (state) {
    jurisdiction = await repo.jurisdictionByCode(db, normaliseStateCode(state));
    if (!jurisdiction || !jurisdiction.isActive) throw RegulationErrors.unknownState(normaliseStateCode(state));
  } else {
    const states = hits.filter((h) => h.kind === 'state').sort((a, b) => a.areaSqDeg - b.areaSqDeg);
    if (!states[0]) throw RegulationErrors.noJurisdictionAt(point!.lat, point!.lon);
    [jurisdiction] = (await repo.jurisdictionsByIds(db, [states[0].jurisdictionId])).filter((j) => j.isActive);
    if (!jurisdiction) throw RegulationErrors.noJurisdictionAt(point!.lat, point!.lon);
  }
  const areas: Place['areas'] = [{ zoneId: null, level: 'statewide', areaSqDeg: Number.POSITIVE_INFINITY, name: jurisdiction.name }];
  for (const h of hits) {
    if (h.jurisdictionId === jurisdiction.id && h.kind !== 'state') areas.push({ zoneId: h.zoneId, level: h.kind, areaSqDeg: h.areaSqDeg, name: h.name });
  }
  return { jurisdiction, areas };
}

export interface RulesQuery {
  lat?: number | undefined;
  lon?: number | undefined;
  date?: string | undefined;
  species?: string | undefined;
  state?: string | undefined;
}

export type DataStatus = 'current' | 'outdated';

/**
 * The license year whose rules answer for `date`: the one containing it (current), or, for a date
 * after the newest one's end, the newest (outdated: the rules we have last, flagged as such).
 * Dates before the oldest license year, or in a gap between two, have no answer (404).
 */
async function licenseYearFor(deps: ServiceDeps<DbOrTx>, jurisdiction: JurisdictionRow, date: string): Promise<{ licenseYear: LicenseYearRow; dataStatus: DataStatus }> {
  const { db } = deps;
  const containing = await repo.licenseYearAt(db, jurisdiction.id, date);
  if (containing) return { licenseYear: containing, dataStatus: 'current' };
  const newest = await repo.newestLicenseYear(db, jurisdiction.id);
  if (newest && newest.endsOn < date) return { licenseYear: newest, dataStatus: 'outdated' };
  throw RegulationErrors.noLicenseYear(jurisdiction.code, date);
}

/** What an answer from outdated data says, and where the current rules are. */
export function outdatedWarning(jurisdiction: Pick<JurisdictionRow, 'name' | 'agencyUrl'>, licenseYear: Pick<LicenseYearRow, 'year' | 'startsOn' | 'endsOn'>, date: string) {
  return {
    code: 'regulations.data_outdated',
    message:
      `These are the ${jurisdiction.name} rules of the ${licenseYear.year} license year (${licenseYear.startsOn} to ${licenseYear.endsOn}), the newest we have; ` +
      `${date} is after it, and the rules may have changed since. Do not rely on them: check the current regulations at ${jurisdiction.agencyUrl}.`,
    sourceUrl: jurisdiction.agencyUrl,
    licenseYear: licenseYear.year,
    dataEndsOn: licenseYear.endsOn,
  };
}

/** A rule whose seasons are not known (dates of an older license year say nothing about `date`). */
const withoutSeasons = <R extends RuleFields>(rule: R): R => ({ ...rule, openSeasons: null, releaseOnlyPeriods: [] });

async function resolveRules(deps: ServiceDeps<DbOrTx>, place: Place, date: string, speciesId?: string) {
  const { db } = deps;
  const { licenseYear, dataStatus } = await licenseYearFor(deps, place.jurisdiction, date);
  const zoneIds = place.areas.flatMap((a) => (a.zoneId ? [a.zoneId] : []));
  const versions = await repo.ruleVersions(db, place.jurisdiction.id, licenseYear.id, zoneIds, speciesId);
  // Outdated: the versions in force at the end of the data year.
  const inForce = rulesInForce<RuleSetRow>(place.areas, versions, dataStatus === 'current' ? date : licenseYear.endsOn);
  const orders = await repo.ordersAt(db, place.jurisdiction.id, date);
  const zoneSet = new Set<string | null>([null, ...zoneIds]);
  const warning = dataStatus === 'outdated' ? outdatedWarning(place.jurisdiction, licenseYear, date) : null;
  /** The rule as it decides on `date`: without its seasons when they are of an older year. */
  const deciding = <R extends RuleFields>(rule: R): R => (dataStatus === 'current' ? rule : withoutSeasons(rule));
  return { licenseYear, dataStatus, warning, inForce, orders, zoneSet, deciding };
}

/** The rules in force at a point (or in a state) on a date, per species, most specific area first. */
export async function rulesAt(deps: ServiceDeps<DbOrTx>, query: RulesQuery, now: () => Date = () => new Date()) {
  const point = query.lat !== undefined && query.lon !== undefined ? { lat: query.lat, lon: query.lon } : null;
  const place = await placeOf(deps, point, query.state);
  const date = query.date ?? todayIn(stateTimeZone(place.jurisdiction.code), now());
  const { licenseYear, dataStatus, warning, inForce, orders, zoneSet, deciding } = await resolveRules(deps, place, date, query.species);
  const names = await speciesRefs(deps.db, [...inForce.keys()]);
  const rules = [...inForce.entries()]
    .map(([speciesId, { rule, area }]) => {
      const applied = ordersInForce(orders, speciesId, zoneSet, date);
      const effective = applyOrders(rule, applied);
      const r = effective.rule;
      const ref = names.get(speciesId);
      return {
        species: { id: speciesId, commonName: ref?.commonName ?? '', scientificName: ref?.scientificName ?? '' },
        appliesIn: { level: LevelEnum.toApi(area.level), zoneId: area.zoneId, name: place.areas.find((a) => a.zoneId === area.zoneId)!.name },
        ruleSetId: rule.id,
        version: rule.version,
        effectiveFrom: rule.effectiveFrom,
        effectiveTo: rule.effectiveTo,
        seasonStatus: SeasonStatusEnum.toApi(seasonStatus({ ...effective, rule: deciding(r) }, date)),
        openSeasons: r.openSeasons,
        releaseOnlyPeriods: r.releaseOnlyPeriods,
        dailyBag: r.dailyBag,
        possessionLimit: r.possessionLimit,
        minLength: length(r.minLengthIn),
        maxLength: length(r.maxLengthIn),
        protectedSlot: r.slotFromIn !== null && r.slotToIn !== null ? { from: length(r.slotFromIn)!, to: length(r.slotToIn)! } : null,
        oneOver: r.oneOverIn !== null && r.oneOverCount !== null ? { over: length(r.oneOverIn)!, count: r.oneOverCount } : null,
        combined: r.combinedGroup !== null && r.combinedBag !== null ? { group: r.combinedGroup, bag: r.combinedBag } : null,
        gear: r.gear,
        notes: r.notes,
        emergencyOrders: applied.map(orderView),
        source: { url: r.sourceUrl, bookletYear: r.bookletYear },
      };
    })
    .sort((a, b) => a.species.commonName.localeCompare(b.species.commonName));
  return {
    jurisdiction: { code: place.jurisdiction.code, name: place.jurisdiction.name, agency: place.jurisdiction.agencyName, url: place.jurisdiction.agencyUrl },
    date,
    asOf: date,
    dataStatus: DataStatusEnum.toApi(dataStatus),
    warning,
    licenseYear: { year: licenseYear.year, startsOn: licenseYear.startsOn, endsOn: licenseYear.endsOn },
    areas: place.areas.map((a) => ({ level: LevelEnum.toApi(a.level), zoneId: a.zoneId, name: a.name })),
    rules,
    disclaimer: DISCLAIMER,
  };
}

/** Whether a logged catch the caller may see may be kept where and when it was caught, and why not. */
export async function checkCatch(deps: ServiceDeps<DbOrTx>, source: CatchSource, viewerId: string, catchId: string) {
  const { db } = deps;
  const fish = await source.visibleCatch(deps, viewerId, catchId);
  const point = fish.latitude !== null && fish.longitude !== null ? { lat: fish.latitude, lon: fish.longitude } : null;
  if (!point && !fish.stateCode) throw RegulationErrors.catchWithoutPlace();
  const place = await placeOf(deps, point, point ? undefined : fish.stateCode!);
  const date = localDate(fish.caughtAt, fish.timeZone);
  const { licenseYear, dataStatus, warning, inForce, orders, zoneSet, deciding } = await resolveRules(deps, place, date);
  const base = {
    catchId: fish.id,
    date,
    jurisdiction: { code: place.jurisdiction.code, name: place.jurisdiction.name },
    licenseYear: licenseYear.year,
    dataStatus: DataStatusEnum.toApi(dataStatus),
    warning,
    released: fish.released,
    disclaimer: DISCLAIMER,
  };
  // Outdated data never decides: the verdict is Unknown, the old rule's findings are context.
  const outdated = warning ? [{ code: 'data_outdated', detail: warning.message }] : [];
  const found = inForce.get(fish.speciesId);
  if (!found) {
    const reasons = [...outdated, { code: 'no_rule', detail: 'Our data has no rule for this species here: check the official booklet.' }];
    return { ...base, legalToKeep: null, legal: LegalEnum.toApi('unknown'), reasons, appliesIn: null, ruleSetId: null, source: null, emergencyOrders: [] };
  }
  // The day of the catch in its time zone, as instants, for the angler's other kept fish.
  const dayStart = zonedMidnight(date, fish.timeZone);
  const dayEnd = zonedMidnight(addDays(date, 1), fish.timeZone);
  const others = await source.keptCatches(db, fish.ownerId, dayStart, dayEnd, fish.id);
  const kept: KeptFish[] = others.map((o) => ({
    speciesId: o.speciesId,
    count: o.count,
    lengthIn: o.lengthCm === null ? null : cmToInches(o.lengthCm),
    combinedGroup: inForce.get(o.speciesId)?.rule.combinedGroup ?? null,
  }));
  const applied = ordersInForce(orders, fish.speciesId, zoneSet, date);
  const verdict = evaluateKeep(applyOrders(deciding(found.rule), applied), { speciesId: fish.speciesId, date, lengthIn: fish.lengthCm === null ? null : cmToInches(fish.lengthCm), count: fish.count }, kept);
  const context = outdated.length ? verdict.reasons.map((r) => ({ ...r, detail: `Under the ${licenseYear.year} rules: ${r.detail}` })) : verdict.reasons;
  const legalToKeep = outdated.length ? null : verdict.legalToKeep;
  return {
    ...base,
    legalToKeep,
    legal: LegalEnum.toApi(legalToKeep === null ? 'unknown' : legalToKeep ? 'yes' : 'no'),
    reasons: [...outdated, ...context],
    appliesIn: { level: LevelEnum.toApi(found.area.level), zoneId: found.area.zoneId, name: place.areas.find((a) => a.zoneId === found.area.zoneId)!.name },
    ruleSetId: found.rule.id,
    source: { url: found.rule.sourceUrl, bookletYear: found.rule.bookletYear },
    emergencyOrders: applied.map(orderView),
  };
}

/** The instant of 00:00 of `date` in `timeZone`. */
export function zonedMidnight(date: string, timeZone: string): Date {
  const guess = new Date(`${date}T00:00:00Z`);
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' }).formatToParts(guess);
  const get = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  const shown = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'));
  return new Date(guess.getTime() - (shown - guess.getTime()));
}
