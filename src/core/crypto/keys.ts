import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Keys kept outside the database: the configured secret, else a key file in the data folder
 * (created on first use, mode 0600, by whichever process comes first). The audit chain's HMAC
 * (`audit.key`) and the system settings' encryption (`settings.key`) use it.
 */
export function loadKey(configured: string | undefined, dataDir: string, fileName: string): Buffer {
  if (configured) return Buffer.from(configured, 'utf8');
  const file = path.join(dataDir, fileName);
  try {
    return Buffer.from(readFileSync(file, 'utf8').trim(), 'utf8');
  } catch {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    try {
      writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error; // another process made it first
    }
    return Buffer.from(readFileSync(file, 'utf8').trim(), 'utf8');
  }
}

const PREFIX = 'gcm1';

/** AES-256-GCM under SHA-256(key): `gcm1:<iv>:<tag>:<ciphertext>` (base64url). */
export function seal(plaintext: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', createHash('sha256').update(key).digest(), iv);
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [PREFIX, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join(':');
}

/** The plaintext of `seal`; throws when the key is not the one it was sealed with, or the text was altered. */
export function unseal(sealed: string, key: Buffer): string {
  const [prefix, iv, tag, data] = sealed.split(':');
  if (prefix !== PREFIX || !iv || !tag || data === undefined) throw new Error('not a sealed value');
  const decipher = createDecipheriv('aes-256-gcm', createHash('sha256').update(key).digest(), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
