import type { DataProvider } from 'react-admin';
import { FishlogProblem, fishlog, problemText } from './api';

/**
 * react-admin's lists and records over @fishlog/client: every list pages and filters through the
 * API (`page`, `pageSize`, the list's own filters; `X-Total-Count`), never by fetching everything.
 */
const LISTS: Record<string, string> = {
  moderation: '/api/admin/moderation/pending',
  users: '/api/admin/users',
  appeals: '/api/admin/ban-appeals',
  employees: '/api/admin/employees',
  reports: '/api/admin/reports',
  photos: '/api/admin/photos/review',
  rules: '/api/admin/moderation-rules',
  payments: '/api/admin/payments',
  settings: '/api/admin/system-settings',
  jobs: '/api/admin/jobs',
  announcements: '/api/admin/announcements',
  species: '/api/admin/species',
  brands: '/api/admin/brands',
  rods: '/api/admin/gear/rods',
  reels: '/api/admin/gear/reels',
  lines: '/api/admin/gear/lines',
  lures: '/api/admin/gear/lures',
  apparel: '/api/admin/gear/apparel',
  lookups: '/api/admin/lookups/values',
  jurisdictions: '/api/admin/regulations/jurisdictions',
  zones: '/api/admin/regulations/zones',
  'rule-sets': '/api/admin/regulations/rule-sets',
  'emergency-orders': '/api/admin/regulations/emergency-orders',
  programs: '/api/admin/regulations/programs',
  submissions: '/api/admin/regulations/master-angler/submissions',
  events: '/api/admin/events',
  tournaments: '/api/admin/tournaments',
  organizers: '/api/admin/organizers',
  captains: '/api/admin/charter/captains',
  'fishing-reports': '/api/admin/fishing-reports',
  webhooks: '/api/admin/webhooks',
  'account-deletions': '/api/admin/account-deletions',
  spots: '/api/admin/spots',
  clubs: '/api/admin/clubs',
  // Lists under a record: the record's id comes in the list's permanent filter, named as in the path.
  'webhook-deliveries': '/api/admin/webhooks/{webhookId}/deliveries',
  'user-activity': '/api/admin/users/{userId}/activity-timeline',
};
const RECORDS: Record<string, string> = {
  users: '/api/admin/users/{id}',
  payments: '/api/admin/payments/{id}',
  settings: '/api/admin/system-settings/{name}',
  announcements: '/api/admin/announcements/{id}',
  webhooks: '/api/admin/webhooks/{id}',
  // The catalog's and the regulations' records, under their lists (some only changed or deactivated there, never read one by one).
  ...Object.fromEntries(
    ['species', 'brands', 'rods', 'reels', 'lines', 'lures', 'apparel', 'lookups', 'jurisdictions', 'zones', 'rule-sets', 'emergency-orders', 'programs'].map((resource) => [resource, `${LISTS[resource]}/{id}`]),
  ),
};
/** Records whose API path names them by another field than `id` (react-admin's id, in the console's URLs). */
const KEYS: Record<string, string> = { settings: 'name', captains: 'userId', 'account-deletions': 'userId' };
const keyed = (resource: string, record: Record<string, unknown>) =>
  KEYS[resource]
    ? { ...record, id: record[KEYS[resource]] }
    : // A timeline names a ban and its lift by the ban's id: its rows are told apart by kind too.
      resource === 'user-activity'
      ? { ...record, id: `${String(record.kind)}:${String(record.id)}` }
      : record;

/** The error react-admin shows: the problem's title, detail and request id; `status` for checkError. */
export class ConsoleError extends Error {
  readonly status: number;
  readonly problem: unknown;
  constructor(problem: unknown) {
    super(problemText(problem));
    this.status = problem instanceof FishlogProblem ? problem.status : 0;
    this.problem = problem;
  }
}

type Untyped = (path: string, init?: unknown) => Promise<{ data?: unknown; error?: FishlogProblem; response: Response }>;
const get = fishlog.GET as unknown as Untyped;
const post = fishlog.POST as unknown as Untyped;
const patch = fishlog.PATCH as unknown as Untyped;

function pathOf(paths: Record<string, string>, resource: string, what: string): string {
  return paths[resource] ?? unsupported(`${what} ${resource}`);
}

/**
 * The changes a screen makes to a resource's records, each answering as the client does
 * (`{ data }` or `{ error }`, for useApiAction): a new record (POST to the list's path), a change
 * (JSON Merge Patch of the changed fields to the record's path), and deactivation or reactivation
 * with a reason (`POST …/{id}/deactivate|reactivate`: administrative removal is never deletion).
 */
export const changes = {
  create: (resource: string, body: Record<string, unknown>) => post(pathOf(LISTS, resource, 'creating'), { body }),
  update: (resource: string, id: string, body: Record<string, unknown>) => patch(pathOf(RECORDS, resource, 'changing'), { params: { path: { id } }, body }),
  setActive: (resource: string, id: string, active: boolean, reason: string) =>
    post(`${pathOf(RECORDS, resource, 'deactivating')}/${active ? 'reactivate' : 'deactivate'}`, { params: { path: { id } }, body: { reason } }),
};

function cleanFilter(filter: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined && v !== null && v !== ''));
}

function unsupported(what: string): never {
  throw new Error(`${what} is done on its own screen`);
}

export const dataProvider: DataProvider = {
  async getList(resource, params) {
    const path = LISTS[resource];
    if (!path) unsupported(`listing ${resource}`);
    const { page = 1, perPage = 25 } = params.pagination ?? {};
    const query: Record<string, unknown> = { page, pageSize: perPage, ...cleanFilter(params.filter ?? {}) };
    // Date inputs give a day; the API's period bounds are instants (UTC midnight).
    for (const key of ['createdFrom', 'createdTo', 'dueBefore']) if (typeof query[key] === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(query[key])) query[key] = `${query[key]}T00:00:00.000Z`;
    if (resource === 'users' && params.sort?.field && ['createdAt', 'username'].includes(params.sort.field)) {
      query.sort = `${params.sort.order === 'DESC' ? '-' : ''}${params.sort.field}`;
    }
    // A list under a record (`…/{webhookId}/deliveries`) takes the record's id from the filter, not the query.
    const inPath = Object.fromEntries([...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name!, query[name!]]));
    for (const name of Object.keys(inPath)) delete query[name];
    const { data, error, response } = await get(path, { params: { query, path: inPath } });
    if (error) throw new ConsoleError(error);
    const items = (data as Record<string, unknown>[]).map((record) => keyed(resource, record));
    const total = Number(response.headers.get('x-total-count') ?? items.length);
    return { data: items, total } as never;
  },
  async getOne(resource, params) {
    const path = RECORDS[resource];
    if (!path) unsupported(`reading ${resource}`);
    const { data, error } = await get(path, { params: { path: { [KEYS[resource] ?? 'id']: params.id } } });
    if (error) throw new ConsoleError(error);
    return { data: keyed(resource, data as Record<string, unknown>) } as never;
  },
  async getMany(resource, params) {
    const records = await Promise.all(params.ids.map((id) => dataProvider.getOne(resource, { id })));
    return { data: records.map((r) => r.data) };
  },
  getManyReference: () => unsupported('a reference list'),
  create: () => unsupported('creating'),
  update: () => unsupported('updating'),
  updateMany: () => unsupported('updating'),
  delete: () => unsupported('deleting'),
  deleteMany: () => unsupported('deleting'),
};
