import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { principalOf } from '../../core/access/access.js';
import { listenWhileServing } from '../../core/db/listen.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { fishingLogCatchSource, type CatchSource } from '../regulations/index.js';
import * as ma from './master-angler.service.js';
import { CategoryEnum, ProgramView, Progress, ProgressQuery, ResubmitBody, StateParams, StatePrograms, Submission, SubmissionsQuery, SubmitBody } from './master-angler.schemas.js';

export interface MasterAnglerRouteOptions {
  deps: AppDeps;
  /** The fishing log, as the Master Angler module sees it (tests may pass another). */
  catchSource?: CatchSource;
}

/** /api/regulations/master-angler: Master Angler programs of a state, your submissions and award progress. */
export const masterAnglerRoutes: FastifyPluginAsyncTypebox<MasterAnglerRouteOptions> = async (app, { deps, catchSource = fishingLogCatchSource }) => {
  const services = serviceDeps(deps);
  const now = () => new Date(deps.now());
  // The Master Angler minimums stay cached while this server hears their changes (catch writes check them).
  listenWhileServing(app, deps.database.pool, ma.masterAnglerCatalogOf(deps).listen);
  for (const schema of [ProgramView, StatePrograms, Submission, Progress]) app.addSchema(schema);
  const maTags = ['regulations: master angler'];

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
    async (request, reply) => paginate(request, reply, request.query, (page) => ma.listMine(services, principalOf(request).userId, request.query, page)),
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
          '(422 `regulations.below_program_minimum`, `regulations.species_not_in_program`, `regulations.measure_missing`; 409 `regulations.program_minimums_missing` while the program has no minimums in our data). Species, length, weight, date and water come from the catch; ' +
          'add a photo URL (default: the catch’s first photo) and a witness. One entry per species per program year (409 `regulations.already_submitted`). The entry starts as Submitted.',
        body: SubmitBody,
        response: { 201: Type.Ref('MasterAnglerSubmission'), ...errorResponses(403, 404, 409, 422) },
      },
    },
    async (request, reply) => reply.code(201).send(await ma.submit(services, catchSource, principalOf(request), { ...request.body, category: CategoryEnum.fromApi(request.body.category) })),
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
    async (request) => ma.getMine(services, principalOf(request), request.params.id),
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
    async (request) => ma.resubmit(services, principalOf(request), request.params.id, request.body),
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
    async (request) => ma.progress(services, principalOf(request).userId, request.query.year),
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
    async (request) => ma.programsOfState(services, request.params.stateId, now()),
  );
};
