import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { listenWhileServing } from '../../core/db/listen.js';
import { principalOf } from '../../core/access/access.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { fishingLogCatchSource, type CatchSource } from './catch-source.js';
import * as ma from './master-angler.service.js';
import {
  ByLocationQuery,
  CatchCheck,
  CheckQuery,
  ProgramView,
  Progress,
  ProgressQuery,
  ResubmitBody,
  RulesAtPlace,
  StateParams,
  StatePrograms,
  SubmissionsQuery,
  Submission,
  SubmitBody,
} from './regulations.schemas.js';
import { RegulationErrors } from './regulations.errors.js';
import * as service from './regulations.service.js';
import { regulationDataWarnings } from './stats.service.js';
import { CategoryEnum } from './regulations.schemas.js';

export interface RegulationsRouteOptions {
  deps: AppDeps;
  /** The fishing log, as the regulations module sees it (tests may pass another). */
  catchSource?: CatchSource;
}

/** /api/regulations: rules by location, catch checks, Master Angler programs and submissions. */
export const regulationsRoutes: FastifyPluginAsyncTypebox<RegulationsRouteOptions> = async (app, { deps, catchSource = fishingLogCatchSource }) => {
  const db = deps.database.db;
  const now = () => new Date(deps.now());
  // The Master Angler minimums stay cached while this server hears their changes (catch writes check them).
  listenWhileServing(app, deps.database.pool, ma.listenForMasterAnglerChanges);
  // Operators hear at start which states' rules end soon or have ended (lookups then answer Outdated).
  app.addHook('onReady', async () => {
    const warnings = await regulationDataWarnings(db, now()).catch((error: unknown) => {
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
  for (const schema of [RulesAtPlace, CatchCheck, ProgramView, StatePrograms, Submission, Progress]) app.addSchema(schema);
  const tags = ['regulations'];
  const maTags = ['regulations: master angler'];

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
      return service.rulesAt(db, { lat: q.lat, lon: q.lon, date: q.date, species: q.species, state: q.state }, now);
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
          '409 `regulations.catch_without_location` when neither the catch nor its entry has a place.',
        querystring: CheckQuery,
        response: { 200: Type.Ref('CatchRegulationCheck'), ...errorResponses(403, 404, 409) },
      },
    },
    async (request) => service.checkCatch(db, catchSource, principalOf(request).userId, request.query.catchId),
  );

  app.get(
    '/api/regulations/master-angler/submissions',
    {
      schema: {
        operationId: 'listMyMasterAnglerSubmissions',
        tags: maTags,
        summary: 'Your Master Angler submissions',
        description: 'Newest first, with their status and history. Filters: `status`, `year` (program year).',
        querystring: SubmissionsQuery,
        response: { 200: { ...Type.Array(Type.Ref('MasterAnglerSubmission')), headers: paginationHeaders } },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => ma.listMine(db, principalOf(request).userId, request.query, page)),
  );

  app.post(
    '/api/regulations/master-angler/submissions',
    {
      schema: {
        operationId: 'submitMasterAnglerEntry',
        tags: maTags,
        summary: 'Submit one of your catches to a Master Angler program',
        description:
          'The catch must be yours (403 `regulations.not_your_catch` otherwise; 404/403 as the fishing log when you may not see it) and reach the program’s minimum for its species ' +
          '(409 `regulations.below_program_minimum`, `regulations.species_not_in_program`, `regulations.measure_missing`; `regulations.program_minimums_missing` while the program has no minimums in our data). Species, length, weight, date and water come from the catch; ' +
          'add a photo URL (default: the catch’s first photo) and a witness. One entry per species per program year (409 `regulations.already_submitted`). The entry starts as Submitted.',
        body: SubmitBody,
        response: { 201: Type.Ref('MasterAnglerSubmission'), ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await ma.submit(db, catchSource, principalOf(request), { ...request.body, category: CategoryEnum.fromApi(request.body.category) })),
  );

  app.get(
    '/api/regulations/master-angler/submissions/:id',
    {
      schema: {
        operationId: 'getMyMasterAnglerSubmission',
        tags: maTags,
        summary: 'One of your submissions with its history',
        description: '403 `regulations.submission_not_yours` for another angler’s submission.',
        params: IdParams,
        response: { 200: Type.Ref('MasterAnglerSubmission'), ...errorResponses(403, 404) },
      },
    },
    async (request) => ma.getMine(db, principalOf(request), request.params.id),
  );

  app.post(
    '/api/regulations/master-angler/submissions/:id/resubmit',
    {
      schema: {
        operationId: 'resubmitMasterAnglerEntry',
        tags: maTags,
        summary: 'Resubmit a rejected entry with new evidence (once)',
        description: 'Only a Rejected submission, only once (409 `regulations.resubmission_used`); it becomes Submitted again.',
        params: IdParams,
        body: ResubmitBody,
        response: { 200: Type.Ref('MasterAnglerSubmission'), ...errorResponses(403, 404, 409) },
      },
    },
    async (request) => ma.resubmit(db, principalOf(request), request.params.id, request.body),
  );

  app.get(
    '/api/regulations/master-angler/progress',
    {
      schema: {
        operationId: 'getMasterAnglerProgress',
        tags: maTags,
        summary: 'Your award level per program and year',
        description: 'Counted from approved submissions: distinct species per program year, the level reached and what the next level needs.',
        querystring: ProgressQuery,
        response: { 200: Type.Ref('MasterAnglerProgress') },
      },
    },
    async (request) => ma.progress(db, principalOf(request).userId, request.query.year),
  );

  app.get(
    '/api/regulations/master-angler/:stateId',
    {
      schema: {
        operationId: 'getMasterAnglerPrograms',
        tags: maTags,
        summary: 'Master Angler programs of a state',
        description:
          '`US-MN` or `MN`. Qualifying species with minimum lengths/weights (each with the year it is confirmed for and where it was read), award levels and rules, with the program’s page as source. ' +
          '`dataStatus`: Current, Outdated (some minimums are only known for an earlier year: `dataYear`) or Missing (no minimums yet: submissions are refused with 409 `regulations.program_minimums_missing` until an administrator enters them). 404 for a state we keep no data for.',
        params: StateParams,
        response: { 200: Type.Ref('MasterAnglerStatePrograms'), ...errorResponses(404) },
      },
    },
    async (request) => ma.programsOfState(db, request.params.stateId, now()),
  );
};
