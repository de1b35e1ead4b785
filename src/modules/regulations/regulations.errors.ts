import { AppError, type FieldError } from '../../core/http/problem.js';

export const RegulationErrors = {
  catchNotFound: (id: string) => new AppError(404, 'regulations.catch_not_found', `No catch has id ${id}. Take the id from your log entry's catches.`),
  unknownState: (code: string) =>
    new AppError(404, 'regulations.jurisdiction_not_found', `No regulations are kept for ${code}. Seeded states: US-MN, US-WI, US-MI, US-OH (and US-IA for Master Angler).`),
  noJurisdictionAt: (lat: number, lon: number) =>
    new AppError(
      404,
      'regulations.no_jurisdiction_here',
      `No state with regulations in our data contains ${lat}, ${lon}. Pass state=US-XX if you know the state (outlines are simplified near borders).`,
    ),
  badDate: (value: string) =>
    new AppError(400, 'regulations.invalid_date', `${value} is not a calendar date; use YYYY-MM-DD.`, { errors: [{ pointer: '/date', in: 'query', detail: 'must be a date YYYY-MM-DD' }] }),
  noLicenseYear: (code: string, date: string) =>
    new AppError(404, 'regulations.no_license_year', `Our data has no ${code} license year containing ${date}: rules are kept from the 2025 license year on.`),
  invalidLicenseYearFile: (errors: FieldError[]) =>
    new AppError(
      400,
      'regulations.invalid_license_year_file',
      `The license-year file has ${errors.length} problem${errors.length === 1 ? '' : 's'} (the format is described in reference-data/README.md): ${errors
        .slice(0, 10)
        .map((e) => `${e.pointer} ${e.detail}`)
        .join('; ')}${errors.length > 10 ? '; …' : ''}.`,
      { errors },
    ),
  licenseYearExists: (code: string, year: number) =>
    new AppError(
      409,
      'regulations.license_year_exists',
      `The ${year} license year of ${code} is loaded already. Change a loaded year through rule-set versions (POST /api/admin/regulations/rule-sets), not a second import.`,
    ),
  reasonRequired: () =>
    new AppError(400, 'regulations.reason_required', 'Say why in the `reason` query parameter (kept in the audit log), or pass dryRun=true to only compare.', {
      errors: [{ pointer: '/reason', in: 'query', detail: 'is required unless dryRun=true' }],
    }),
  catchWithoutPlace: () =>
    new AppError(422, 'regulations.catch_without_location', 'The catch and its log entry have neither coordinates nor a state: add the location to the entry to check the rules.'),
  jurisdictionNotFound: (id: string) => new AppError(404, 'regulations.jurisdiction_not_found', `No jurisdiction has id ${id}.`),
  zoneNotFound: (id: string) => new AppError(404, 'regulations.zone_not_found', `No zone or water body has id ${id}.`),
  ruleSetNotFound: (id: string) => new AppError(404, 'regulations.rule_set_not_found', `No rule-set version has id ${id}.`),
  orderNotFound: (id: string) => new AppError(404, 'regulations.emergency_order_not_found', `No emergency order has id ${id}.`),
  duplicateCode: (code: string) => new AppError(409, 'regulations.duplicate_jurisdiction', `A jurisdiction with code ${code} exists already.`),
  badBoundary: (errors: FieldError[]) => new AppError(400, 'regulations.invalid_boundary', `The boundary is not a valid polygon: ${errors.map((e) => `${e.pointer} ${e.detail}`).join('; ')}.`, { errors }),
  badReference: (pointer: string, detail: string) => new AppError(400, 'regulations.invalid_reference', `${pointer.slice(1)} ${detail}.`, { errors: [{ pointer, in: 'body', detail }] }),
  alreadyInState: (what: string, id: string, active: boolean) =>
    new AppError(409, active ? 'regulations.already_active' : 'regulations.already_inactive', `${what} ${id} is already ${active ? 'active' : 'deactivated'}.`),
  invalidRule: (errors: FieldError[]) =>
    new AppError(400, 'regulations.invalid_rule', `The rule is not consistent: ${errors.map((e) => `${e.pointer.slice(1)} ${e.detail}`).join('; ')}.`, { errors }),
  versionNotAfterCurrent: (current: { id: string; version: number; effectiveFrom: string }, requested: string) =>
    new AppError(
      409,
      'regulations.version_not_after_current',
      `Version ${current.version} (${current.id}) is in force from ${current.effectiveFrom}; a new version must start after it (got ${requested}). To withdraw a version, deactivate it.`,
    ),
  versionClash: (a: { version: number }, b: { version: number }, from: string) =>
    new AppError(409, 'regulations.version_clash', `Versions ${a.version} and ${b.version} would both start on ${from}; deactivate one of them first.`),
};
