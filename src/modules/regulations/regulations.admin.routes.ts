import { serviceDeps } from '../../core/service-deps.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { lifecycleRoutes } from '../../core/admin/lifecycle.js';
import { auditContextOf } from '../../core/audit/context.js';
import { PATCH_CONSUMES } from '../../core/http/merge-patch.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses, IdParams, Uuid } from '../../core/http/schemas.js';
import {
  AdminEmergencyOrder,
  AdminJurisdiction,
  AdminRuleSet,
  AdminZone,
  CreateJurisdictionBody,
  CreateRuleVersionBody,
  JurisdictionsQuery,
  OrdersQuery,
  Reason,
  RuleSetsQuery,
  UpdateJurisdictionBody,
  ZonesQuery,
} from './regulations.admin.schemas.js';
import { licenseYearsAdminRoutes } from './license-years.admin.routes.js';
import * as admin from './regulations.admin.service.js';
import { ADMIN_TARGETS, createOrder, createZone, setActive, type AdminTarget } from './regulations.admin.service.js';
import { Boundary, DateOnly, EmergencyOrderView } from './regulations.schemas.js';
import * as versions from './rule-versions.js';
import { ZoneKindEnum } from './regulations.schemas.js';

const ActiveState = Type.Object({ id: Uuid, isActive: Type.Boolean(), deactivationReason: Type.Union([Type.String(), Type.Null()]) }, { additionalProperties: false });
const ZoneCreated = Type.Object(
  {
    id: Uuid,
    jurisdictionId: Uuid,
    kind: ZoneKindEnum.output,
    name: Type.String(),
    pointCount: Type.Integer(),
    areaSqDeg: Type.Number(),
    isActive: Type.Boolean(),
  },
  { additionalProperties: false },
);
const square = [
  [-94.2, 46.1],
  [-93.4, 46.1],
  [-93.4, 46.45],
  [-94.2, 46.45],
  [-94.2, 46.1],
];

/** /api/admin/regulations: zones, emergency orders, deactivation of every kind of record (Master Angler programs and submissions: src/modules/master-angler). */
export const regulationsAdminRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const db = deps.database.db;
  const services = serviceDeps(deps);
  for (const schema of [AdminJurisdiction, AdminZone, AdminRuleSet, AdminEmergencyOrder]) app.addSchema(schema);
  const tags = ['admin: regulations'];
  const view = { access: { permission: 'Regulations.View' as const } };
  const edit = { access: { permission: 'Regulations.Edit' as const } };
  await app.register(licenseYearsAdminRoutes, { deps });

  app.post(
    '/api/admin/regulations/zones',
    {
      config: edit,
      schema: {
        operationId: 'adminCreateRegulationZone',
        tags,
        summary: 'Upload a zone or special-regulation water (GeoJSON)',
        description: 'The boundary is validated: closed rings, no holes, at most 10,000 positions, no self-intersection (400 `regulations.invalid_boundary` naming the position). Audit-logged with the reason.',
        body: Type.Object(
          {
            jurisdictionId: Uuid,
            kind: ZoneKindEnum.input,
            name: Type.String({ minLength: 1, maxLength: 200 }),
            description: Type.Optional(Type.String({ maxLength: 2000 })),
            sourceUrl: Type.Optional(Type.String({ maxLength: 500, pattern: '^https?://' })),
            boundary: Boundary,
            reason: Reason,
          },
          { additionalProperties: false, examples: [{ jurisdictionId: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21', kind: 'WaterBody', name: 'Mille Lacs Lake', boundary: { type: 'Polygon', coordinates: [square] }, reason: '2025 special regulations' }] },
        ),
        response: { 201: ZoneCreated, ...errorResponses(400) },
      },
    },
    async (request, reply) => reply.code(201).send(await createZone(services, auditContextOf(request), { ...request.body, kind: ZoneKindEnum.fromApi(request.body.kind) })),
  );

  app.post(
    '/api/admin/regulations/emergency-orders',
    {
      config: edit,
      schema: {
        operationId: 'adminCreateEmergencyOrder',
        tags,
        summary: 'Issue an emergency order overriding rules for a date range',
        description: 'Statewide (no zoneId) or for one zone; one species or all (no speciesId). The reason is required and shown to anglers. Audit-logged.',
        body: Type.Object(
          {
            jurisdictionId: Uuid,
            zoneId: Type.Optional(Uuid),
            speciesId: Type.Optional(Uuid),
            startsOn: DateOnly,
            endsOn: DateOnly,
            reason: Reason,
            overrides: EmergencyOrderView.properties.overrides,
            sourceUrl: Type.Optional(Type.String({ maxLength: 500, pattern: '^https?://' })),
          },
          { additionalProperties: false, examples: [{ jurisdictionId: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21', startsOn: '2025-08-01', endsOn: '2025-08-31', reason: 'Drought', overrides: { releaseOnly: true } }] },
        ),
        response: { 201: EmergencyOrderView, ...errorResponses(400) },
      },
    },
    async (request, reply) => reply.code(201).send(await createOrder(services, auditContextOf(request), request.body)),
  );

  // Jurisdictions

  app.get(
    '/api/admin/regulations/jurisdictions',
    {
      config: view,
      schema: {
        operationId: 'adminListRegulationJurisdictions',
        tags,
        summary: 'Jurisdictions with usage statistics',
        description: 'Active and deactivated (filter `active`), searchable by code or name (`q`); each with its counts of zones, rule-set versions, emergency orders, programs and license years. By code.',
        querystring: JurisdictionsQuery,
        response: { 200: { ...Type.Array(Type.Ref('AdminRegulationJurisdiction')), headers: paginationHeaders } },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => admin.listJurisdictions(services, request.query, page)),
  );

  app.post(
    '/api/admin/regulations/jurisdictions',
    {
      config: edit,
      schema: {
        operationId: 'adminCreateRegulationJurisdiction',
        tags,
        summary: 'Add a jurisdiction (state)',
        description: 'ISO 3166-2 code (unique: 409 `regulations.duplicate_jurisdiction`), agency and the first day of its license year. Its outline is a zone of kind `State` (POST /api/admin/regulations/zones). Audit-logged with the reason.',
        body: CreateJurisdictionBody,
        response: { 201: Type.Ref('AdminRegulationJurisdiction'), ...errorResponses(409) },
      },
    },
    async (request, reply) => reply.code(201).send(await admin.createJurisdiction(services, auditContextOf(request), request.body)),
  );

  app.patch(
    '/api/admin/regulations/jurisdictions/:id',
    {
      config: edit,
      schema: {
        operationId: 'adminUpdateRegulationJurisdiction',
        tags,
        summary: 'Change a jurisdiction',
        description: 'JSON Merge Patch (RFC 7396, `application/merge-patch+json`; `application/json` accepted too): changes the given fields, `reason` required (the code is the natural key and stays); from then on the seed leaves the jurisdiction alone. License years already recorded keep their dates. Audit-logged with before/after and the reason.',
        params: IdParams,
        consumes: PATCH_CONSUMES,
        body: UpdateJurisdictionBody,
        response: { 200: Type.Ref('AdminRegulationJurisdiction'), ...errorResponses(404) },
      },
    },
    async (request) => admin.updateJurisdiction(services, auditContextOf(request), request.params.id, request.body),
  );

  // Zones (the upload is above)

  app.get(
    '/api/admin/regulations/zones',
    {
      config: view,
      schema: {
        operationId: 'adminListRegulationZones',
        tags,
        summary: 'Zones, special waters and state outlines with usage statistics',
        description: 'Filters `jurisdictionId`, `kind`, `active`, `q` (name); each with its counts of active rule-set versions and emergency orders. The boundary itself is not listed.',
        querystring: ZonesQuery,
        response: { 200: { ...Type.Array(Type.Ref('AdminRegulationZone')), headers: paginationHeaders } },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => admin.listZones(services, { ...request.query, kind: ZoneKindEnum.fromApi(request.query.kind) }, page)),
  );

  // Rule-set versions

  app.get(
    '/api/admin/regulations/rule-sets',
    {
      config: view,
      schema: {
        operationId: 'adminListRegulationRuleSets',
        tags,
        summary: 'Rule-set versions with usage statistics',
        description:
          'Every version, deactivated ones included unless `active` says otherwise. Filters: `jurisdictionId`, `zoneId` or `statewide=true`, `speciesId`, `licenseYear`, `active`. ' +
          'Grouped by place and species, newest version first; each with the number of versions of its rule and the active emergency orders that can override it.',
        querystring: RuleSetsQuery,
        response: { 200: { ...Type.Array(Type.Ref('AdminRegulationRuleSet')), headers: paginationHeaders } },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => versions.listRuleSets(db, request.query, page)),
  );

  app.post(
    '/api/admin/regulations/rule-sets',
    {
      config: edit,
      schema: {
        operationId: 'adminCreateRegulationRuleSetVersion',
        tags,
        summary: 'Add a new version of a species’ rules (statewide or in a zone)',
        description:
          'Rules are never edited in place. The new version is in force from `effectiveFrom` and closes the current version’s range (its `effectiveTo` becomes the day before), in one transaction ' +
          'that holds the license year’s row lock: concurrent new versions are added one after the other, never overlapping. `effectiveFrom` must be after the current version’s ' +
          '(409 `regulations.version_not_after_current`); the license year containing it is created from the jurisdiction’s license-year start when missing. Inconsistent limits are a 400 ' +
          '`regulations.invalid_rule` naming the fields. Fields left out are "not stated" (null). Audit-logged with the reason.',
        body: CreateRuleVersionBody,
        response: { 201: Type.Ref('AdminRegulationRuleSet'), ...errorResponses(409) },
      },
    },
    async (request, reply) => reply.code(201).send(await versions.createRuleVersion(services, auditContextOf(request), request.body)),
  );

  // Emergency orders (creation is above)

  app.get(
    '/api/admin/regulations/emergency-orders',
    {
      config: view,
      schema: {
        operationId: 'adminListRegulationEmergencyOrders',
        tags,
        summary: 'Emergency orders with usage statistics',
        description: 'Newest start first. Filters `jurisdictionId`, `zoneId`, `speciesId`, `active`, `on` (in force on that date); each with the number of active rule-set versions it overrides.',
        querystring: OrdersQuery,
        response: { 200: { ...Type.Array(Type.Ref('AdminRegulationEmergencyOrder')), headers: paginationHeaders } },
      },
    },
    async (request, reply) => paginate(request, reply, request.query, (page) => admin.listOrders(services, request.query, page)),
  );

  for (const target of Object.keys(ADMIN_TARGETS) as AdminTarget[]) {
    lifecycleRoutes(app, {
      base: `/api/admin/regulations/${target}`,
      access: edit.access,
      tags,
      noun: `regulation ${target}`,
      response: ActiveState,
      deactivationEffect:
        `The ${ADMIN_TARGETS[target].label.toLowerCase()} is out of force, kept for history (never deleted).` +
        (target === 'rule-sets' ? ' The ranges of the rule’s active versions are re-closed (each ends the day before the next starts), under the license year’s row lock.' : ''),
      handler: (request, id, active, reason) => setActive(services, auditContextOf(request), target, id, active, reason),
    });
  }
};
