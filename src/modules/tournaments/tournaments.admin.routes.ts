import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import type { Permission } from '../../core/access/permissions.js';
import { auditContextOf } from '../../core/audit/context.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import * as admin from './tournaments.admin.service.js';
import { AdminOrganizer, VerifyOrganizerBody } from './organizers.schemas.js';
import { AdminOrganizersQuery, AdminReasonBody, AdminTournament, AdminTournamentsQuery } from './tournaments.schemas.js';

/**
 * /api/admin/tournaments and /api/admin/organizers: review queues and decisions, gated by the
 * Tournaments.* and Organizers.* permissions, each decision with a reason in the audit log.
 */
export const tournamentsAdminRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  app.addSchema(AdminTournament);
  app.addSchema(AdminOrganizer);
  const tags = ['admin: tournaments'];
  const access = (permission: Permission) => ({ access: { permission } });

  app.get(
    '/api/admin/tournaments',
    {
      config: access('Tournaments.View'),
      schema: {
        tags,
        operationId: 'adminListTournaments',
        summary: 'Tournaments for review, with usage statistics',
        description: 'By default the ones awaiting approval (`status` to see others), by start time. Filters: `organizerId`, `state`, `q`. Each with its registrations and submissions counts.',
        querystring: AdminTournamentsQuery,
        response: { 200: { ...Type.Array(Type.Ref('AdminTournament')), headers: paginationHeaders } },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => admin.listTournaments(services, request.query, page)),
  );

  app.get(
    '/api/admin/tournaments/:id',
    {
      config: access('Tournaments.View'),
      schema: {
        tags,
        operationId: 'adminGetTournament',
        summary: 'One tournament with usage statistics',
        params: IdParams,
        response: { 200: Type.Ref('AdminTournament'), ...errorResponses(404) },
      },
    },
    async (request) => admin.getTournament(services, request.params.id),
  );

  const tournamentDecisions: Array<{ path: string; decision: 'approve' | 'reject' | 'suspend' | 'reinstate'; permission: Permission; operationId: string; summary: string; description: string }> = [
    {
      path: 'approve',
      decision: 'approve',
      permission: 'Tournaments.Approve',
      operationId: 'adminApproveTournament',
      summary: 'Approve a tournament',
      description: 'PendingApproval → Approved (InProgress when it has already started); the organizer must be Verified. Moderators need an explicit grant.',
    },
    { path: 'reject', decision: 'reject', permission: 'Tournaments.Reject', operationId: 'adminRejectTournament', summary: 'Reject a tournament', description: 'PendingApproval → Rejected; the organizer sees the reason and may resubmit.' },
    {
      path: 'suspend',
      decision: 'suspend',
      permission: 'Tournaments.Suspend',
      operationId: 'adminSuspendTournament',
      summary: 'Suspend a tournament',
      description: 'Hidden from lists, registrations closed; its registrants still see it.',
    },
    { path: 'reinstate', decision: 'reinstate', permission: 'Tournaments.Suspend', operationId: 'adminReinstateTournament', summary: 'Lift a suspension', description: 'Back to the status it had.' },
  ];
  for (const d of tournamentDecisions) {
    app.post(
      `/api/admin/tournaments/:id/${d.path}`,
      {
        config: access(d.permission),
        schema: {
          tags,
          operationId: d.operationId,
          summary: d.summary,
          description: `${d.description} A reason is required; audit-logged. 409 from any other status.`,
          params: IdParams,
          body: AdminReasonBody,
          response: { 200: Type.Ref('AdminTournament'), ...errorResponses(404, 409) },
        },
      },
      async (request) => admin.decideTournament(services, auditContextOf(request), request.params.id, d.decision, request.body.reason),
    );
  }

  app.get(
    '/api/admin/organizers',
    {
      config: access('Organizers.View'),
      schema: {
        tags,
        operationId: 'adminListOrganizers',
        summary: 'Organizer applications and profiles',
        description: 'By default the pending applications, oldest first (`status` to see others); `q` searches name and e-mail. Each with its tournaments and registrations counts.',
        querystring: AdminOrganizersQuery,
        response: { 200: { ...Type.Array(Type.Ref('AdminTournamentOrganizer')), headers: paginationHeaders } },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => admin.listOrganizers(services, request.query, page)),
  );

  app.get(
    '/api/admin/organizers/:id',
    {
      config: access('Organizers.View'),
      schema: {
        tags,
        operationId: 'adminGetOrganizer',
        summary: 'One organizer with usage statistics',
        params: IdParams,
        response: { 200: Type.Ref('AdminTournamentOrganizer'), ...errorResponses(404) },
      },
    },
    async (request) => admin.getOrganizer(services, request.params.id),
  );

  app.post(
    '/api/admin/organizers/:id/verify',
    {
      config: access('Organizers.Verify'),
      schema: {
        tags,
        operationId: 'adminVerifyOrganizer',
        summary: 'Verify an organizer',
        description: 'Pending → Verified; `allowPayments` decides whether paid tournaments are allowed (default: what they asked for). Reason required; audit-logged.',
        params: IdParams,
        body: VerifyOrganizerBody,
        response: { 200: Type.Ref('AdminTournamentOrganizer'), ...errorResponses(404, 409) },
      },
    },
    async (request) => admin.decideOrganizer(services, auditContextOf(request), request.params.id, 'verify', request.body),
  );

  const organizerDecisions: Array<{ path: 'reject' | 'suspend' | 'reinstate'; permission: Permission; operationId: string; summary: string; description: string }> = [
    { path: 'reject', permission: 'Organizers.Verify', operationId: 'adminRejectOrganizer', summary: 'Reject an organizer application', description: 'Pending → Rejected; they may apply again.' },
    {
      path: 'suspend',
      permission: 'Organizers.Suspend',
      operationId: 'adminSuspendOrganizer',
      summary: 'Suspend an organizer',
      description: 'Verified → Suspended: no new tournaments or sponsors, and registrations of their tournaments that have not started are closed.',
    },
    {
      path: 'reinstate',
      permission: 'Organizers.Suspend',
      operationId: 'adminReinstateOrganizer',
      summary: 'Reinstate a suspended organizer',
      description: 'Suspended → Verified; registrations the suspension closed reopen.',
    },
  ];
  for (const d of organizerDecisions) {
    app.post(
      `/api/admin/organizers/:id/${d.path}`,
      {
        config: access(d.permission),
        schema: {
          tags,
          operationId: d.operationId,
          summary: d.summary,
          description: `${d.description} Reason required; audit-logged. 409 from any other status.`,
          params: IdParams,
          body: AdminReasonBody,
          response: { 200: Type.Ref('AdminTournamentOrganizer'), ...errorResponses(404, 409) },
        },
      },
      async (request) => admin.decideOrganizer(services, auditContextOf(request), request.params.id, d.path, request.body),
    );
  }
};
