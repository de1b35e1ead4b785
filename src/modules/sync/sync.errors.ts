import { AppError, type FieldError } from '../../core/http/problem.js';

/** The problems of offline sync (`sync.*`); a refused record keeps its module's code (sync.service.ts). */
export const SyncErrors = {
  conflict: (table: string, id: string, pointer: string, why: string) =>
    new AppError(
      409,
      'sync.conflict',
      `The ${table} record ${id} ${why} after your last pull. Nothing of this push was written: pull (synchronize() again), then push again; WatermelonDB keeps your changed fields over the server's.`,
      { errors: [{ pointer, in: 'body', detail: why }] },
    ),
  readOnlyTable: (table: string, pointer: string) =>
    new AppError(400, 'sync.read_only_table', `The table ${table} is pulled, never pushed: change it through its REST API. Nothing of this push was written.`, {
      errors: [{ pointer, in: 'body', detail: 'is read-only: send no created, updated or deleted records' }],
    }),
  invalidPageToken: () =>
    new AppError(400, 'sync.invalid_page_token', 'The `next` token is not one this server made. Send the `next` of the previous page as it was, or start the pull again without it.', {
      errors: [{ pointer: '/next', in: 'query', detail: 'is not a page token of this server' }],
    }),
  /** A record the owning module refused: its status and code, the record named. */
  refused: (error: AppError, table: string, id: string, kind: string, errors: FieldError[]) =>
    new AppError(error.status, error.code, `The ${table} record ${id} (${kind}) was refused: ${error.detail} Nothing of this push was written.`, { errors }),
};
