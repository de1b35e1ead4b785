/**
 * Rule evaluation: pure functions over rule-set versions, emergency orders and catches. No I/O:
 * the service loads the candidates, these decide. Dates are `YYYY-MM-DD` in the jurisdiction's
 * local time (string comparison is date order); lengths in inches as the booklets print them.
 */

export interface DateRange {
  from: string;
  to: string;
}

export type RuleLevel = 'statewide' | 'zone' | 'water_body';

export interface RuleFields {
  openSeasons: DateRange[] | null;
  releaseOnlyPeriods: DateRange[];
  dailyBag: number | null;
  possessionLimit: number | null;
  minLengthIn: number | null;
  maxLengthIn: number | null;
  slotFromIn: number | null;
  slotToIn: number | null;
  oneOverIn: number | null;
  oneOverCount: number | null;
  combinedGroup: string | null;
  combinedBag: number | null;
}

export interface RuleVersion extends RuleFields {
  id: string;
  speciesId: string;
  zoneId: string | null;
  version: number;
  effectiveFrom: string;
  /** Last day in force, set when a later version took over (null or absent: open-ended). */
  effectiveTo?: string | null;
  isActive: boolean;
}

export interface Override {
  closed?: boolean;
  releaseOnly?: boolean;
  dailyBag?: number;
  possessionLimit?: number;
  minLengthIn?: number;
  maxLengthIn?: number;
}

export interface Order {
  id: string;
  speciesId: string | null;
  zoneId: string | null;
  startsOn: string;
  endsOn: string;
  reason: string;
  overrides: Override;
  isActive: boolean;
}

export const CM_PER_INCH = 2.54;

export function cmToInches(cm: number): number {
  return cm / CM_PER_INCH;
}

export function inchesToCm(inches: number): number {
  return Math.round(inches * CM_PER_INCH * 10) / 10;
}

export function inRange(date: string, range: DateRange): boolean {
  return range.from <= date && date <= range.to;
}

/**
 * The version in force on `date` among the versions of one rule (same jurisdiction, zone, species
 * and license year): the active one whose range [effectiveFrom, effectiveTo] contains `date` (the
 * latest effective date, then the highest version number, should ranges ever overlap). None when
 * every version starts later or was closed earlier.
 */
export function versionInForce<V extends Pick<RuleVersion, 'effectiveFrom' | 'effectiveTo' | 'version' | 'isActive'>>(versions: readonly V[], date: string): V | undefined {
  let best: V | undefined;
  for (const v of versions) {
    if (!v.isActive || v.effectiveFrom > date || (v.effectiveTo != null && v.effectiveTo < date)) continue;
    if (!best || v.effectiveFrom > best.effectiveFrom || (v.effectiveFrom === best.effectiveFrom && v.version > best.version)) best = v;
  }
  return best;
}

/** Areas containing a point, most specific first (water body, then zone, then state; smaller first). */
export interface Area {
  zoneId: string | null;
  level: RuleLevel;
  areaSqDeg: number;
}

const LEVEL_RANK: Record<RuleLevel, number> = { water_body: 0, zone: 1, statewide: 2 };

export function bySpecificity<A extends Area>(areas: readonly A[]): A[] {
  return [...areas].sort((a, b) => LEVEL_RANK[a.level] - LEVEL_RANK[b.level] || a.areaSqDeg - b.areaSqDeg);
}

/**
 * Per species, the rule of the most specific area that has one for that species on `date`.
 * `versions` are every candidate version of the point's areas; `areas` the point's areas.
 */
export function rulesInForce<V extends RuleVersion>(areas: readonly Area[], versions: readonly V[], date: string): Map<string, { rule: V; area: Area }> {
  const ordered = bySpecificity(areas);
  const out = new Map<string, { rule: V; area: Area }>();
  const speciesIds = [...new Set(versions.map((v) => v.speciesId))];
  for (const speciesId of speciesIds) {
    for (const area of ordered) {
      const rule = versionInForce(
        versions.filter((v) => v.speciesId === speciesId && v.zoneId === area.zoneId),
        date,
      );
      if (rule) {
        out.set(speciesId, { rule, area });
        break;
      }
    }
  }
  return out;
}

/** Emergency orders in force on `date` for a species in the given areas (statewide orders have no zone). */
export function ordersInForce<O extends Order>(orders: readonly O[], speciesId: string, zoneIds: ReadonlySet<string | null>, date: string): O[] {
  return orders.filter(
    (o) => o.isActive && (o.speciesId === null || o.speciesId === speciesId) && (o.zoneId === null || zoneIds.has(o.zoneId)) && o.startsOn <= date && date <= o.endsOn,
  );
}

export type SeasonStatus = 'open' | 'release_only' | 'closed' | 'unknown';

export interface EffectiveRule<R extends RuleFields = RuleFields> {
  rule: R;
  /** Orders applied, in the order given. */
  orders: Order[];
  /** Set by an order: closed or release-only whatever the seasons say. */
  forcedStatus: SeasonStatus | null;
}

/** The rule with the orders' overrides applied (later orders win on the same field). */
export function applyOrders<R extends RuleFields>(rule: R, orders: readonly Order[]): EffectiveRule<R> {
  let effective = { ...rule };
  let forcedStatus: SeasonStatus | null = null;
  for (const order of orders) {
    const { closed, releaseOnly, ...fields } = order.overrides;
    effective = { ...effective, ...fields };
    if (closed) forcedStatus = 'closed';
    else if (releaseOnly && forcedStatus !== 'closed') forcedStatus = 'release_only';
  }
  return { rule: effective, orders: [...orders], forcedStatus };
}

/** Whether the species may be kept on `date`: open, catch-and-release only, closed, or not in our data. */
export function seasonStatus(effective: EffectiveRule, date: string): SeasonStatus {
  if (effective.forcedStatus) return effective.forcedStatus;
  const { rule } = effective;
  if (rule.releaseOnlyPeriods.some((p) => inRange(date, p))) return 'release_only';
  if (rule.openSeasons === null) return 'unknown';
  return rule.openSeasons.some((s) => inRange(date, s)) ? 'open' : 'closed';
}

/** A fish already kept the same day by the same angler, with the rule that applied to it. */
export interface KeptFish {
  speciesId: string;
  count: number;
  lengthIn: number | null;
  combinedGroup: string | null;
}

export interface CatchToCheck {
  speciesId: string;
  date: string;
  lengthIn: number | null;
  count: number;
}

export interface Violation {
  code:
    | 'closed_season'
    | 'release_only'
    | 'under_minimum'
    | 'over_maximum'
    | 'in_protected_slot'
    | 'one_over_exceeded'
    | 'daily_bag_exceeded'
    | 'combined_bag_exceeded'
    | 'length_unknown'
    | 'season_unknown';
  detail: string;
}

export interface KeepVerdict {
  /** true: may be kept; false: must be released; null: our data cannot tell (see reasons). */
  legalToKeep: boolean | null;
  reasons: Violation[];
}

const BLOCKING: ReadonlySet<Violation['code']> = new Set([
  'closed_season',
  'release_only',
  'under_minimum',
  'over_maximum',
  'in_protected_slot',
  'one_over_exceeded',
  'daily_bag_exceeded',
  'combined_bag_exceeded',
]);

const fmt = (n: number) => `${Number(n.toFixed(2))}"`;

/** Length rules: minimum, maximum, protected slot (inclusive, as booklets write "19.5 through 28 inches"). */
function lengthViolations(rule: RuleFields, lengthIn: number | null): Violation[] {
  const needsLength = rule.minLengthIn !== null || rule.maxLengthIn !== null || rule.slotFromIn !== null || rule.oneOverIn !== null;
  if (lengthIn === null) return needsLength ? [{ code: 'length_unknown', detail: 'The catch has no length, and a length rule applies: measure the fish.' }] : [];
  const out: Violation[] = [];
  if (rule.minLengthIn !== null && lengthIn < rule.minLengthIn) out.push({ code: 'under_minimum', detail: `${fmt(lengthIn)} is under the ${fmt(rule.minLengthIn)} minimum length.` });
  if (rule.maxLengthIn !== null && lengthIn > rule.maxLengthIn) out.push({ code: 'over_maximum', detail: `${fmt(lengthIn)} is over the ${fmt(rule.maxLengthIn)} maximum length.` });
  if (rule.slotFromIn !== null && rule.slotToIn !== null && lengthIn >= rule.slotFromIn && lengthIn <= rule.slotToIn) {
    out.push({ code: 'in_protected_slot', detail: `${fmt(lengthIn)} is inside the protected slot ${fmt(rule.slotFromIn)}–${fmt(rule.slotToIn)}: release it.` });
  }
  return out;
}

function bagViolations(rule: RuleFields, fish: CatchToCheck, kept: readonly KeptFish[]): Violation[] {
  const out: Violation[] = [];
  const sameSpecies = kept.filter((k) => k.speciesId === fish.speciesId);
  const sum = (list: readonly KeptFish[]) => list.reduce((n, k) => n + k.count, 0);
  if (rule.dailyBag !== null) {
    const already = sum(sameSpecies);
    if (already + fish.count > rule.dailyBag) out.push({ code: 'daily_bag_exceeded', detail: `Already ${already} kept today; the daily bag is ${rule.dailyBag}.` });
  }
  if (rule.combinedGroup !== null && rule.combinedBag !== null) {
    const already = sum(kept.filter((k) => k.combinedGroup === rule.combinedGroup));
    if (already + fish.count > rule.combinedBag) {
      out.push({ code: 'combined_bag_exceeded', detail: `Already ${already} kept today of the combined group ${rule.combinedGroup}; its combined bag is ${rule.combinedBag}.` });
    }
  }
  if (rule.oneOverIn !== null && rule.oneOverCount !== null && fish.lengthIn !== null && fish.lengthIn > rule.oneOverIn) {
    const already = sum(sameSpecies.filter((k) => k.lengthIn !== null && k.lengthIn > rule.oneOverIn!));
    if (already + fish.count > rule.oneOverCount) {
      out.push({ code: 'one_over_exceeded', detail: `Only ${rule.oneOverCount} over ${fmt(rule.oneOverIn)} may be kept a day; ${already} already kept.` });
    }
  }
  return out;
}

/** Whether `fish` may be kept under `effective`, given what the angler already kept that day. */
export function evaluateKeep(effective: EffectiveRule, fish: CatchToCheck, keptToday: readonly KeptFish[]): KeepVerdict {
  const reasons: Violation[] = [];
  const status = seasonStatus(effective, fish.date);
  if (status === 'closed') reasons.push({ code: 'closed_season', detail: `The season is closed on ${fish.date}.` });
  if (status === 'release_only') reasons.push({ code: 'release_only', detail: `On ${fish.date} the species is catch-and-release only.` });
  if (status === 'unknown') reasons.push({ code: 'season_unknown', detail: 'Our data has no season for this species here: check the official booklet.' });
  reasons.push(...lengthViolations(effective.rule, fish.lengthIn), ...bagViolations(effective.rule, fish, keptToday));
  for (const order of effective.orders) {
    const blocking = reasons.find((r) => BLOCKING.has(r.code));
    if (blocking) blocking.detail += ` (Emergency order ${order.startsOn}–${order.endsOn}: ${order.reason})`;
  }
  const legalToKeep = reasons.some((r) => BLOCKING.has(r.code)) ? false : reasons.length > 0 ? null : true;
  return { legalToKeep, reasons };
}

/**
 * The ranges of one rule's active versions: each ends the day before the next one starts, the last
 * is open-ended. Versions with the same effective date cannot both be in force (returned in `clash`).
 */
export function chainRanges<V extends Pick<RuleVersion, 'id' | 'effectiveFrom' | 'version'>>(active: readonly V[]): { ranges: Array<{ id: string; effectiveTo: string | null }>; clash: [V, V] | null } {
  const sorted = [...active].sort((a, b) => a.effectiveFrom.localeCompare(b.effectiveFrom) || a.version - b.version);
  const ranges = sorted.map((v, i) => ({ id: v.id, effectiveTo: sorted[i + 1] ? addDays(sorted[i + 1]!.effectiveFrom, -1) : null }));
  const i = sorted.findIndex((v, k) => k > 0 && sorted[k - 1]!.effectiveFrom === v.effectiveFrom);
  return { ranges, clash: i > 0 ? [sorted[i - 1]!, sorted[i]!] : null };
}

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The license year containing `date`, given the jurisdiction's first month and day. */
export function licenseYearOf(date: string, startMonth: number, startDay: number): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return m > startMonth || (m === startMonth && d >= startDay) ? y : y - 1;
}

/** The calendar date (`YYYY-MM-DD`) of an instant in an IANA time zone. */
export function localDate(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);
}
