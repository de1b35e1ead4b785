import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { errorResponses } from '../../core/http/schemas.js';
import { Growth, GrowthQuery, Overview, Popular, PopularQuery, Revenue, RevenueQuery } from './dashboard.schemas.js';
import * as service from './dashboard.service.js';
import { IntervalEnum } from '../../core/http/enums.js';
import { DEFAULT_PERIOD_DAYS, periodOf } from '../../core/http/period.js';

/** The administration dashboard (Admin and Owner, as the spec's admin routes without a named permission). */
export const dashboardAdminRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const now = () => new Date(deps.now());
  const tags = ['admin: dashboard'];
  const range = `Without from and to: the last ${DEFAULT_PERIOD_DAYS} days. 400 \`dashboard.invalid_range\` when from is not before to; 400 \`dashboard.range_too_large\` beyond ${service.MAX_PERIODS.day} days, ${service.MAX_PERIODS.week} weeks or ${service.MAX_PERIODS.month} months.`;

  app.get(
    '/api/admin/dashboard/overview',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        operationId: 'getDashboardOverview',
        summary: 'Platform totals with their last 7 and 30 days',
        description:
          'Users (by role, new, active = signed in), entries, catches, posts, what waits for a moderator, open reports, tournaments, events and organizer applications ' +
          'awaiting approval, bans in force, and succeeded payments with their revenue per currency (refunds subtracted, integer cents).',
        response: { 200: Overview },
      },
    },
    async () => service.overview(deps, now()),
  );

  app.get(
    '/api/admin/dashboard/analytics/user-growth',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        operationId: 'getDashboardUserGrowth',
        summary: 'New and active users per day, week or month',
        description: `Every period from the one holding \`from\` to the one holding \`to\` is present (zeros included). Active: signed in during the period. ${range}`,
        querystring: GrowthQuery,
        response: { 200: Growth, ...errorResponses(400) },
      },
    },
    async (request) => {
      const { from, to } = periodOf(request.query, deps.now());
      return service.userGrowth(deps, from, to, IntervalEnum.fromApi(request.query.interval ?? 'Day'));
    },
  );

  app.get(
    '/api/admin/dashboard/analytics/revenue',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        operationId: 'getDashboardRevenue',
        summary: 'Revenue per period and payment kind (refunds subtracted, integer cents)',
        description: `Succeeded payments made in [from, to) in one currency (default USD), per period (every period present) and kind, from the payments service. ${range}`,
        querystring: RevenueQuery,
        response: { 200: Revenue, ...errorResponses(400) },
      },
    },
    async (request) => {
      const q = request.query;
      const { from, to } = periodOf(q, deps.now());
      return service.revenue(deps, from, to, IntervalEnum.fromApi(q.interval ?? 'Month'), q.currency ?? 'USD', q.kind);
    },
  );

  app.get(
    '/api/admin/dashboard/analytics/popular',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        operationId: 'getDashboardPopular',
        summary: 'Popular content in a period',
        description:
          'Most liked and most commented published posts (likes and comments given in the period; no post text), most logged species, busiest tournaments (registrations made in the period). ' +
          'Views of spots and fishing reports are not tracked: the spots with the most recent activity (ratings and confirmations) and the reports marked helpful most often stand in. ' +
          `Without from and to: the last ${DEFAULT_PERIOD_DAYS} days. At most ${service.MAX_POPULAR_DAYS} days; 400 when from is not before to.`,
        querystring: PopularQuery,
        response: { 200: Popular, ...errorResponses(400) },
      },
    },
    async (request) => {
      const { from, to } = periodOf(request.query, deps.now());
      return service.popular(deps, from, to, request.query.limit ?? 10);
    },
  );
};
