import { serviceDeps } from '../../core/service-deps.js';
import type { AppDeps } from '../../core/app-deps.js';
import { pendingEvents } from '../events/events.stats.service.js';
import { logOverview, mostLoggedSpecies } from '../fishing-log/fishing-log.stats.service.js';
import { mostHelpfulReports, pendingFishingReports } from '../fishing-reports/fishing-reports.stats.service.js';
import { PAYMENT_KINDS, paymentsOf, type PaymentKind, type RevenuePeriod } from '../payments/index.js';
import { regulationDataWarnings } from '../regulations/index.js';
import { popularPosts, socialOverview } from '../social/social.stats.service.js';
import { mostActiveSpots } from '../spots/spots.stats.service.js';
import { busiestTournaments, pendingTournamentWork } from '../tournaments/tournaments.stats.service.js';
import { userGrowth as usersPerPeriod, usersOverview } from '../users/users.stats.service.js';
import { DashboardErrors } from './dashboard.errors.js';
import { periodStarts, type Interval } from './dashboard.repository.js';
import { IntervalEnum } from '../../core/http/enums.js';

/**
 * The administration dashboard: figures read from the modules that own them, through their public
 * files (`stats.service.ts`, the payments service). Nothing here reads another module's tables.
 */

const DAY = 86_400_000;
/** Most periods one request may span, per interval. */
export const MAX_PERIODS: Readonly<Record<Interval, number>> = { day: 400, week: 260, month: 120 };
/** Longest range of the popular lists. */
export const MAX_POPULAR_DAYS = 400;

function periodsSpanned(from: Date, to: Date, interval: Interval): number {
  if (interval === 'month') return (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + (to.getUTCMonth() - from.getUTCMonth()) + 1;
  const length = interval === 'day' ? DAY : 7 * DAY;
  return Math.ceil((to.getTime() - from.getTime()) / length) + 1;
}

/** 400 when `from` is not before `to`, or the range spans more periods than the interval allows. */
export function checkRange(from: Date, to: Date, interval: Interval): void {
  if (from.getTime() >= to.getTime()) throw DashboardErrors.rangeReversed();
  const periods = periodsSpanned(from, to, interval);
  if (periods > MAX_PERIODS[interval]) throw DashboardErrors.rangeTooLarge(interval, MAX_PERIODS[interval], periods);
}

interface Money {
  payments: number;
  grossCents: number;
  refundedCents: number;
  netCents: number;
}
const zero = (): Money => ({ payments: 0, grossCents: 0, refundedCents: 0, netCents: 0 });
function add(into: Money, row: Money): void {
  into.payments += row.payments;
  into.grossCents += row.grossCents;
  into.refundedCents += row.refundedCents;
  into.netCents += row.netCents;
}

/** Succeeded payments in [from, to), per currency, refunds subtracted. */
function byCurrency(rows: RevenuePeriod[]) {
  const totals = new Map<string, Money>();
  for (const row of rows) {
    const money = totals.get(row.currency) ?? zero();
    add(money, row);
    totals.set(row.currency, money);
  }
  return [...totals.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([currency, money]) => ({ currency, ...money }));
}

export async function overview(deps: AppDeps, now: Date) {
  const services = serviceDeps(deps);
  const payments = paymentsOf(deps);
  const [users, log, social, tournaments, events, fishingReports, revenue7, revenue30, regulationData] = await Promise.all([
    usersOverview(services, now),
    logOverview(services, now),
    socialOverview(services, now),
    pendingTournamentWork(services),
    pendingEvents(services),
    pendingFishingReports(services),
    payments.revenueByPeriod(new Date(now.getTime() - 7 * DAY), now, 'month'),
    payments.revenueByPeriod(new Date(now.getTime() - 30 * DAY), now, 'month'),
    regulationDataWarnings(services, now),
  ]);
  const { activeBans, ...userFigures } = users;
  return {
    generatedAt: now.toISOString(),
    users: userFigures,
    entries: log.entries,
    catches: log.catches,
    posts: social.posts,
    pendingModeration: {
      posts: social.pendingPosts,
      comments: social.pendingComments,
      fishingReports,
      total: social.pendingPosts + social.pendingComments + fishingReports,
    },
    openReports: social.openReports,
    pending: { tournaments: tournaments.tournaments, events, organizerApplications: tournaments.organizerApplications },
    activeBans,
    payments: { last7Days: byCurrency(revenue7), last30Days: byCurrency(revenue30) },
    regulationData,
  };
}

export async function userGrowth(deps: AppDeps, from: Date, to: Date, interval: Interval) {
  checkRange(from, to, interval);
  const periods = await usersPerPeriod(serviceDeps(deps), from, to, interval);
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    interval: IntervalEnum.toApi(interval),
    totals: { newUsers: periods.reduce((n, p) => n + p.newUsers, 0) },
    periods,
  };
}

export async function revenue(deps: AppDeps, from: Date, to: Date, interval: Interval, currency: string, kind: PaymentKind | undefined) {
  checkRange(from, to, interval);
  const [starts, rows] = await Promise.all([periodStarts(deps.database.db, from, to, interval), paymentsOf(deps).revenueByPeriod(from, to, interval, kind)]);
  const kinds = kind ? [kind] : [...PAYMENT_KINDS];
  const periods = new Map(starts.map((start) => [start, { periodStart: start, ...zero(), byKind: new Map(kinds.map((k) => [k, zero()])) }]));
  const totals = zero();
  for (const row of rows) {
    if (row.currency !== currency) continue;
    const period = periods.get(row.periodStart);
    if (!period) continue;
    add(period, row);
    add(period.byKind.get(row.kind)!, row);
    add(totals, row);
  }
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    interval: IntervalEnum.toApi(interval),
    currency,
    totals,
    periods: [...periods.values()].map((p) => ({ ...p, byKind: [...p.byKind.entries()].map(([k, money]) => ({ kind: k, ...money })) })),
  };
}

export async function popular(deps: AppDeps, from: Date, to: Date, limit: number) {
  if (from.getTime() >= to.getTime()) throw DashboardErrors.rangeReversed();
  const days = Math.ceil((to.getTime() - from.getTime()) / DAY);
  if (days > MAX_POPULAR_DAYS) throw DashboardErrors.rangeTooLarge('day', MAX_POPULAR_DAYS, days);
  const services = serviceDeps(deps);
  const [mostLikedPosts, mostCommentedPosts, species, spots, reports, tournaments] = await Promise.all([
    popularPosts(services, 'likes', from, to, limit),
    popularPosts(services, 'comments', from, to, limit),
    mostLoggedSpecies(services, from, to, limit),
    mostActiveSpots(services, from, to, limit),
    mostHelpfulReports(services, from, to, limit),
    busiestTournaments(services, from, to, limit),
  ]);
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    mostLikedPosts: mostLikedPosts.map(({ count, ...p }) => ({ ...p, likesInPeriod: count })),
    mostCommentedPosts: mostCommentedPosts.map(({ count, ...p }) => ({ ...p, commentsInPeriod: count })),
    mostLoggedSpecies: species,
    mostActiveSpots: spots,
    mostHelpfulFishingReports: reports,
    busiestTournaments: tournaments,
  };
}
