import type { DbOrTx } from '../db/client.js';
import type { IdentityClaims } from './idp/types.js';

/**
 * How the core finds the application user behind verified claims. The users module implements
 * it (`createUserDirectory` in users.service.ts); the composition root hands it to the Authenticator at
 * start-up, so the core never imports the users module.
 */
export interface DirectoryUser {
  id: string;
  sub: string;
  username: string;
  email: string | null;
  role: number;
  isActive: boolean;
  /** Set while the person's deletion of their account is pending: deactivated, yet they may sign in to read or cancel it. */
  deletionRequestedAt?: Date | null;
  /**
   * The user's unlifted ban that ends last (null: none), whether or not it has ended yet: the
   * Authenticator compares `endsAt` with its clock on every request, so a ban expires by itself.
   */
  ban: DirectoryBan | null;
}

export interface DirectoryBan {
  id: string;
  reason: string;
  /** null: permanent. */
  endsAt: Date | null;
}

export interface UserDirectory {
  /** The user of `claims`, created on first sight (username and email kept current). */
  upsertFromClaims(db: DbOrTx, claims: Pick<IdentityClaims, 'sub' | 'username' | 'email'>): Promise<DirectoryUser>;
}
