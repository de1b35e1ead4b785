import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './problem.js';
import { Type, type Static, type TProperties, type TObject } from 'typebox';

/**
 * The pagination helper used by every list: `page` (from 1) and `pageSize` (default 20,
 * max 100; larger is a 400), a JSON array body, `X-Total-Count` and an RFC 8288 `Link` header.
 */

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;
/** Deep offsets cost every list branch offset+limit rows: past this, filters are the way. */
export const MAX_PAGE = 10_000;

export const pageProperties = {
  page: Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1, description: `Page number, from 1 (at most ${MAX_PAGE}; narrow the filters to reach further)` }),
  pageSize: Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE, description: `Items per page (1-${MAX_PAGE_SIZE})` }),
};

export const PageQuery = Type.Object(pageProperties, { additionalProperties: false });
export type PageQueryType = Static<typeof PageQuery>;

/** A list's querystring: pagination plus the list's own filters. */
export function listQuery<P extends TProperties>(filters: P): TObject<typeof pageProperties & P> {
  return Type.Object({ ...pageProperties, ...filters }, { additionalProperties: false }) as TObject<typeof pageProperties & P>;
}

export const paginationHeaders = {
  'x-total-count': { type: 'integer', description: 'Total number of items across all pages (a lower bound when X-Total-Count-Exact is false)' },
  'x-total-count-exact': { type: 'boolean', description: 'false when the total was capped (very large lists); the last link is then left out' },
  link: { type: 'string', description: 'RFC 8288 links: first, prev, next, last' },
} as const;

export interface Page {
  page: number;
  pageSize: number;
  limit: number;
  offset: number;
}

export function toPage(query: { page?: number; pageSize?: number }): Page {
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
  return { page, pageSize, limit: pageSize, offset: (page - 1) * pageSize };
}

function pageUrl(request: FastifyRequest, page: number, pageSize: number): string {
  const url = new URL(request.url, 'http://localhost');
  url.searchParams.set('page', String(page));
  url.searchParams.set('pageSize', String(pageSize));
  return `${url.pathname}${url.search}`;
}

/**
 * Sets X-Total-Count and Link on the reply for the given page and total. A list too large to
 * count exactly passes `exact: false` with a lower bound: the header says so and there is no
 * `last` link, `next` is given while the current page is full.
 */
export function setPaginationHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  page: Page,
  total: number,
  options: { exact?: boolean; pageLength?: number } = {},
): void {
  const exact = options.exact ?? true;
  const last = Math.max(1, Math.ceil(total / page.pageSize));
  const links = [`<${pageUrl(request, 1, page.pageSize)}>; rel="first"`];
  if (page.page > 1) links.push(`<${pageUrl(request, exact ? Math.min(page.page - 1, last) : page.page - 1, page.pageSize)}>; rel="prev"`);
  const hasNext = exact ? page.page < last : page.page < last || options.pageLength === page.pageSize;
  if (hasNext) links.push(`<${pageUrl(request, page.page + 1, page.pageSize)}>; rel="next"`);
  if (exact) links.push(`<${pageUrl(request, last, page.pageSize)}>; rel="last"`);
  reply.header('x-total-count', String(total));
  if (!exact) reply.header('x-total-count-exact', 'false');
  reply.header('link', links.join(', '));
}

/** Runs the page query and the count, sets the headers, returns the items. */
export async function paginate<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  query: { page?: number; pageSize?: number },
  fetch: (page: Page) => Promise<{ items: T[]; total: number; exact?: boolean }>,
): Promise<T[]> {
  const page = toPage(query);
  const { items, total, exact } = await fetch(page);
  setPaginationHeaders(request, reply, page, total, { exact: exact ?? true, pageLength: items.length });
  return items;
}

/*
 * Feeds (lists that grow with the whole site) page by key instead of by offset: each page ends
 * with a `next` link carrying an opaque `cursor` (the sort key of the page's last row), and the
 * next page starts strictly after it. A page costs the same at row 10 as at row 10,000,000, and
 * rows inserted meanwhile neither repeat nor skip rows. Feeds send no X-Total-Count (counting
 * them would cost more than the page). `page` keeps working for the first MAX_FEED_OFFSET rows.
 */

/** How far `page`/`pageSize` reach into a feed; beyond, follow the cursor of the next link. */
export const MAX_FEED_OFFSET = 10_000;

/** The sort key of a feed row: its time in microseconds since the epoch (exact) and its id. */
export interface FeedKey {
  micros: string;
  id: string;
}

export interface FeedPage {
  limit: number;
  offset: number;
  /** Rows strictly after this key (newest first: older, or as old with a smaller id). */
  after: FeedKey | undefined;
}

export const feedProperties = {
  ...pageProperties,
  cursor: Type.Optional(
    Type.String({
    minLength: 1,
    maxLength: 128,
    pattern: '^[A-Za-z0-9_-]+$',
    description: 'Where the page starts: copy it from the `next` link of the previous page (opaque). Not combined with `page`.',
    examples: ['djE6MTc2MDAwMDAwMDAwMDAwMDowMTk4ZjJkMC0wMDAwLTcwMDAtODAwMC0wMDAwMDAwMDAwMDA'],
    }),
  ),
};

/** A feed's querystring: page/pageSize or cursor, plus the feed's own filters. */
export function feedQuery<P extends TProperties>(filters: P): TObject<typeof pageProperties & { cursor: typeof feedProperties.cursor } & P> {
  return Type.Object({ ...feedProperties, ...filters }, { additionalProperties: false }) as never;
}

export const feedHeaders = {
  link: { type: 'string', description: 'RFC 8288 links: `first`, and `next` (with a `cursor`) while the page is full. Feeds send no X-Total-Count.' },
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function encodeCursor(key: FeedKey): string {
  return Buffer.from(`v1:${key.micros}:${key.id}`, 'utf8').toString('base64url');
}

const invalidCursor = () =>
  new AppError(400, 'pagination.invalid_cursor', 'The cursor is not one this API handed out; start again from the first page and follow the `next` link of the Link header.', {
    errors: [{ pointer: '/cursor', in: 'query', detail: 'not a cursor from a next link' }],
  });

export function decodeCursor(cursor: string): FeedKey {
  const match = /^v1:(-?\d{1,18}):(.+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match || !UUID.test(match[2]!)) throw invalidCursor();
  return { micros: match[1]!, id: match[2]! };
}

/** The page of a feed request; 400 for a cursor that is not ours, with `page` > 1, or `page` past MAX_FEED_OFFSET. */
export function toFeedPage(query: { page?: number; pageSize?: number; cursor?: string }): FeedPage {
  const page = toPage(query);
  if (query.cursor !== undefined) {
    if (page.page > 1)
      throw new AppError(400, 'pagination.cursor_with_page', 'Send either `cursor` (from a next link) or `page`, not both.', { errors: [{ pointer: '/page', in: 'query', detail: 'not allowed with cursor' }] });
    return { limit: page.limit, offset: 0, after: decodeCursor(query.cursor) };
  }
  if (page.offset + page.limit > MAX_FEED_OFFSET)
    throw new AppError(400, 'pagination.too_deep', `Pages reach the first ${MAX_FEED_OFFSET} rows of a feed; to go further, follow the \`next\` link (it carries a cursor).`, {
      errors: [{ pointer: '/page', in: 'query', detail: `page × pageSize must be at most ${MAX_FEED_OFFSET}` }],
    });
  return { limit: page.limit, offset: page.offset, after: undefined };
}

/** Runs a feed page, sets the Link header (first; next with a cursor while the page is full), returns the items. */
export async function paginateFeed<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  query: { page?: number; pageSize?: number; cursor?: string },
  fetch: (page: FeedPage) => Promise<{ items: T[]; last: FeedKey | undefined }>,
): Promise<T[]> {
  const page = toFeedPage(query);
  const { items, last } = await fetch(page);
  const { path, params } = linkBase(request.url);
  params.delete('page');
  params.delete('cursor');
  params.set('pageSize', String(page.limit));
  let links = `<${path}?${params.toString()}>; rel="first"`;
  if (last && items.length === page.limit) {
    params.set('cursor', encodeCursor(last));
    links += `, <${path}?${params.toString()}>; rel="next"`;
  }
  reply.header('link', links);
  return items;
}

/** Path characters that need no normalising or escaping in a Link header's URI reference. */
const PLAIN_PATH = /^\/[A-Za-z0-9/._~-]*$/;

/**
 * The path and query parameters of a request URL for its links: split by hand for a plain path
 * (the common case: WHATWG URL parsing cost more than the rest of the header), else normalised
 * and escaped by URL.
 */
function linkBase(requestUrl: string): { path: string; params: URLSearchParams } {
  const q = requestUrl.indexOf('?');
  const path = q < 0 ? requestUrl : requestUrl.slice(0, q);
  if (PLAIN_PATH.test(path) && !path.includes('/.')) return { path, params: new URLSearchParams(q < 0 ? '' : requestUrl.slice(q + 1)) };
  const url = new URL(requestUrl, 'http://localhost');
  return { path: url.pathname, params: url.searchParams };
}
