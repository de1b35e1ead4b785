import { describe, expect, it } from 'vitest';
import {
  applyOrders,
  evaluateKeep,
  licenseYearOf,
  localDate,
  rulesInForce,
  seasonStatus,
  versionInForce,
  type KeptFish,
  type Order,
  type RuleFields,
  type RuleVersion,
} from './rules.js';

const WALLEYE = 'walleye';
const SAUGER = 'sauger';

const base: RuleFields = {
  openSeasons: null,
  releaseOnlyPeriods: [],
  dailyBag: null,
  possessionLimit: null,
  minLengthIn: null,
  maxLengthIn: null,
  slotFromIn: null,
  slotToIn: null,
  oneOverIn: null,
  oneOverCount: null,
  combinedGroup: null,
  combinedBag: null,
};
const rule = (fields: Partial<RuleFields>): RuleFields => ({ ...base, ...fields });
const fish = (date: string, lengthIn: number | null = 15, speciesId = WALLEYE, count = 1) => ({ speciesId, date, lengthIn, count });
const kept = (n: number, lengthIn: number | null = 15, speciesId = WALLEYE, combinedGroup: string | null = null): KeptFish[] =>
  Array.from({ length: n }, () => ({ speciesId, count: 1, lengthIn, combinedGroup }));
const codes = (r: RuleFields, f: ReturnType<typeof fish>, k: KeptFish[] = [], orders: Order[] = []) => {
  const verdict = evaluateKeep(applyOrders(r, orders), f, k);
  return { legal: verdict.legalToKeep, codes: verdict.reasons.map((x) => x.code) };
};

describe('season across the new year (Minnesota walleye 2025: May 10, 2025 – Feb 22, 2026)', () => {
  const r = rule({ openSeasons: [{ from: '2025-05-10', to: '2026-02-22' }] });
  it.each([
    ['2025-05-09', 'closed'],
    ['2025-05-10', 'open'],
    ['2025-12-31', 'open'],
    ['2026-01-01', 'open'],
    ['2026-02-22', 'open'],
    ['2026-02-23', 'closed'],
  ])('%s is %s', (date, status) => {
    expect(seasonStatus(applyOrders(r, []), date)).toBe(status);
  });
  it('a catch in the closed season may not be kept, with the reason', () => {
    expect(codes(r, fish('2026-03-01'))).toEqual({ legal: false, codes: ['closed_season'] });
  });
  it('catch-and-release periods win over the open season', () => {
    const bass = rule({ openSeasons: [{ from: '2025-05-24', to: '2026-02-22' }], releaseOnlyPeriods: [{ from: '2025-05-10', to: '2025-05-23' }] });
    expect(codes(bass, fish('2025-05-15'))).toEqual({ legal: false, codes: ['release_only'] });
    expect(codes(bass, fish('2025-05-24'))).toEqual({ legal: true, codes: [] });
  });
  it('no season in the data: cannot tell', () => {
    expect(codes(rule({}), fish('2025-06-01'))).toEqual({ legal: null, codes: ['season_unknown'] });
  });
});

describe('length rules (Lake of the Woods walleye: release 19.5–28", one over 28"; minimum; maximum)', () => {
  const open = [{ from: '2025-01-01', to: '2025-12-31' }];
  const slot = rule({ openSeasons: open, slotFromIn: 19.5, slotToIn: 28 });
  it.each([
    [slot, 19.4, true, []],
    [slot, 19.5, false, ['in_protected_slot']],
    [slot, 24, false, ['in_protected_slot']],
    [slot, 28, false, ['in_protected_slot']],
    [slot, 28.1, true, []],
    [rule({ openSeasons: open, minLengthIn: 15 }), 14.9, false, ['under_minimum']],
    [rule({ openSeasons: open, minLengthIn: 15 }), 15, true, []],
    [rule({ openSeasons: open, maxLengthIn: 20 }), 20.5, false, ['over_maximum']],
    [rule({ openSeasons: open, minLengthIn: 15 }), null, null, ['length_unknown']],
  ] as const)('rule %#: %s" → legal %s', (r, length, legal, expected) => {
    expect(codes(r, fish('2025-06-01', length))).toEqual({ legal, codes: expected });
  });
});

describe('one over X (Minnesota walleye: not more than one over 20")', () => {
  const r = rule({ openSeasons: [{ from: '2025-05-10', to: '2026-02-22' }], dailyBag: 6, oneOverIn: 20, oneOverCount: 1 });
  it.each([
    ['first fish over 20"', 22, kept(2, 16), true, []],
    ['second fish over 20"', 22, [...kept(1, 16), ...kept(1, 21)], false, ['one_over_exceeded']],
    ['fish of exactly 20" after one over', 20, kept(1, 25), true, []],
    ['fish under 20" after one over', 18, kept(1, 25), true, []],
  ] as const)('%s', (_name, length, k, legal, expected) => {
    expect(codes(r, fish('2025-06-01', length), [...k])).toEqual({ legal, codes: expected });
  });
});

describe('daily and combined bag (walleye + sauger 6 combined, Lake of the Woods: at most 4 walleye)', () => {
  const walleye = rule({ openSeasons: [{ from: '2025-05-10', to: '2026-04-14' }], dailyBag: 4, combinedGroup: 'walleye-sauger', combinedBag: 6 });
  const sauger = rule({ openSeasons: [{ from: '2025-05-10', to: '2026-04-14' }], dailyBag: 6, combinedGroup: 'walleye-sauger', combinedBag: 6 });
  it.each([
    ['4th walleye', walleye, fish('2025-06-01', 15), kept(3, 15, WALLEYE, 'walleye-sauger'), true, []],
    ['5th walleye', walleye, fish('2025-06-01', 15), kept(4, 15, WALLEYE, 'walleye-sauger'), false, ['daily_bag_exceeded']],
    ['sauger after 4 walleye + 1 sauger', sauger, fish('2025-06-01', 13, SAUGER), [...kept(4, 15, WALLEYE, 'walleye-sauger'), ...kept(1, 13, SAUGER, 'walleye-sauger')], true, []],
    [
      '7th fish of the group',
      sauger,
      fish('2025-06-01', 13, SAUGER),
      [...kept(4, 15, WALLEYE, 'walleye-sauger'), ...kept(2, 13, SAUGER, 'walleye-sauger')],
      false,
      ['combined_bag_exceeded'],
    ],
    ['a catch of count 2 over the bag', walleye, fish('2025-06-01', 15, WALLEYE, 2), kept(3, 15, WALLEYE, 'walleye-sauger'), false, ['daily_bag_exceeded']],
    ['other species do not count', walleye, fish('2025-06-01', 15), kept(10, 8, 'perch'), true, []],
  ] as const)('%s', (_name, r, f, k, legal, expected) => {
    expect(codes(r, f, [...k])).toEqual({ legal, codes: expected });
  });
});

describe('emergency orders override a date range', () => {
  const r = rule({ openSeasons: [{ from: '2025-05-10', to: '2026-02-22' }], dailyBag: 6 });
  const order = (overrides: Order['overrides'], startsOn = '2025-07-01', endsOn = '2025-07-31'): Order => ({
    id: 'o',
    speciesId: WALLEYE,
    zoneId: null,
    startsOn,
    endsOn,
    reason: 'Hooking mortality in warm water',
    overrides,
    isActive: true,
  });
  it.each([
    ['closure', order({ closed: true }), fish('2025-07-10'), [], false, ['closed_season']],
    ['catch-and-release only', order({ releaseOnly: true }), fish('2025-07-10'), [], false, ['release_only']],
    ['bag cut to 2', order({ dailyBag: 2 }), fish('2025-07-10'), kept(2), false, ['daily_bag_exceeded']],
    ['minimum added', order({ minLengthIn: 18 }), fish('2025-07-10', 17), [], false, ['under_minimum']],
  ] as const)('%s', (_name, o, f, k, legal, expected) => {
    const verdict = evaluateKeep(applyOrders(r, [o]), f, [...k]);
    expect({ legal: verdict.legalToKeep, codes: verdict.reasons.map((x) => x.code) }).toEqual({ legal, codes: expected });
    expect(verdict.reasons[0]!.detail).toContain('Hooking mortality');
  });
});

describe('past dates: the version in force then', () => {
  const v = (version: number, effectiveFrom: string, isActive = true) => ({ version, effectiveFrom, isActive });
  const versions = [v(1, '2025-03-01'), v(2, '2025-07-15'), v(3, '2025-09-01', false)];
  it.each([
    ['2025-02-28', undefined],
    ['2025-03-01', 1],
    ['2025-07-14', 1],
    ['2025-07-15', 2],
    ['2025-10-01', 2], // version 3 is deactivated
  ])('%s → version %s', (date, expected) => {
    expect(versionInForce(versions, date)?.version).toBe(expected);
  });
});

describe('most specific area wins, per species', () => {
  const version = (speciesId: string, zoneId: string | null, dailyBag: number): RuleVersion => ({
    ...rule({ dailyBag }),
    id: `${speciesId}-${zoneId}`,
    speciesId,
    zoneId,
    version: 1,
    effectiveFrom: '2025-03-01',
    isActive: true,
  });
  it('a water body rule replaces the statewide one for its species only', () => {
    const areas = [
      { zoneId: null, level: 'statewide' as const, areaSqDeg: 30 },
      { zoneId: 'low', level: 'water_body' as const, areaSqDeg: 0.3 },
    ];
    const result = rulesInForce(areas, [version(WALLEYE, null, 6), version(WALLEYE, 'low', 4), version('perch', null, 20)], '2025-06-01');
    expect(result.get(WALLEYE)!.rule.dailyBag).toBe(4);
    expect(result.get(WALLEYE)!.area.zoneId).toBe('low');
    expect(result.get('perch')!.rule.dailyBag).toBe(20);
  });
});

describe('dates', () => {
  it.each([
    ['2025-02-28', 3, 1, 2024],
    ['2025-03-01', 3, 1, 2025],
    ['2026-03-31', 4, 1, 2025],
    ['2026-04-01', 4, 1, 2026],
  ])('%s with a year from %s/%s is license year %s', (date, m, d, year) => {
    expect(licenseYearOf(date, m, d)).toBe(year);
  });
  it('local date of an instant', () => {
    expect(localDate(new Date('2025-06-01T03:00:00Z'), 'America/Chicago')).toBe('2025-05-31');
  });
});
