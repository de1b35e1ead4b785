import type { Readable } from 'node:stream';

/**
 * Where photo files live: one interface, two adapters. Keys are relative paths
 * (`photos/<id>/display.jpg`). A write is atomic: a reader sees the whole file or none
 * (a temp file renamed into place on disk; a completed PutObject on S3).
 */
export interface MediaStorage {
  readonly kind: 'local' | 's3';
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The file as a stream, or undefined when there is none. */
  get(key: string): Promise<Readable | undefined>;
  /** The file as a stream with its length in bytes (for an archive entry), or undefined when there is none. */
  open(key: string): Promise<{ body: Readable; size: number } | undefined>;
  /** Deletes the files; a missing one is no error. */
  delete(keys: string[]): Promise<void>;
  /** A short-lived URL that reads the file directly (S3 only, when redirects are configured). */
  presignedUrl?(key: string): Promise<string>;
}

const KEY = /^[a-z0-9][a-z0-9/._-]*$/;

export function checkKey(key: string): string {
  if (!KEY.test(key) || key.includes('..')) throw new Error(`invalid media key ${key}`);
  return key;
}
