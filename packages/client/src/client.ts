import createClient, { mergeHeaders, type HeadersOptions } from 'openapi-fetch';
import { IDEMPOTENT_OPERATIONS } from './operations.js';
import { FishlogProblem, retryAfterSeconds } from './problem.js';
import type { paths } from './schema.js';
import { memoryTokenStore, type TokenSet, type TokenStore } from './tokens.js';
import type { Call, CallArgs, CallInit, FishlogResult, HttpMethod, ListItem, ListPath, SuccessData, UploadInit, UploadPath } from './types.js';

export interface FishlogClientOptions {
  /** Where the API is served, e.g. `https://api.fishlog.example` or `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** Where the session is kept (default: in memory). */
  tokenStore?: TokenStore;
  /** How long before the id token expires it is refreshed, in seconds (default 60; keep it below the token lifetime). */
  refreshLeewaySeconds?: number;
  /** How often one call is repeated after a 429/503 with `Retry-After`, or a network failure of a call safe to repeat (default 2). */
  maxRetries?: number;
  /** The longest `Retry-After` waited for, in seconds (default 30); a longer one is answered as the problem, `retryAfter` set. */
  maxRetryAfterSeconds?: number;
  /** Told when the session ends: `logout()`, or a refresh the server refused (`problem` says why). */
  onSignOut?: (event: SignOutEvent) => void;
  /** Another fetch (default: the global one). */
  fetch?: (request: Request) => Promise<Response>;
}

export interface SignOutEvent {
  /** `refresh_token_reused`: the refresh token had been used already, and the server ended every session of that login. */
  reason: 'logout' | 'refresh_token_reused' | 'refresh_rejected';
  problem?: FishlogProblem;
}

type LoginTokens = paths['/api/auth/login']['post']['responses'][200]['content']['application/json'];

export interface FishlogClient {
  GET: Call<'get'>;
  POST: Call<'post'>;
  PUT: Call<'put'>;
  PATCH: Call<'patch'>;
  DELETE: Call<'delete'>;
  auth: {
    /** Signs in; the session is kept in the token store. */
    login(username: string, password: string): Promise<FishlogResult<TokenSet>>;
    /**
     * Signs out: forgets the session (the token store is cleared, `onSignOut` told) and asks the server to end
     * it, `everywhere: true` every sign-in of the user on every device (`POST /api/auth/logout`). The session
     * is forgotten whatever the server answers: `error` says it did not confirm (with `everywhere`,
     * `auth.refresh_token_invalid`: the session had ended already, so it named no user); it throws, the
     * session forgotten, only when no answer came.
     */
    logout(options?: { everywhere?: boolean }): Promise<FishlogResult<void>>;
    /** Renews the id token now (calls do it by themselves when due). Parallel callers share one refresh. */
    refresh(): Promise<FishlogResult<TokenSet>>;
    /** The session in the token store, if any. */
    session(): Promise<TokenSet | undefined>;
  };
  /**
   * Every item of a list or feed, page after page: the `next` link of `Link` (which carries the
   * cursor of a feed) to the end. A failed page throws its FishlogProblem.
   */
  paginate<P extends ListPath>(path: P, ...init: CallArgs<CallInit<P, 'get'>>): AsyncIterableIterator<ListItem<P>>;
  /**
   * Uploads a photo as `multipart/form-data` (the one part `file`), with the session, retries and
   * typed problems of every call: `client.upload('post', '/api/fishinglog/entries/{entryId}/catches/{catchId}/photos',
   * file, { params: { path: { entryId, catchId } } })`; the avatar is `upload('put', '/api/userprofile/me/avatar', file)`.
   * `file`: a File or Blob, or bytes (a Uint8Array, e.g. Node's Buffer).
   */
  upload<M extends 'post' | 'put', P extends UploadPath<M>>(method: M, path: P, file: Blob | Uint8Array, init?: UploadInit<P, M>): Promise<FishlogResult<SuccessData<P, M, CallInit<P, M>>>>;
}

const SIGNED_OUT = {
  type: 'urn:fishlog:problem:client.signed_out',
  title: 'Unauthorized',
  status: 401,
  code: 'client.signed_out',
  detail: 'There is no session to refresh: sign in with auth.login(username, password).',
  instance: '/api/auth/refresh',
};

/** A new Idempotency-Key (a UUID v4), also where crypto.randomUUID is missing (insecure browser contexts). */
function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Methods that change nothing, or change the same way each time: repeated after a network failure. */
const REPEATABLE = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** The `next` target of an RFC 8288 Link header. */
function nextLink(header: string | null): string | undefined {
  for (const part of header?.split(/,(?=\s*<)/) ?? []) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (match && /;\s*rel="?([^";]*\s)?next(\s[^";]*)?"?/i.test(match[2]!)) return match[1];
  }
  return undefined;
}

function tokenSet(tokens: LoginTokens, receivedAt: number): TokenSet {
  return { idToken: tokens.id_token, refreshToken: tokens.refresh_token, expiresAt: receivedAt + tokens.expires_in * 1000 };
}

/** A response carrying `problem`, for calls that end before reaching the API (the session ended, or there was none). */
function problemResponse(problem: FishlogProblem): Response {
  return new Response(JSON.stringify(problem.toJSON()), { status: problem.status, headers: { 'content-type': 'application/problem+json' } });
}

export function createFishlogClient(options: FishlogClientOptions): FishlogClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const store = options.tokenStore ?? memoryTokenStore();
  const fetchImpl = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const leewayMs = (options.refreshLeewaySeconds ?? 60) * 1000;
  const maxRetries = options.maxRetries ?? 2;
  const maxRetryAfter = options.maxRetryAfterSeconds ?? 30;
  const due = (tokens: TokenSet) => tokens.expiresAt - leewayMs <= Date.now();

  /** Sends `request` (cloned per attempt): bearer, refresh on `auth.token_expired`, Retry-After, network retries. */
  async function send(request: Request, authenticate: boolean): Promise<Response> {
    let retries = 0;
    let refreshed = false;
    for (;;) {
      const attempt = request.clone();
      let bearer: string | undefined;
      if (authenticate) {
        const auth = await bearerToken();
        if (auth instanceof FishlogProblem) return problemResponse(auth);
        bearer = auth;
        if (bearer !== undefined) attempt.headers.set('authorization', `Bearer ${bearer}`);
      }
      let response: Response;
      try {
        response = await fetchImpl(attempt);
      } catch (error) {
        // A failure before any answer: repeated only when doing it twice does no harm.
        const repeatable = REPEATABLE.has(request.method) || request.headers.has('idempotency-key');
        if (repeatable && retries < maxRetries && !request.signal.aborted) {
          retries++;
          await sleep(200 * 2 ** retries);
          continue;
        }
        throw error;
      }
      if (bearer !== undefined && response.status === 401 && !refreshed && (await problemCode(response)) === 'auth.token_expired') {
        refreshed = true;
        await response.body?.cancel();
        const outcome = await refresh(bearer);
        if ('problem' in outcome) return problemResponse(outcome.problem);
        continue;
      }
      if (response.status === 429 || response.status === 503) {
        const wait = retryAfterSeconds(response.headers);
        if (wait !== undefined && wait <= maxRetryAfter && retries < maxRetries && !request.signal.aborted) {
          retries++;
          await response.body?.cancel();
          await sleep(wait * 1000);
          continue;
        }
      }
      return response;
    }
  }

  async function problemCode(response: Response): Promise<string | undefined> {
    const body: unknown = await response
      .clone()
      .json()
      .catch(() => undefined);
    return typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'string' ? (body as { code: string }).code : undefined;
  }

  /** The id token to send: refreshed first when it is due; a problem when refreshing ended the session. */
  async function bearerToken(): Promise<string | FishlogProblem | undefined> {
    const tokens = await store.get();
    if (tokens === undefined || !due(tokens)) return tokens?.idToken;
    const outcome = await refresh();
    if ('tokens' in outcome) return outcome.tokens.idToken;
    // The refresh failed but the session stands (a network or server trouble): the server judges the token.
    const still = await store.get();
    return still === undefined ? outcome.problem : still.idToken;
  }

  const api = createClient<paths>({ baseUrl, fetch: (request) => send(request, true) });
  const publicApi = createClient<paths>({ baseUrl, fetch: (request) => send(request, false) });

  /** A refresh's outcome and the answer it came with (none when another refresh already renewed the session). */
  type Refreshed = { tokens: TokenSet; response?: Response } | { problem: FishlogProblem; response: Response };
  let refreshing: Promise<Refreshed> | undefined;

  /**
   * One refresh at a time: callers during it share its outcome. `sentWith` is the id token a call
   * was refused with: when the session already holds a newer one, that one is used.
   */
  function refresh(sentWith?: string): Promise<Refreshed> {
    refreshing ??= (async (): Promise<Refreshed> => {
      const current = await store.get();
      if (current === undefined) {
        const problem = new FishlogProblem(SIGNED_OUT);
        return { problem, response: problemResponse(problem) };
      }
      if (sentWith !== undefined && current.idToken !== sentWith && !due(current)) return { tokens: current };
      const receivedAt = Date.now();
      const { data, error, response } = await publicApi.POST('/api/auth/refresh', { body: { refreshToken: current.refreshToken } });
      if (data !== undefined) {
        const tokens = tokenSet(data, receivedAt);
        await store.set(tokens);
        return { tokens, response };
      }
      const problem = await FishlogProblem.fromResponse(response, error);
      if (response.status === 401) {
        await store.clear();
        options.onSignOut?.({ reason: problem.code === 'auth.refresh_token_reused' ? 'refresh_token_reused' : 'refresh_rejected', problem });
      }
      return { problem, response };
    })().finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  }

  /** Adds an Idempotency-Key to the operations that take one, unless the caller sent one. */
  function withIdempotencyKey(method: string, path: string, init: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
    if (!IDEMPOTENT_OPERATIONS.has(`${method} ${path}`)) return init;
    const params = init?.params as { header?: Record<string, unknown> } | undefined;
    const headers = mergeHeaders(init?.headers as HeadersOptions | undefined, params?.header as HeadersOptions | undefined);
    if (headers.has('idempotency-key')) return init;
    return { ...init, headers: mergeHeaders(init?.headers as HeadersOptions | undefined, { 'Idempotency-Key': newIdempotencyKey() }) };
  }

  type Untyped = (method: string, path: string, init?: Record<string, unknown>) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
  const untyped = api.request as unknown as Untyped;

  async function invoke(method: string, path: string, init?: Record<string, unknown>): Promise<FishlogResult<unknown>> {
    const { data, error, response } = await untyped(method, path, withIdempotencyKey(method, path, init));
    if (!response.ok || error !== undefined) return { error: await FishlogProblem.fromResponse(response, error), response };
    return { data, response };
  }

  const call = <M extends HttpMethod>(method: M) => ((path: string, init?: Record<string, unknown>) => invoke(method.toUpperCase(), path, init)) as unknown as Call<M>;

  async function* paginate(path: string, init?: Record<string, unknown>): AsyncGenerator<unknown> {
    let page = await invoke('GET', path, init);
    for (;;) {
      if (page.error) throw page.error;
      const items = page.data as unknown[];
      yield* items;
      const link = nextLink(page.response.headers.get('link'));
      if (link === undefined) return;
      const next = new URL(link, page.response.url || `${baseUrl}${path}`);
      const response = await send(new Request(next, { headers: { accept: 'application/json' } }), true);
      page = response.ok ? { data: await response.json(), response } : { error: await FishlogProblem.fromResponse(response), response };
    }
  }

  return {
    GET: call('get'),
    POST: call('post'),
    PUT: call('put'),
    PATCH: call('patch'),
    DELETE: call('delete'),
    auth: {
      async login(username, password) {
        const receivedAt = Date.now();
        const { data, error, response } = await publicApi.POST('/api/auth/login', { body: { username, password } });
        if (data === undefined) return { error: await FishlogProblem.fromResponse(response, error), response };
        const tokens = tokenSet(data, receivedAt);
        await store.set(tokens);
        return { data: tokens, response };
      },
      async logout({ everywhere = false } = {}) {
        // A refresh under way would store its tokens after the clear: the successor it gets is the one to end.
        await refreshing?.catch(() => undefined);
        const session = await store.get();
        await store.clear();
        options.onSignOut?.({ reason: 'logout' });
        if (session === undefined) return { data: undefined, response: new Response(null, { status: 204 }) };
        const { error, response } = await publicApi.POST('/api/auth/logout', { body: { refreshToken: session.refreshToken, everywhere } });
        if (!response.ok) return { error: await FishlogProblem.fromResponse(response, error), response };
        return { data: undefined, response };
      },
      async refresh() {
        const outcome = await refresh();
        if ('problem' in outcome) return { error: outcome.problem, response: outcome.response };
        // Without a sent id token to compare, refresh() always asks the server: there is an answer.
        return { data: outcome.tokens, response: outcome.response! };
      },
      session: async () => store.get(),
    },
    paginate: paginate as FishlogClient['paginate'],
    upload: (async (method: HttpMethod, path: string, file: Blob | Uint8Array, init: Record<string, unknown> & { filename?: string } = {}) => {
      const { filename, ...rest } = init;
      const blob = file instanceof Blob ? file : new Blob([file as Uint8Array<ArrayBuffer>]);
      const name = filename ?? (typeof File !== 'undefined' && file instanceof File ? file.name : 'photo');
      const form = new FormData();
      form.append('file', blob, name);
      return invoke(method.toUpperCase(), path, { ...rest, body: form });
    }) as FishlogClient['upload'],
  };
}

/** The data of a result, or its problem thrown: `const entry = await ok(client.GET(…))`. */
export async function ok<T>(result: FishlogResult<T> | Promise<FishlogResult<T>>): Promise<T> {
  const settled = await result;
  if (settled.error) throw settled.error;
  return settled.data as T;
}
