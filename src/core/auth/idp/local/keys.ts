import { createCipheriv, createDecipheriv, createHash, randomBytes, randomUUID } from 'node:crypto';
import { desc, isNull, sql } from 'drizzle-orm';
import { exportJWK, exportPKCS8, generateKeyPair, importJWK, importPKCS8, type JWK } from 'jose';
import type { Db } from '../../../db/client.js';
import { signingKeys } from './local.tables.js';

/**
 * RS256 signing keys of the embedded identity provider, in the database so that every process
 * shares them. The newest key that is not retired signs; retired keys keep verifying tokens
 * until those expire. Private keys are encrypted with AES-256-GCM when FISHLOG_IDP_KEY_SECRET is
 * set, and never logged.
 */

type PrivateKey = Awaited<ReturnType<typeof importPKCS8>>;
type PublicKey = Awaited<ReturnType<typeof importJWK>>;

export interface SigningKey {
  kid: string;
  privateKey: PrivateKey;
}

function secretKey(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

function seal(pem: string, secret: string | undefined): string {
  if (!secret) return pem;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', secretKey(secret), iv);
  const data = Buffer.concat([cipher.update(pem, 'utf8'), cipher.final()]);
  return ['enc', 'v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join(':');
}

function unseal(stored: string, secret: string | undefined): string {
  if (!stored.startsWith('enc:')) return stored;
  if (!secret) throw new Error('the signing keys are encrypted: set FISHLOG_IDP_KEY_SECRET to the secret they were created with');
  const [, , iv, tag, data] = stored.split(':');
  const decipher = createDecipheriv('aes-256-gcm', secretKey(secret), Buffer.from(iv!, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag!, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data!, 'base64url')), decipher.final()]).toString('utf8');
}

export async function createSigningKey(db: Db, secret: string | undefined): Promise<string> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const kid = randomUUID();
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  await db.insert(signingKeys).values({ kid, privateKey: seal(await exportPKCS8(privateKey), secret), publicJwk: jwk });
  return kid;
}

/** Makes a new key the signing key; the previous ones stay for verification. */
export async function rotateSigningKey(db: Db, secret: string | undefined): Promise<{ kid: string; retired: string[] }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(7146250003)`);
    const retired = await tx.update(signingKeys).set({ retiredAt: new Date() }).where(isNull(signingKeys.retiredAt)).returning({ kid: signingKeys.kid });
    const kid = await createSigningKey(tx as unknown as Db, secret);
    return { kid, retired: retired.map((r) => r.kid) };
  });
}

const RELOAD_SPACING_MS = 250;

export class KeyStore {
  private signing: SigningKey | undefined;
  private publicKeys = new Map<string, PublicKey>();
  private lastReload = 0;

  constructor(
    private readonly db: Db,
    private readonly secret: string | undefined,
  ) {}

  /** The current signing key; created on first start. */
  async signingKey(): Promise<SigningKey> {
    if (this.signing && Date.now() - this.lastReload < 60_000) return this.signing;
    await this.reload();
    if (!this.signing) {
      await this.db.transaction(async (tx) => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(7146250003)`);
        const existing = await tx.select({ kid: signingKeys.kid }).from(signingKeys).where(isNull(signingKeys.retiredAt)).limit(1);
        if (existing.length === 0) await createSigningKey(tx as unknown as Db, this.secret);
      });
      await this.reload();
    }
    if (!this.signing) throw new Error('no signing key');
    return this.signing;
  }

  /**
   * The public key of `kid`. An unknown kid (a key rotated in by another process) triggers a
   * reload of the key set; reloads are shared and spaced by at least RELOAD_SPACING_MS, so a
   * flood of tokens with made-up kids costs the database one small query per interval.
   */
  async publicKey(kid: string): Promise<PublicKey | undefined> {
    const known = this.publicKeys.get(kid);
    if (known) return known;
    await this.sharedReload();
    return this.publicKeys.get(kid);
  }

  private pending: Promise<void> | undefined;

  private sharedReload(): Promise<void> {
    if (!this.pending) {
      const wait = Math.max(0, this.lastReload + RELOAD_SPACING_MS - Date.now());
      this.pending = new Promise<void>((resolve) => setTimeout(resolve, wait))
        .then(() => this.reload())
        .finally(() => {
          this.pending = undefined;
        });
    }
    return this.pending;
  }

  async jwks(): Promise<JWK[]> {
    const rows = await this.db.select({ jwk: signingKeys.publicJwk }).from(signingKeys);
    return rows.map((r) => r.jwk as JWK);
  }

  private async reload(): Promise<void> {
    this.lastReload = Date.now();
    const rows = await this.db.select().from(signingKeys).orderBy(desc(signingKeys.createdAt));
    const publicKeys = new Map<string, PublicKey>();
    for (const row of rows) publicKeys.set(row.kid, await importJWK(row.publicJwk as JWK, 'RS256'));
    this.publicKeys = publicKeys;
    const active = rows.find((r) => r.retiredAt === null);
    this.signing = active ? { kid: active.kid, privateKey: await importPKCS8(unseal(active.privateKey, this.secret), 'RS256') } : undefined;
  }
}
