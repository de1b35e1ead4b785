import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { lifecycleRoutes } from '../../core/admin/lifecycle.js';
import { auditContextOf } from '../../core/audit/context.js';
import { PATCH_CONSUMES } from '../../core/http/merge-patch.js';
import { listQuery, paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses, IdParams, Uuid } from '../../core/http/schemas.js';
import * as maAdmin from './master-angler.admin.service.js';
import * as ma from './master-angler.service.js';
import {
  AdminProgram,
  createProgramFromApi,
  CreateProgramBody,
  DecisionBody,
  ProgramRevision,
  ProgramsQuery,
  ProgramView,
  ReasonBody,
  ReviewQuery,
  ReviewSubmission,
  Submission,
  UpdateProgramBody,
} from './master-angler.schemas.js';

const ActiveState = Type.Object({ id: Uuid, isActive: Type.Boolean(), deactivationReason: Type.Union([Type.String(), Type.Null()]) }, { additionalProperties: false });

/** /api/admin/regulations: Master Angler programs (with their deactivation) and the review of submissions. */
export const masterAnglerAdminRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  for (const schema of [ReviewSubmission, Submission, ProgramView, AdminProgram, ProgramRevision]) app.addSchema(schema);
  const tags = ['admin: regulations'];
  const view = { access: { permission: 'Regulations.View' as const } };
  const edit = { access: { permission: 'Regulations.Edit' as const } };

  app.get(
    '/api/admin/regulations/programs',
    {
      config: view,
      schema: {
        operationId: 'adminListMasterAnglerPrograms',
        tags,
        summary: 'Master Angler programs with usage statistics',
        description: 'Filters `jurisdictionId`, `active`, `q` (name); each with its active species minimums and its submissions (total, pending, approved, distinct anglers).',
        querystring: ProgramsQuery,
        response: { 200: { ...Type.Array(Type.Ref('AdminMasterAnglerProgram')), headers: paginationHeaders } },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => maAdmin.listPrograms(services, request.query, page)),
  );

  app.post(
    '/api/admin/regulations/programs',
    {
      config: edit,
      schema: {
        operationId: 'adminCreateMasterAnglerProgram',
        tags,
        summary: 'Add a Master Angler program with its species minimums and award levels',
        description:
          'A program is one record across the years, edited with history (revision 1 is written now). The name is unique per jurisdiction (409 `regulations.duplicate_program`). ' +
          'A length program needs `minLengthIn` for each species, a weight program `minWeightLb`, an either program one of them (400 `regulations.invalid_program`). Audit-logged with the reason.',
        body: CreateProgramBody,
        response: { 201: Type.Ref('AdminMasterAnglerProgram'), ...errorResponses(409) },
      },
    },
    async (request, reply) => reply.code(201).send(await maAdmin.createProgram(services, auditContextOf(request), createProgramFromApi(request.body))),
  );

  app.patch(
    '/api/admin/regulations/programs/:id',
    {
      config: edit,
      schema: {
        operationId: 'adminUpdateMasterAnglerProgram',
        tags,
        summary: 'Change a program, its species minimums or award levels',
        description:
          'JSON Merge Patch (RFC 7396, `application/merge-patch+json`; `application/json` accepted too), `reason` required: changes the given fields, `null` clears an optional one; `species` replaces the whole list of minimums (left-out species are deactivated, kept for history). Every change is a new revision holding the program’s full state, ' +
          'with who, when and why (GET …/revisions) and is audit-logged; submissions keep their own measurements. From then on the seed leaves the program alone.',
        params: IdParams,
        consumes: PATCH_CONSUMES,
        body: UpdateProgramBody,
        response: { 200: Type.Ref('AdminMasterAnglerProgram'), ...errorResponses(404, 409) },
      },
    },
    async (request) => maAdmin.updateProgram(services, auditContextOf(request), request.params.id, request.body),
  );

  app.get(
    '/api/admin/regulations/programs/:id/revisions',
    {
      config: view,
      schema: {
        operationId: 'adminListMasterAnglerProgramRevisions',
        tags,
        summary: 'The history of a program',
        description: 'Newest revision first: the program’s full state after each administrative change, who made it, when and why. Programs seeded from the reference data start without revisions.',
        params: IdParams,
        querystring: listQuery({}),
        response: { 200: { ...Type.Array(Type.Ref('MasterAnglerProgramRevision')), headers: paginationHeaders }, ...errorResponses(404) },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => maAdmin.programRevisions(services, request.params.id, page)),
  );

  lifecycleRoutes(app, {
    base: '/api/admin/regulations/programs',
    access: edit.access,
    tags,
    noun: 'regulation programs',
    response: ActiveState,
    deactivationEffect: 'The program is out of force and takes no submissions, kept for history (never deleted).',
    handler: (request, id, active, reason) => maAdmin.setProgramActive(services, auditContextOf(request), id, active, reason),
  });

  app.get(
    '/api/admin/regulations/master-angler/submissions',
    {
      config: view,
      schema: {
        operationId: 'adminListMasterAnglerSubmissions',
        tags,
        summary: 'Master Angler submissions to review',
        description: 'Newest first; filters `status`, `programId`.',
        querystring: ReviewQuery,
        response: { 200: { ...Type.Array(Type.Ref('MasterAnglerSubmissionForReview')), headers: paginationHeaders } },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => ma.listForReview(services, request.query, page)),
  );

  const decisions = [
    ['start-review', 'UnderReview', 'Start reviewing a submission', 'adminStartMasterAnglerReview'],
    ['approve', 'Approved', 'Approve a submission', 'adminApproveMasterAnglerSubmission'],
    ['reject', 'Rejected', 'Reject a submission (reason required)', 'adminRejectMasterAnglerSubmission'],
  ] as const;
  for (const [path, to, summary, operationId] of decisions) {
    app.post(
      `/api/admin/regulations/master-angler/submissions/:id/${path}`,
      {
        config: edit,
        schema: {
          operationId,
          tags,
          summary,
          description: 'Submitted → UnderReview → Approved | Rejected (a Submitted entry may be decided directly). 409 `regulations.invalid_transition` otherwise. Audit-logged; the submitter sees the history.',
          params: IdParams,
          body: to === 'Rejected' ? ReasonBody : DecisionBody,
          response: { 200: Type.Ref('MasterAnglerSubmission'), ...errorResponses(404, 409) },
        },
      },
      async (request) => ma.review(services, auditContextOf(request), request.params.id, to, (request.body as { reason?: string }).reason),
    );
  }
};
