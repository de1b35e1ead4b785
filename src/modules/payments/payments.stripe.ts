import { createRequire } from 'node:module';
import type Stripe from 'stripe';
import type { PaymentsConfig } from '../../config.js';
import { PaymentErrors } from './payments.errors.js';
import type { ChargeRequest, Outcome, PaymentProvider, RefundRequest } from './payments.provider.js';

/**
 * The Stripe adapter (official `stripe` package): a charge is a confirmed PaymentIntent, a
 * refund a Refund of it, both sent with our idempotency key so that a retry never moves money
 * twice. Outcomes Stripe decides later (processing, pending refunds) arrive by webhook
 * (`stripeEventUpdate`).
 */

/**
 * The `stripe` package, loaded when the Stripe adapter is first made: it is some 220 files, a
 * quarter of a second of every start-up of a process that takes payments with the local ledger.
 */
let stripePackage: typeof Stripe | undefined;
function stripeModule(): typeof Stripe {
  return (stripePackage ??= createRequire(import.meta.url)('stripe') as typeof Stripe);
}

export function stripeClient(config: PaymentsConfig): Stripe {
  const Stripe = stripeModule();
  const options: ConstructorParameters<typeof Stripe>[1] = { maxNetworkRetries: 1, timeout: 20_000 };
  if (config.stripeApiBase) {
    const base = new URL(config.stripeApiBase);
    options.host = base.hostname;
    options.port = base.port || (base.protocol === 'https:' ? 443 : 80);
    options.protocol = base.protocol === 'https:' ? 'https' : 'http';
  }
  return new Stripe(config.stripeSecretKey!, options);
}

function failure(error: unknown): string | undefined {
  const Stripe = stripeModule();
  if (error instanceof Stripe.errors.StripeCardError) return error.decline_code ?? error.code ?? 'card_declined';
  if (error instanceof Stripe.errors.StripeInvalidRequestError) return error.code ?? 'invalid_request';
  return undefined;
}

function rethrow(error: unknown): never {
  const message = error instanceof Error ? error.message : String(error);
  throw PaymentErrors.providerUnavailable(message.slice(0, 200));
}

export class StripeProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  constructor(private readonly stripe: Stripe) {}

  async charge(request: ChargeRequest) {
    try {
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: request.amountCents,
          currency: request.currency.toLowerCase(),
          payment_method: request.paymentMethod,
          confirm: true,
          automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
          description: request.description,
          metadata: { paymentId: request.paymentId },
        },
        { idempotencyKey: `charge-${request.idempotencyKey}` },
      );
      if (intent.status === 'succeeded') return { status: 'Succeeded' as const, providerRef: intent.id };
      if (intent.status === 'canceled' || intent.status === 'requires_payment_method') {
        return { status: 'Failed' as const, providerRef: intent.id, failureReason: intent.last_payment_error?.decline_code ?? intent.status };
      }
      return { status: 'Pending' as const, providerRef: intent.id };
    } catch (error) {
      const reason = failure(error);
      if (!reason) rethrow(error);
      const ref = (error as { payment_intent?: { id?: string } }).payment_intent?.id ?? null;
      return { status: 'Failed' as const, providerRef: ref, failureReason: reason };
    }
  }

  async refund(request: RefundRequest): Promise<Outcome> {
    try {
      const refund = await this.stripe.refunds.create(
        { payment_intent: request.paymentRef!, amount: request.amountCents, metadata: { paymentId: request.paymentId, refundId: request.refundId } },
        { idempotencyKey: `refund-${request.idempotencyKey}` },
      );
      if (refund.status === 'succeeded') return { status: 'Succeeded', providerRef: refund.id };
      if (refund.status === 'failed' || refund.status === 'canceled') return { status: 'Failed', providerRef: refund.id, failureReason: refund.failure_reason ?? refund.status };
      return { status: 'Pending', providerRef: refund.id };
    } catch (error) {
      const reason = failure(error);
      if (!reason) rethrow(error);
      return { status: 'Failed', providerRef: null, failureReason: reason };
    }
  }
}

/** What a verified Stripe event changes in the ledger: a payment's or a refund's outcome, by provider reference. */
export type StripeUpdate =
  | { target: 'payment'; providerRef: string; outcome: Outcome }
  | { target: 'refund'; providerRef: string; outcome: Outcome }
  | null;

export function stripeEventUpdate(event: Stripe.Event): StripeUpdate {
  switch (event.type) {
    case 'payment_intent.succeeded':
      return { target: 'payment', providerRef: event.data.object.id, outcome: { status: 'Succeeded', providerRef: event.data.object.id } };
    case 'payment_intent.payment_failed':
    case 'payment_intent.canceled': {
      const intent = event.data.object;
      const reason = intent.last_payment_error?.decline_code ?? intent.last_payment_error?.code ?? intent.status;
      return { target: 'payment', providerRef: intent.id, outcome: { status: 'Failed', providerRef: intent.id, failureReason: reason } };
    }
    case 'refund.created':
    case 'refund.updated':
    case 'refund.failed': {
      const refund = event.data.object;
      if (refund.status === 'succeeded') return { target: 'refund', providerRef: refund.id, outcome: { status: 'Succeeded', providerRef: refund.id } };
      if (refund.status === 'failed' || refund.status === 'canceled') {
        return { target: 'refund', providerRef: refund.id, outcome: { status: 'Failed', providerRef: refund.id, failureReason: refund.failure_reason ?? refund.status } };
      }
      return null;
    }
    default:
      return null;
  }
}
