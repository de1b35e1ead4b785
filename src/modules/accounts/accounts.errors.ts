import { AppError } from '../../core/http/problem.js';

/** Errors of account deletion (stable codes; each detail says what to do). */
export const AccountErrors = {
  reauthenticationRequired: () =>
    new AppError(
      403,
      'accounts.reauthentication_required',
      'Deleting your account needs proof that it is you: send your password as `password` in the body, or sign in again ' +
        '(POST /api/auth/login) and ask within 5 minutes of that sign-in.',
    ),
  passwordIncorrect: () =>
    new AppError(403, 'accounts.password_incorrect', 'The password is not the password of this account; send it again, or sign in again and ask within 5 minutes without one.'),
  passwordNotAccepted: () =>
    new AppError(
      403,
      'accounts.password_not_accepted',
      'This account cannot confirm its password here (its sign-in needs another step); sign in again (POST /api/auth/login) and ask within 5 minutes.',
    ),
  noPendingDeletion: () =>
    new AppError(404, 'accounts.no_pending_deletion', 'Your account has no pending deletion; ask for one with POST /api/account/deletion.'),
  deletionNotFound: (userId: string) => new AppError(404, 'accounts.deletion_not_found', `No pending deletion of user ${userId}; see GET /api/admin/account-deletions.`),
  alreadyOnHold: (userId: string) => new AppError(409, 'accounts.already_on_legal_hold', `The deletion of user ${userId} is on legal hold already; lift it with DELETE /api/admin/account-deletions/${userId}/legal-hold.`),
  notOnHold: (userId: string) => new AppError(409, 'accounts.not_on_legal_hold', `The deletion of user ${userId} is not on legal hold.`),
  exportInProgress: () =>
    new AppError(409, 'accounts.export_in_progress', 'A copy of your data is being prepared already; follow it with GET /api/account/export (you are notified when it is ready).'),
  exportTooSoon: (retryAt: Date, retryAfterSeconds: number) =>
    new AppError(429, 'accounts.export_too_soon', `One copy of your data a day: ask again after ${retryAt.toISOString()}; the last one is at GET /api/account/export until it expires.`, {
      headers: { 'retry-after': String(retryAfterSeconds) },
    }),
  noExport: () => new AppError(404, 'accounts.no_export', 'You have not asked for a copy of your data; ask with POST /api/account/export.'),
  exportNotReady: () =>
    new AppError(404, 'accounts.export_not_available', 'No copy of your data is ready to download (none asked for, still being prepared, failed or expired): see GET /api/account/export.'),
};
