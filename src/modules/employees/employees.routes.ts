import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { auditContextOf } from '../../core/audit/context.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses } from '../../core/http/schemas.js';
import { Employee, EmployeesQuery, Grant, HistoryQuery, PermissionBody, RoleBody, UserIdParams } from './employees.schemas.js';
import * as service from './employees.service.js';

export const employeesRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  app.addSchema(Grant);
  app.addSchema(Employee);
  const tags = ['admin: employees'];

  app.get(
    '/api/admin/employees',
    {
      config: { access: 'owner' },
      schema: {
        tags,
        operationId: 'listEmployees',
        summary: 'List admin and moderator employees with their permissions',
        querystring: EmployeesQuery,
        response: { 200: { ...Type.Array(Type.Ref('Employee')), headers: paginationHeaders } },
      },
    },
    async (request, reply) =>
      paginate(request, reply, request.query, (page) =>
        service.listEmployees(services, auditContextOf(request), request.query.role ? { role: request.query.role } : {}, page),
      ),
  );

  app.put(
    '/api/admin/employees/:userId/role',
    {
      config: { access: 'owner' },
      schema: {
        tags,
        operationId: 'setEmployeeRole',
        summary: "Change an employee's role (Admin or Moderator)",
        description: "The Owner's role cannot be changed and the last Admin cannot be demoted (409). Audit-logged.",
        params: UserIdParams,
        body: RoleBody,
        response: { 200: Type.Ref('Employee'), ...errorResponses(404, 409) },
      },
    },
    async (request) => service.changeEmployeeRole(services, auditContextOf(request), request.params.userId, request.body),
  );

  app.post(
    '/api/admin/employees/:userId/permissions',
    {
      config: { access: 'owner' },
      schema: {
        tags,
        operationId: 'setEmployeePermission',
        summary: 'Grant or deny a permission',
        description:
          'Appends to the permission history (nothing is overwritten); the newest entry is in force. `isGranted: false` denies explicitly. ' +
          'Settings.Delete, Permissions.Manage and Employees.Manage belong to the Owner alone (422 `employees.owner_only_permission`). Audit-logged.',
        params: UserIdParams,
        body: PermissionBody,
        response: { 201: Type.Ref('PermissionGrant'), ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.setEmployeePermission(services, auditContextOf(request), request.params.userId, request.body)),
  );

  app.get(
    '/api/admin/employees/:userId/permissions/history',
    {
      config: { access: 'owner' },
      schema: {
        tags,
        operationId: 'listEmployeePermissionHistory',
        summary: "A user's permission history, newest first",
        params: UserIdParams,
        querystring: HistoryQuery,
        response: { 200: { ...Type.Array(Type.Ref('PermissionGrant')), headers: paginationHeaders }, ...errorResponses(404) },
      },
    },
    async (request, reply) =>
      paginate(request, reply, request.query, (page) => service.permissionHistory(services, auditContextOf(request), request.params.userId, page)),
  );
};
