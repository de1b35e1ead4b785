/** The payments module's public file for other modules' routes and schemas (with payments.service.ts). */
export { IdempotencyHeaders } from './payments.schemas.js';
/** Revenue figures (dashboard): the payments service of an app, its kinds and revenue rows. */
export { paymentsOf, PAYMENT_KINDS, type PaymentKind, type RevenuePeriod } from './payments.service.js';
