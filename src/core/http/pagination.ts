import type { FastifyReply, FastifyRequest } from 'fastify';
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
