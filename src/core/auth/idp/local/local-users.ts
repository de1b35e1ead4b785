import { asc, eq, sql } from 'drizzle-orm';
import { v4 as uuidv4 } from 'uuid';
import type { Db } from '../../../db/client.js';
import { AppError } from '../../../http/problem.js';
import { notifyPrincipalChanged } from '../../notify.js';
import { revokeRefreshTokens } from './local-idp.js';
import { idpUsers, refreshTokens } from './local.tables.js';
import { hashPassword, passwordProblem, randomPassword } from './passwords.js';

/**
 * User management of the embedded identity provider. Users are managed outside the API (the
 * spec): these functions back `fishlog idp users …`. Changes that end access (disable, delete)
 * notify every running server at once.
 */

export type IdpUserView = { sub: string; username: string; email: string; status: 'UNCONFIRMED' | 'CONFIRMED'; enabled: boolean; createdAt: Date; updatedAt: Date };

const USERNAME = /^[\p{L}\p{N}._@+-]{1,128}$/u;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const IdpErrors = {
  notFound: (username: string) => new AppError(404, 'idp.user_not_found', `No user named ${username}.`),
  exists: (username: string) => new AppError(409, 'idp.username_taken', `A user named ${username} already exists (usernames are case-insensitive).`),
  invalid: (detail: string) => new AppError(400, 'idp.invalid_input', detail),
};

async function find(db: Db, username: string) {
  const [user] = await db.select().from(idpUsers).where(sql`lower(${idpUsers.username}) = lower(${username})`);
  if (!user) throw IdpErrors.notFound(username);
  return user;
}

function view(user: typeof idpUsers.$inferSelect): IdpUserView {
  return { sub: user.sub, username: user.username, email: user.email, status: user.status, enabled: user.enabled, createdAt: user.createdAt, updatedAt: user.updatedAt };
}

export async function createIdpUser(
  db: Db,
  scryptCost: number,
  input: { username: string; email: string; password: string; confirmed?: boolean },
): Promise<IdpUserView> {
  if (!USERNAME.test(input.username)) throw IdpErrors.invalid('the username must be 1-128 letters, digits or . _ @ + -');
  if (!EMAIL.test(input.email)) throw IdpErrors.invalid(`"${input.email}" is not an email address`);
  const problem = passwordProblem(input.password);
  if (problem) throw IdpErrors.invalid(problem);
  const passwordHash = await hashPassword(input.password, scryptCost);
  const rows = await db
    .insert(idpUsers)
    .values({ sub: uuidv4(), username: input.username, email: input.email, passwordHash, status: input.confirmed === false ? 'UNCONFIRMED' : 'CONFIRMED' })
    .onConflictDoNothing()
    .returning();
  if (!rows[0]) throw IdpErrors.exists(input.username);
  return view(rows[0]);
}

export async function listIdpUsers(db: Db): Promise<IdpUserView[]> {
  return (await db.select().from(idpUsers).orderBy(asc(idpUsers.username))).map(view);
}

export async function setIdpPassword(db: Db, scryptCost: number, username: string, password: string): Promise<IdpUserView> {
  const problem = passwordProblem(password);
  if (problem) throw IdpErrors.invalid(problem);
  const user = await find(db, username);
  const passwordHash = await hashPassword(password, scryptCost);
  return db.transaction(async (tx) => {
    const now = new Date();
    const [row] = await tx.update(idpUsers).set({ passwordHash, passwordChangedAt: now, updatedAt: now }).where(eq(idpUsers.sub, user.sub)).returning();
    await notifyPrincipalChanged(tx, user.sub);
    return view(row!);
  });
}

export async function confirmIdpUser(db: Db, username: string): Promise<IdpUserView> {
  const user = await find(db, username);
  const [row] = await db.update(idpUsers).set({ status: 'CONFIRMED', updatedAt: new Date() }).where(eq(idpUsers.sub, user.sub)).returning();
  return view(row!);
}

export async function setIdpUserEnabled(db: Db, username: string, enabled: boolean): Promise<IdpUserView> {
  const user = await find(db, username);
  return db.transaction(async (tx) => {
    const [row] = await tx.update(idpUsers).set({ enabled, updatedAt: new Date() }).where(eq(idpUsers.sub, user.sub)).returning();
    await notifyPrincipalChanged(tx, user.sub);
    return view(row!);
  });
}

export async function deleteIdpUser(db: Db, username: string): Promise<IdpUserView> {
  const user = await find(db, username);
  return db.transaction(async (tx) => {
    await tx.delete(idpUsers).where(eq(idpUsers.sub, user.sub)); // refresh tokens cascade
    await notifyPrincipalChanged(tx, user.sub);
    return view(user);
  });
}

/** Sets a new random password (returned once) and ends every session of the user. */
export async function resetIdpPassword(db: Db, scryptCost: number, username: string): Promise<{ user: IdpUserView; password: string; revoked: number }> {
  const user = await find(db, username);
  const password = randomPassword();
  const passwordHash = await hashPassword(password, scryptCost);
  return db.transaction(async (tx) => {
    const now = new Date();
    const [row] = await tx.update(idpUsers).set({ passwordHash, passwordChangedAt: now, updatedAt: now }).where(eq(idpUsers.sub, user.sub)).returning();
    const revoked = await revokeRefreshTokens(tx, eq(refreshTokens.sub, user.sub));
    await notifyPrincipalChanged(tx, user.sub);
    return { user: view(row!), password, revoked };
  });
}
