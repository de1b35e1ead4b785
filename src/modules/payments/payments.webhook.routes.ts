import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { errorResponses } from '../../core/http/schemas.js';
import { WebhookResult } from './payments.schemas.js';
import { paymentsOf } from './payments.service.js';

/**
 * POST /api/payments/webhooks/stripe: Stripe's event deliveries. Public (Stripe has no token);
 * the Stripe-Signature header over the raw body is verified with STRIPE_WEBHOOK_SECRET, and each
 * event id is processed once.
 */
export const paymentsWebhookRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const payments = paymentsOf(deps);
  // The signature covers the exact bytes: keep the body raw in this plugin.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.post(
    '/api/payments/webhooks/stripe',
    {
      // The raw bytes are the body (its signature covers them): not refused as a body sent to a route without a body schema.
      config: { access: 'public', rawBody: true },
      schema: {
        tags: ['payments'],
        operationId: 'stripeWebhook',
        summary: 'Stripe webhook endpoint',
        description:
          'Receives Stripe events (payment_intent.succeeded, payment_intent.payment_failed, refund.updated, refund.failed…) and applies the outcomes to pending payments and refunds. ' +
          '400 when the Stripe-Signature does not verify; 404 when the server does not use Stripe. A redelivered event id answers 200 with `duplicate: true`.',
        response: { 200: WebhookResult, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const signature = request.headers['stripe-signature'];
      return payments.handleStripeWebhook(request.body as Buffer, typeof signature === 'string' ? signature : undefined);
    },
  );
};
