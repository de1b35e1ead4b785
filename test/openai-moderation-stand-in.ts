import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback stand-in for an OpenAI-compatible moderation endpoint (`POST /v1/moderations`),
 * for tests: nothing leaves the machine. It answers like the real one
 * (`{ id, model, results: [{ flagged, categories, category_scores }] }`), checks the bearer key,
 * and can be told to fail, hang or answer garbage.
 *
 * It listens on plain http (loopback): settings accept its base URL only in an app started with
 * `createTestApp({ env: { FISHLOG_MODERATION_ALLOW_HTTP: 'true' } })`.
 *
 * Rating: text containing `flagme` is harassment (0.91), `rejectme` violence (0.99),
 * `borderline` harassment 0.45 (not flagged by the provider); anything else scores 0.01.
 */

const CATEGORIES = ['harassment', 'hate', 'self-harm', 'sexual', 'violence'] as const;

export type StandInMode =
  | { type: 'ok' }
  | { type: 'status'; status: number; message?: string }
  | { type: 'delay'; ms: number }
  | { type: 'malformed' }
  | { type: 'close' };

export interface StandInRequest {
  path: string;
  authorization: string | undefined;
  body: { model?: unknown; input?: unknown };
}

export interface ModerationStandIn {
  /** Base URL to put in the moderation settings (the API root, with /v1). */
  baseUrl: string;
  apiKey: string;
  requests: StandInRequest[];
  setMode(mode: StandInMode): void;
  close(): Promise<void>;
}

function inputText(input: unknown): string {
  if (typeof input === 'string') return input;
  if (Array.isArray(input)) {
    return input
      .map((part) => (typeof part === 'string' ? part : typeof part === 'object' && part && 'text' in part ? String((part as { text: unknown }).text) : ''))
      .join(' ');
  }
  return '';
}

function rate(text: string) {
  const scores: Record<string, number> = Object.fromEntries(CATEGORIES.map((c) => [c, 0.01]));
  if (/flagme/i.test(text)) scores.harassment = 0.91;
  if (/borderline/i.test(text)) scores.harassment = 0.45;
  if (/rejectme/i.test(text)) scores.violence = 0.99;
  const categories = Object.fromEntries(CATEGORIES.map((c) => [c, scores[c]! >= 0.5]));
  return { flagged: Object.values(categories).some(Boolean), categories, category_scores: scores };
}

export async function startModerationStandIn(options: { apiKey?: string } = {}): Promise<ModerationStandIn> {
  const apiKey = options.apiKey ?? 'sk-test-stand-in-secret-0123456789';
  const requests: StandInRequest[] = [];
  let mode: StandInMode = { type: 'ok' };
  const pending = new Set<ServerResponse>();

  function send(response: ServerResponse, status: number, body: unknown): void {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(typeof body === 'string' ? body : JSON.stringify(body));
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    let body: StandInRequest['body'] = {};
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as StandInRequest['body'];
    } catch {
      send(response, 400, { error: { message: 'We could not parse the JSON body of your request.', type: 'invalid_request_error' } });
      return;
    }
    requests.push({ path: request.url ?? '', authorization: request.headers.authorization, body });
    if (request.method !== 'POST' || request.url !== '/v1/moderations') {
      send(response, 404, { error: { message: `Unknown request URL: ${request.method} ${request.url}`, type: 'invalid_request_error' } });
      return;
    }
    if (request.headers.authorization !== `Bearer ${apiKey}`) {
      // Like the real service, the message quotes the key it was given.
      send(response, 401, { error: { message: `Incorrect API key provided: ${String(request.headers.authorization).replace(/^Bearer /, '')}.`, type: 'invalid_request_error' } });
      return;
    }
    switch (mode.type) {
      case 'status':
        send(response, mode.status, { error: { message: mode.message ?? 'The server had an error while processing your request.', type: 'server_error' } });
        return;
      case 'malformed':
        send(response, 200, '{"id":"modr-1","results":"nope"');
        return;
      case 'close':
        request.socket.destroy();
        return;
      case 'delay':
        pending.add(response);
        await new Promise((resolve) => setTimeout(resolve, mode.type === 'delay' ? mode.ms : 0));
        pending.delete(response);
        if (response.destroyed) return;
        break;
      default:
        break;
    }
    const text = inputText(body.input);
    send(response, 200, { id: `modr-${requests.length}`, model: typeof body.model === 'string' ? body.model : 'omni-moderation-latest', results: [rate(text)] });
  }

  const server = createServer((request, response) => {
    void handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    apiKey,
    requests,
    setMode(next) {
      mode = next;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
