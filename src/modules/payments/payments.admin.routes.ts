import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../core/app-deps.js';
import { auditContextOf } from '../../core/audit/context.js';
import { paginate, paginationHeaders } from '../../core/http/pagination.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { AdminPaymentsQuery, FailedPaymentsQuery, IdempotencyHeaders, Payment, PAYMENT_EXAMPLE, Refund, RefundBody, RefundResult, RevenuePeriod, RevenueQuery } from './payments.schemas.js';
import { paymentsOf, purgeExpiredIdempotencyKeys } from './payments.service.js';
import { periodOf } from '../../core/http/period.js';
import { IntervalEnum } from '../../core/http/enums.js';
import { IDEMPOTENCY_PURGE } from './payments.jobs.js';

/** /api/admin/payments: every payment (Admin/Owner) and refunds (permission payments.refund), audit-logged. */
export const paymentsAdminRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  const payments = paymentsOf(deps);
  // Idempotency keys are kept 24 h; expired ones are forgotten hourly on the job queue.
  deps.jobs.work(IDEMPOTENCY_PURGE, () => purgeExpiredIdempotencyKeys(deps.database.db));
  app.addSchema(Refund);
  app.addSchema(Payment);
  const tags = ['admin: payments'];
  const list = { ...Type.Array(Type.Ref('Payment')), headers: paginationHeaders, examples: [[PAYMENT_EXAMPLE]] };

  app.get(
    '/api/admin/payments',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        operationId: 'adminListPayments',
        summary: 'List payments',
        description: 'All payments of every kind, newest first, with their refunds. Filters: status, kind, payer (`userId`), related record, creation date range (`from` inclusive, `to` exclusive), amount range in cents, currency.',
        querystring: AdminPaymentsQuery,
        response: { 200: list },
      },
    },
    async (request, reply) => {
      const { status, kind, ...rest } = request.query;
      return paginate(request, reply, request.query, (page) =>
        payments.listPayments({ ...rest, status, kind }, page),
      );
    },
  );

  app.get(
    '/api/admin/payments/failed',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        operationId: 'adminListFailedPayments',
        summary: 'List failed payments',
        description: 'Payments whose charge failed, newest first, with the reason (e.g. card_declined). Filters: kind, payer, date range.',
        querystring: FailedPaymentsQuery,
        response: { 200: list },
      },
    },
    async (request, reply) => {
      const { kind, ...rest } = request.query;
      return paginate(request, reply, request.query, (page) => payments.listPayments({ ...rest, kind, status: 'Failed' }, page));
    },
  );

  app.get(
    '/api/admin/payments/revenue',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        operationId: 'adminPaymentsRevenue',
        summary: 'Revenue by period and kind',
        description: 'Succeeded payments created in [from, to), per UTC day, ISO week or month, kind and currency: gross, refunded and net cents.',
        querystring: RevenueQuery,
        response: { 200: Type.Array(RevenuePeriod) },
      },
    },
    async (request) => {
      const { from, to } = periodOf(request.query, deps.now());
      return payments.revenueByPeriod(from, to, IntervalEnum.fromApi(request.query.interval ?? 'Month'), request.query.kind);
    },
  );

  app.get(
    '/api/admin/payments/:id',
    {
      config: { access: 'admin' },
      schema: { tags, operationId: 'adminGetPayment', summary: 'One payment with its refunds', params: IdParams, response: { 200: Type.Ref('Payment'), ...errorResponses(404) } },
    },
    async (request) => payments.getPayment(request.params.id),
  );

  app.post(
    '/api/admin/payments/:id/refund',
    {
      config: { access: { permission: 'payments.refund' } },
      schema: {
        tags,
        operationId: 'adminRefundPayment',
        summary: 'Refund a payment (full or partial)',
        description:
          'Refunds `amountCents` (default: all that remains) of a Succeeded or PartiallyRefunded payment, with a required `reason`. The total of refunds can never exceed the amount paid (409 `payments.refund_exceeds_amount`). ' +
          'Requires an `Idempotency-Key` header: a retry with the same key and body returns the first result, another body a 422. Audit-logged.',
        params: IdParams,
        headers: IdempotencyHeaders,
        body: RefundBody,
        response: { 200: Type.Ref('PaymentRefundResult'), ...errorResponses(404, 409, 422, 503) },
      },
    },
    async (request) =>
      payments.refund({
        paymentId: request.params.id,
        amountCents: request.body.amountCents,
        reason: request.body.reason,
        actor: auditContextOf(request),
        idempotencyKey: request.headers['idempotency-key'] as string,
      }),
  );
  app.addSchema({ ...RefundResult, $id: 'PaymentRefundResult' });
};
