/** The payments module's public file for other modules' routes and schemas (with payments.service.ts). */
export { IdempotencyHeaders } from './payments.schemas.js';
