import { AppError } from '../../core/http/problem.js';

export const NotificationErrors = {
  webhookNotFound: (id: string) => new AppError(404, 'webhooks.not_found', `No webhook endpoint has id ${id}; list them with GET /api/admin/webhooks.`),
  webhookActive: (id: string) => new AppError(409, 'webhooks.already_active', `Webhook endpoint ${id} is active already.`),
  webhookInactive: (id: string) => new AppError(409, 'webhooks.already_inactive', `Webhook endpoint ${id} is deactivated already; reactivate it first to send to it.`),
  deliveryNotFound: (webhookId: string, id: string) =>
    new AppError(404, 'webhooks.delivery_not_found', `Webhook endpoint ${webhookId} has no delivery ${id}; list them with GET /api/admin/webhooks/${webhookId}/deliveries.`),
  deliveryNotFailed: (id: string, status: string) =>
    new AppError(409, 'webhooks.delivery_not_failed', `Delivery ${id} is ${status}: only a Failed delivery (its retries used up) can be sent again; a Pending one is still being retried.`),
  webhookUrlRefused: (why: string) =>
    new AppError(400, 'webhooks.url_refused', `The webhook URL ${why}. Use a public https:// address (FISHLOG_WEBHOOKS_ALLOW_LOCAL allows others, for local testing only).`, {
      errors: [{ pointer: '/url', in: 'body', detail: why }],
    }),
  badUnsubscribeToken: () =>
    new AppError(400, 'notifications.bad_unsubscribe_token', 'This unsubscribe link is not one of ours (or was cut short): use the whole link of the mail, or change your preferences with PUT /api/notifications/preferences.', {
      errors: [{ pointer: '/ref', in: 'query', detail: 'not an unsubscribe token of this service' }],
    }),
  securityInApp: (index: number, type: string) =>
    new AppError(400, 'notifications.security_in_app', `${type} is a security notice: it is always shown in-app (you may still turn its e-mail off).`, {
      errors: [{ pointer: `/preferences/${index}/inApp`, in: 'body', detail: 'must be true for a security notice' }],
    }),
  emailUnavailable: (index: number, type: string) =>
    new AppError(400, 'notifications.email_unavailable', `${type} is shown in-app only; it is never mailed.`, { errors: [{ pointer: `/preferences/${index}/email`, in: 'body', detail: 'must be false or left out' }] }),
  notFound: (id: string) => new AppError(404, 'notifications.not_found', `No notification has id ${id}; list yours with GET /api/notifications.`),
};
