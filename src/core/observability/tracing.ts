import type { IncomingMessage } from 'node:http';
import { randomBytes } from 'node:crypto';

/**
 * W3C Trace Context: a valid incoming `traceparent` is continued (same trace id, this server's
 * own span id); otherwise a new trace starts. The trace id is bound to every log line of the
 * request beside the request id, and the `traceparent` of this server's span is sent back.
 */

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

export interface TraceContext {
  traceId: string;
  spanId: string;
  flags: string;
  traceparent: string;
}

/** A random id of `bytes` bytes, in hex. */
function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

export function traceContext(header: string | string[] | undefined): TraceContext {
  const match = typeof header === 'string' ? TRACEPARENT.exec(header.trim().toLowerCase()) : null;
  const valid = match && !/^0+$/.test(match[1]!) && !/^0+$/.test(match[2]!);
  const traceId = valid ? match[1]! : randomHex(16);
  const flags = valid ? match[3]! : '01';
  const spanId = randomHex(8);
  return { traceId, spanId, flags, traceparent: `00-${traceId}-${spanId}-${flags}` };
}

const TRACE = Symbol('fishlog.trace');

/** The trace context of a raw request (computed once, when its logger is made). */
export function traceOf(raw: IncomingMessage): TraceContext {
  const holder = raw as IncomingMessage & { [TRACE]?: TraceContext };
  holder[TRACE] ??= traceContext(raw.headers.traceparent);
  return holder[TRACE];
}
