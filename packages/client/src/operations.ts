/**
 * The operations that take an `Idempotency-Key` header (`METHOD /path`).
 * Generated from the fishlog service's /openapi.json by `npm run client:generate`: do not edit.
 */
export const IDEMPOTENT_OPERATIONS: ReadonlySet<string> = new Set([
  'POST /api/admin/payments/{id}/refund',
  'POST /api/charter/listings/{listingId}/book',
]);
