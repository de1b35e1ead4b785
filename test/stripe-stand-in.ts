import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback stand-in for the part of Stripe's API the payments adapter uses
 * (`POST /v1/payment_intents`, `POST /v1/refunds`), for tests: nothing leaves the machine.
 * It answers like Stripe (form-encoded requests, JSON objects, card errors as 402) and checks
 * the bearer key. Payment method `pm_card_chargeDeclined` is declined; any other succeeds.
 * Refunds answer `pending` (Stripe then reports the outcome by webhook) unless told otherwise.
 */

export interface StripeStandInRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  params: URLSearchParams;
}

export interface StripeStandIn {
  baseUrl: string;
  secretKey: string;
  requests: StripeStandInRequest[];
  refundStatus: 'pending' | 'succeeded' | 'failed';
  close(): Promise<void>;
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const secretKey = `sk_test_${randomBytes(12).toString('hex')}`;
  const requests: StripeStandInRequest[] = [];
  const state: StripeStandIn = { baseUrl: '', secretKey, requests, refundStatus: 'pending', close: async () => undefined };

  function send(response: ServerResponse, status: number, body: unknown): void {
    response.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${randomBytes(6).toString('hex')}` });
    response.end(JSON.stringify(body));
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const params = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    const path = (request.url ?? '/').split('?')[0]!;
    const key = request.headers['idempotency-key'];
    requests.push({ method: request.method ?? 'GET', path, idempotencyKey: typeof key === 'string' ? key : undefined, params });
    if (request.headers.authorization !== `Bearer ${secretKey}`) {
      send(response, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      return;
    }
    if (request.method === 'POST' && path === '/v1/payment_intents') {
      const id = `pi_${randomBytes(8).toString('hex')}`;
      const amount = Number(params.get('amount'));
      if (params.get('payment_method') === 'pm_card_chargeDeclined') {
        send(response, 402, {
          error: {
            type: 'card_error',
            code: 'card_declined',
            decline_code: 'generic_decline',
            message: 'Your card was declined.',
            payment_intent: { id, object: 'payment_intent', status: 'requires_payment_method', amount },
          },
        });
        return;
      }
      // `pm_processing`: the stand-in answers `processing`, as Stripe does for payments it settles later (bank debits).
      const status = params.get('payment_method') === 'pm_processing' ? 'processing' : 'succeeded';
      send(response, 200, { id, object: 'payment_intent', amount, currency: params.get('currency'), status, metadata: { paymentId: params.get('metadata[paymentId]') } });
      return;
    }
    if (request.method === 'POST' && path === '/v1/refunds') {
      send(response, 200, {
        id: `re_${randomBytes(8).toString('hex')}`,
        object: 'refund',
        amount: Number(params.get('amount')),
        payment_intent: params.get('payment_intent'),
        status: state.refundStatus,
        failure_reason: state.refundStatus === 'failed' ? 'lost_or_stolen_card' : null,
      });
      return;
    }
    send(response, 404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${request.method}: ${path})` } });
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => send(response, 500, { error: { type: 'api_error', message: 'stand-in failure' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}
