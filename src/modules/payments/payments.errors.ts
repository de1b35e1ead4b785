import { AppError } from '../../core/http/problem.js';

export const PaymentErrors = {
  notFound: (id: string) => new AppError(404, 'payments.not_found', `No payment has id ${id}. List payments at GET /api/admin/payments.`),
  notRefundable: (id: string, status: string) =>
    new AppError(409, 'payments.not_refundable', `Payment ${id} is ${status}; only a Succeeded or PartiallyRefunded payment can be refunded.`),
  refundExceeds: (id: string, remaining: number, currency: string) =>
    new AppError(
      409,
      'payments.refund_exceeds_amount',
      `The refunds of payment ${id} would exceed what was paid: at most ${remaining} ${currency} cents remain refundable. Refund that much or less.`,
    ),
  invalidAmount: (pointer: string) =>
    new AppError(400, 'payments.invalid_amount', 'Amounts are positive integers of cents (e.g. 12500 for 125.00).', {
      errors: [{ pointer, in: 'body', detail: 'must be a positive integer of cents' }],
    }),
  invalidCurrency: (currency: string) =>
    new AppError(400, 'payments.invalid_currency', `${currency} is not an ISO 4217 currency code; use three letters such as USD.`),
  declined: (paymentId: string, reason: string) =>
    new AppError(402, 'payments.declined', `The payment (${paymentId}) was declined: ${reason}. Use another card or payment method and try again.`),
  keyRequired: () =>
    new AppError(400, 'idempotency.key_required', 'Send an Idempotency-Key header (a unique string, e.g. a UUID) with this request so that a retry cannot charge or refund twice.', {
      errors: [{ pointer: '/idempotency-key', in: 'header', detail: 'is required' }],
    }),
  keyReused: () =>
    new AppError(
      422,
      'idempotency.key_reused',
      'This Idempotency-Key was already used with a different request body. Use a new key for a new request, or resend the first body unchanged.',
    ),
  keyInProgress: () =>
    new AppError(409, 'idempotency.in_progress', 'A request with this Idempotency-Key is still being processed; wait a moment and retry with the same key.', {
      headers: { 'retry-after': '1' },
    }),
  providerUnavailable: (detail: string) => new AppError(503, 'payments.provider_unavailable', `The payment provider could not be reached (${detail}); try again later with the same Idempotency-Key.`),
  webhookDisabled: () => new AppError(404, 'payments.webhook_disabled', 'Stripe webhooks are not enabled: the server runs with PAYMENT_PROVIDER=local.'),
  webhookSignature: (detail: string) => new AppError(400, 'payments.webhook_signature_invalid', `The Stripe-Signature header does not verify: ${detail}`),
};
