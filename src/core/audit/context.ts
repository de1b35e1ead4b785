import type { FastifyRequest } from 'fastify';
import type { AuditContext } from './audit.js';

/** The audit context of an API request: the caller, their IP, user agent and the request id. */
export function auditContextOf(request: FastifyRequest): AuditContext {
  const agent = request.headers['user-agent'];
  return {
    actor: { type: 'user', userId: request.principal?.userId ?? null },
    ipAddress: request.ip,
    userAgent: typeof agent === 'string' ? agent.slice(0, 512) : null,
    requestId: String(request.id),
  };
}

/** The audit context of a command run by an operator (`fishlog …`). */
export function systemAuditContext(command: string): AuditContext {
  return { actor: { type: 'system' }, userAgent: `fishlog-cli ${command}`.slice(0, 512) };
}
