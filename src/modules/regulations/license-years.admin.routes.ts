import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { serviceDeps } from '../../core/service-deps.js';
import { auditContextOf } from '../../core/audit/context.js';
import { errorResponses } from '../../core/http/schemas.js';
import { importLicenseYears, LicenseYearFile } from './license-years.js';
import { Reason } from './regulations.admin.schemas.js';
import { RegulationErrors } from './regulations.errors.js';

const ImportResult = Type.Object(
  {
    dryRun: Type.Boolean({ description: 'true: checked and compared, nothing written' }),
    licenseYears: Type.Array(
      Type.Object(
        {
          jurisdiction: Type.String({ examples: ['US-MN'] }),
          year: Type.Integer({ examples: [2026] }),
          startsOn: Type.String({ examples: ['2026-03-01'] }),
          endsOn: Type.String({ examples: ['2027-02-28'] }),
          waters: Type.Integer({ description: 'Waters the file names for this jurisdiction (new or known)' }),
          rules: Type.Integer({ description: 'Rule entries (versions) of this jurisdiction in the file' }),
          previousYear: Type.Union([Type.Integer(), Type.Null()], { description: 'The license year compared with (null: the first one we have)' }),
          added: Type.Array(Type.String(), { description: 'Rules (species and where) the previous year did not have', examples: [['Walleye, in Mille Lacs Lake']] }),
          removed: Type.Array(Type.String(), { description: 'Rules of the previous year the file does not have' }),
          changed: Type.Array(
            Type.Object(
              {
                rule: Type.String({ examples: ['Walleye, statewide'] }),
                fields: Type.Array(Type.Object({ field: Type.String({ examples: ['dailyBag'] }), from: Type.Unknown(), to: Type.Unknown() }, { additionalProperties: false })),
              },
              { additionalProperties: false },
            ),
            { description: 'Per rule, the limits and seasons that differ (the previous year’s version in force at its end against the file’s last version)' },
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/** POST /api/admin/regulations/license-years: a new license year loaded from a file, without code. */
export const licenseYearsAdminRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const services = serviceDeps(deps);
  app.post(
    '/api/admin/regulations/license-years',
    {
      config: { access: { permission: 'Regulations.Edit' } },
      schema: {
        operationId: 'adminImportRegulationLicenseYears',
        tags: ['admin: regulations'],
        summary: 'Load license years from a file (the format of reference-data/regulations/rules-<year>.json)',
        description:
          'The body is a license-year file as documented in reference-data/README.md: license years (one per jurisdiction), the special waters it needs, and rules per species. ' +
          'It is validated as a whole (400 `regulations.invalid_license_year_file` listing every problem with its JSON pointer: schema, known jurisdictions and species, valid polygons, ' +
          'seasons and effective dates starting inside their license year, rule consistency); 409 `regulations.license_year_exists` when one of its years is loaded already. ' +
          '`dryRun=true` only answers what differs from each jurisdiction’s previous license year (200). Otherwise it is written in one transaction, ' +
          'audit-logged with `reason` (required), and answers 201 with the same differences. The CLI does the same: `fishlog regulations import <file.json> [--dry-run]`.',
        querystring: Type.Object(
          { dryRun: Type.Optional(Type.Boolean({ default: false, description: 'Check and compare only' })), reason: Type.Optional(Reason) },
          { additionalProperties: false },
        ),
        body: LicenseYearFile,
        response: { 200: ImportResult, 201: ImportResult, ...errorResponses(400, 409) },
      },
    },
    async (request, reply) => {
      const dryRun = request.query.dryRun ?? false;
      if (!dryRun && !request.query.reason) throw RegulationErrors.reasonRequired();
      const result = await importLicenseYears(services, auditContextOf(request), request.body, { dryRun, reason: request.query.reason ?? null });
      return reply.code(dryRun ? 200 : 201).send(result);
    },
  );
};
