import { Type, type Static } from 'typebox';
import { listQuery } from '../../core/http/pagination.js';
import { literals, Nullable, Timestamp, Uuid } from '../../core/http/schemas.js';

export const JOB_STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const;

export const JobsQuery = listQuery({
  queue: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_.-]+$', description: 'Queue name, e.g. `charters.sweep`', examples: ['charters.sweep'] })),
  state: Type.Optional(literals(JOB_STATES, 'created (waiting), retry (waiting after a failure), active (running), completed, cancelled or failed (retries used up)')),
});
export type JobsQueryType = Static<typeof JobsQuery>;

export const JOB_EXAMPLE = {
  id: '0193b7a4-5c1e-7c3a-9a57-2f1f0c3e8d21',
  queue: 'charters.sweep',
  state: 'retry',
  attempts: 1,
  retryLimit: 5,
  createdAt: '2026-06-01T05:30:00.000Z',
  startAfter: '2026-06-01T05:31:02.000Z',
  startedAt: '2026-06-01T05:30:01.000Z',
  completedAt: null,
  lastError: 'connection terminated unexpectedly',
};

export const Job = Type.Object(
  {
    id: Uuid,
    queue: Type.String({ examples: ['charters.sweep'] }),
    state: literals(JOB_STATES),
    attempts: Type.Integer({ minimum: 0, description: 'Runs started so far' }),
    retryLimit: Type.Integer({ minimum: 0, description: 'Retries allowed after the first run' }),
    createdAt: Timestamp,
    startAfter: { ...Timestamp, description: 'Not run before this instant (the next retry, with backoff, after a failure)' },
    startedAt: Nullable(Timestamp),
    completedAt: Nullable(Timestamp),
    lastError: Nullable(Type.String({ description: 'Message of the last failure (or "job failed by timeout in active state" when its process died)' })),
  },
  { $id: 'Job', additionalProperties: false, examples: [JOB_EXAMPLE] },
);
