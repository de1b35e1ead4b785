import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { principalOf } from '../../core/access/access.js';
import { legacyPoint } from '../../core/http/coordinates.js';
import { paginate, paginationHeaders, PageQuery } from '../../core/http/pagination.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { AssignableRoleEnum, Club, ClubDetail, ClubMember, ClubsQuery, CreateClubBody, MemberParams, RoleBody } from './clubs.schemas.js';
import * as service from './clubs.service.js';

/** /api/clubs: fishing clubs, their members and roles. */
export const clubsRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  for (const schema of [Club, ClubMember, ClubDetail]) app.addSchema(schema);
  const tags = ['community: clubs'];
  const detail = { 200: Type.Ref('ClubDetail'), ...errorResponses(400, 401, 403, 404) };

  app.post(
    '/api/clubs',
    {
      preValidation: legacyPoint('lat', 'lon'),
      schema: {
        tags,
        operationId: 'createClub',
        summary: 'Create a club (you become its owner)',
        body: CreateClubBody,
        response: { 201: Type.Ref('ClubDetail'), ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.createClub(services, principalOf(request), request.body)),
  );

  app.get(
    '/api/clubs',
    {
      schema: {
        tags,
        operationId: 'listClubs',
        summary: 'Clubs, featured first',
        description: 'Active clubs (public and private: a private club shows its name and description, not its members). Filters: `q` (text), `state`, `lat`/`lon`/`radiusKm` (nearest first, with `distanceKm`).',
        querystring: ClubsQuery,
        response: { 200: { ...Type.Array(Type.Ref('Club')), headers: paginationHeaders }, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => service.listClubs(services, principalOf(request), request.query, page)),
  );

  app.get(
    '/api/clubs/my-clubs',
    {
      schema: {
        tags,
        operationId: 'listMyClubs',
        summary: 'Your clubs, with your role and status in each',
        querystring: PageQuery,
        response: { 200: { ...Type.Array(Type.Ref('Club')), headers: paginationHeaders }, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => service.myClubs(services, principalOf(request), page)),
  );

  app.get(
    '/api/clubs/:id',
    {
      schema: {
        tags,
        operationId: 'getClub',
        summary: 'One club',
        description: '`members` is null for a private club you are not an active member of. Club admins also see pending requests. A deactivated club is a 403 (except for its owner and administrators); so is a club whose owner\'s account deletion is pending (403 `clubs.not_visible`) until the owner cancels.',
        params: IdParams,
        response: detail,
      },
    },
    async (request) => service.getClub(services, principalOf(request), request.params.id),
  );

  app.post(
    '/api/clubs/:id/join',
    {
      schema: {
        tags,
        operationId: 'joinClub',
        summary: 'Join a club (public: at once; private: a request)',
        description: '409 when you are a member already (clubs.already_member), your request is pending (clubs.request_pending) or the club is deactivated; 403 for a deactivated club you cannot see.',
        params: IdParams,
        response: { ...detail, ...errorResponses(409) },
      },
    },
    async (request) => service.join(services, principalOf(request), request.params.id),
  );

  app.post(
    '/api/clubs/:id/leave',
    {
      schema: {
        tags,
        operationId: 'leaveClub',
        summary: 'Leave a club (or withdraw your request)',
        description: '409 for the owner, who cannot leave (clubs.owner_cannot_leave), and when you are not a member (clubs.not_member).',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Left' }), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await service.leave(services, principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/clubs/:id/members/:userId/approve',
    {
      schema: {
        tags,
        operationId: 'approveClubMember',
        summary: 'Approve a request to join (club admins)',
        params: MemberParams,
        response: { ...detail, 409: Type.Ref('Problem') },
      },
    },
    async (request) => service.approveMember(services, principalOf(request), request.params.id, request.params.userId),
  );

  app.delete(
    '/api/clubs/:id/members/:userId',
    {
      schema: {
        tags,
        operationId: 'removeClubMember',
        summary: 'Remove a member or decline a request (club admins)',
        description: 'A club admin is removed only by the owner (403 otherwise); the owner never (409 clubs.cannot_remove_owner).',
        params: MemberParams,
        response: { 204: Type.Null({ description: 'Removed' }), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await service.removeMember(services, principalOf(request), request.params.id, request.params.userId);
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/api/clubs/:id/members/:userId/role',
    {
      schema: {
        tags,
        operationId: 'setClubMemberRole',
        summary: 'Make an active member an admin or a plain member (the owner)',
        params: MemberParams,
        body: RoleBody,
        response: { ...detail, 409: Type.Ref('Problem') },
      },
    },
    async (request) => service.changeRole(services, principalOf(request), request.params.id, request.params.userId, AssignableRoleEnum.fromApi(request.body.role)),
  );
};
