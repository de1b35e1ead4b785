import type { components } from './schema.js';

/** An RFC 9457 problem+json answer of the fishlog API. */
export type ProblemBody = components['schemas']['Problem'];
/** One invalid field of a validation failure: where (`in`, `pointer`) and what was wrong. */
export type ProblemFieldError = NonNullable<ProblemBody['errors']>[number];

function isProblemBody(value: unknown): value is ProblemBody {
  return typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'string' && typeof (value as { status?: unknown }).status === 'number';
}

/** Seconds from a Retry-After header (delta-seconds or an HTTP date), undefined without one. */
export function retryAfterSeconds(headers: Headers, now: number = Date.now()): number | undefined {
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * A failed call: the API's problem+json answer as a value (returned as `error`, thrown only by
 * `paginate()` and `ok()`). `code` is the stable dotted code to branch on (`auth.token_expired`,
 * `entries.not_visible` …); `errors` lists the invalid fields of a 400; `requestId` is what to
 * quote when reporting it; `retryAfter` the seconds the server asked to wait (429, 503).
 */
export class FishlogProblem extends Error {
  override readonly name = 'FishlogProblem';
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly title: string;
  readonly type: string;
  readonly instance: string | undefined;
  readonly errors: ProblemFieldError[];
  readonly requestId: string | undefined;
  readonly retryAfter: number | undefined;

  constructor(body: ProblemBody, options: { requestId?: string | undefined; retryAfter?: number | undefined } = {}) {
    super(`${body.status} ${body.code}: ${body.detail}`);
    this.status = body.status;
    this.code = body.code;
    this.detail = body.detail;
    this.title = body.title;
    this.type = body.type;
    this.instance = body.instance;
    this.errors = body.errors ?? [];
    this.requestId = body.requestId ?? options.requestId;
    this.retryAfter = options.retryAfter;
  }

  /** The problem+json body of this problem. */
  toJSON(): ProblemBody {
    return {
      type: this.type,
      title: this.title,
      status: this.status,
      detail: this.detail,
      code: this.code,
      instance: this.instance ?? '',
      ...(this.requestId === undefined ? {} : { requestId: this.requestId }),
      ...(this.errors.length > 0 ? { errors: this.errors } : {}),
    };
  }

  /** The problem of a failed response; `body` is its parsed JSON (or text) when already read. */
  static async fromResponse(response: Response, body?: unknown): Promise<FishlogProblem> {
    let parsed = body;
    if (parsed === undefined) {
      const text = await response.text().catch(() => '');
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    const options = { requestId: response.headers.get('x-request-id') ?? undefined, retryAfter: retryAfterSeconds(response.headers) };
    if (isProblemBody(parsed)) return new FishlogProblem(parsed, options);
    // Not an answer of the API (a proxy's error page, a cut connection): said as such.
    const path = response.url ? new URL(response.url).pathname : '';
    return new FishlogProblem(
      {
        type: 'about:blank',
        title: response.statusText || 'Unexpected response',
        status: response.status,
        code: 'client.unexpected_response',
        detail: `${response.status} ${response.statusText} from ${path || 'the server'} without a problem+json body${typeof parsed === 'string' && parsed ? `: ${parsed.slice(0, 200)}` : ''}`,
        instance: path,
      },
      options,
    );
  }
}
