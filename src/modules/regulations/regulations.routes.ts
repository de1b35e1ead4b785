import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { principalOf } from '../../core/access/access.js';
import { errorResponses } from '../../core/http/schemas.js';
import { fishingLogCatchSource, type CatchSource } from './catch-source.js';
import { ByLocationQuery, CatchCheck, CheckQuery, RulesAtPlace } from './regulations.schemas.js';
import { RegulationErrors } from './regulations.errors.js';
import * as service from './regulations.service.js';
import { regulationDataWarnings } from './regulations.stats.service.js';

export interface RegulationsRouteOptions {
  deps: AppDeps;
  /** The fishing log, as the regulations module sees it (tests may pass another). */
  catchSource?: CatchSource;
}

/** /api/regulations: rules by location and catch checks (Master Angler: src/modules/master-angler). */
export const regulationsRoutes: FastifyPluginAsyncTypebox<RegulationsRouteOptions> = async (app, { deps, catchSource = fishingLogCatchSource }) => {
  const services = serviceDeps(deps);
  const now = () => new Date(deps.now());
  // Operators hear at start which states' rules end soon or have ended (lookups then answer Outdated).
  app.addHook('onReady', async () => {
    const warnings = await regulationDataWarnings(services, now()).catch((error: unknown) => {
      app.log.warn({ err: error }, 'could not check how long the regulation data lasts');
      return [];
    });
    for (const w of warnings) {
      app.log.warn(
        { jurisdiction: w.jurisdiction, licenseYear: w.licenseYear, dataEndsOn: w.dataEndsOn, status: w.status },
        `regulations of ${w.jurisdiction} end with the ${w.licenseYear} license year (${w.dataEndsOn}); import the next year: fishlog regulations import <file.json>`,
      );
    }
  });
  for (const schema of [RulesAtPlace, CatchCheck]) app.addSchema(schema);
  const tags = ['regulations'];

  app.get(
    '/api/regulations/by-location',
    {
      schema: {
        operationId: 'getRegulationsByLocation',
        tags,
        summary: 'Rules in force at a place and date',
        description:
          'The state containing the point (or `state`), the zones and water bodies containing it, and per species the rule of the most specific area that has one ' +
          '(water body, then zone, then statewide), in the version in force on `date` (default: today in the state), with emergency orders applied. ' +
          'Filter with `species`. Every answer carries its source and a disclaimer: check the official booklet. ' +
          'For a date after the newest license year we have, the answer is that year’s rules flagged `dataStatus: Outdated` with a `warning` naming the year and the agency’s page; ' +
          'season status is then Unknown (the seasons shown are of that year). ' +
          '404 `regulations.no_jurisdiction_here` when no seeded state contains the point; 404 `regulations.no_license_year` for dates before our data.',
        querystring: ByLocationQuery,
        response: { 200: Type.Ref('RegulationsAtPlace'), ...errorResponses(404) },
      },
    },
    async (request) => {
      const q = request.query;
      if (q.date && Number.isNaN(Date.parse(`${q.date}T00:00:00Z`))) throw RegulationErrors.badDate(q.date);
      return service.rulesAt(services, { lat: q.lat, lon: q.lon, date: q.date, species: q.species, state: q.state }, now);
    },
  );

  app.get(
    '/api/regulations/check',
    {
      schema: {
        operationId: 'checkCatchAgainstRegulations',
        tags,
        summary: 'May this logged catch be kept?',
        description:
          'Checks a catch you may see against the rules of where (the catch’s or its entry’s coordinates, else its state) and when (local date) it was caught: ' +
          'closed season, catch-and-release period, minimum/maximum length, protected slot, one-over limit, daily bag and combined bag counting the angler’s other kept catches that day. ' +
          '`legal` is Unknown (and `legalToKeep` null) when our data cannot tell: no rule, no length, or a date after the newest license year we have ' +
          '(`dataStatus: Outdated`: the reasons then start with `data_outdated` and give that year’s findings as context). 404 when the catch does not exist, 403 when its entry is not shared with you; ' +
          '422 `regulations.catch_without_location` when neither the catch nor its entry has a place.',
        querystring: CheckQuery,
        response: { 200: Type.Ref('CatchRegulationCheck'), ...errorResponses(403, 404, 422) },
      },
    },
    async (request) => service.checkCatch(services, catchSource, principalOf(request).userId, request.query.catchId),
  );
};
