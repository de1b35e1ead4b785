import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { DeleteObjectsCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { randomUUID } from 'node:crypto';
import type { MediaConfig } from '../../config.js';

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
  /** Deletes the files; a missing one is no error. */
  delete(keys: string[]): Promise<void>;
  /** A short-lived URL that reads the file directly (S3 only, when redirects are configured). */
  presignedUrl?(key: string): Promise<string>;
}

const KEY = /^[a-z0-9][a-z0-9/._-]*$/;

function checkKey(key: string): string {
  if (!KEY.test(key) || key.includes('..')) throw new Error(`invalid media key ${key}`);
  return key;
}

/** Files under `root` (FISHLOG_DATA_DIR/media): written to `root/.tmp` and renamed into place. */
export function localStorage(root: string): MediaStorage {
  const tmp = path.join(root, '.tmp');
  return {
    kind: 'local',
    async put(key, body) {
      const target = path.join(root, checkKey(key));
      await mkdir(tmp, { recursive: true });
      await mkdir(path.dirname(target), { recursive: true });
      const temp = path.join(tmp, randomUUID());
      try {
        await writeFile(temp, body, { flag: 'wx' });
        await rename(temp, target);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    },
    async get(key) {
      const stream = createReadStream(path.join(root, checkKey(key)));
      return new Promise<Readable | undefined>((resolve, reject) => {
        stream.once('open', () => resolve(stream));
        stream.once('error', (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? resolve(undefined) : reject(error)));
      });
    },
    async delete(keys) {
      for (const key of keys) {
        const file = path.join(root, checkKey(key));
        await rm(file, { force: true });
        // The photo's folder goes with its last file (a folder still holding a file stays).
        await rm(path.dirname(file), { recursive: false, force: true }).catch(() => undefined);
      }
    },
  };
}

/** An S3 bucket (or an S3-compatible service at `endpoint`); credentials from the AWS environment. */
export function s3Storage(options: NonNullable<MediaConfig['s3']>): MediaStorage {
  const client = new S3Client({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    forcePathStyle: options.forcePathStyle,
    // Checksums only where S3 requires them: S3-compatible services do not all read the
    // streaming-trailer checksums the SDK sends by default.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = options.bucket;
  const storage: MediaStorage = {
    kind: 's3',
    async put(key, body, contentType) {
      await client.send(new PutObjectCommand({ Bucket, Key: checkKey(key), Body: body, ContentType: contentType, ContentLength: body.length }));
    },
    async get(key) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: checkKey(key) }));
        return answer.Body as Readable;
      } catch (error) {
        if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return undefined;
        throw error;
      }
    },
    async delete(keys) {
      for (let i = 0; i < keys.length; i += 1000) {
        const Objects = keys.slice(i, i + 1000).map((key) => ({ Key: checkKey(key) }));
        if (Objects.length > 0) await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }));
      }
    },
  };
  if (options.redirectSeconds > 0) {
    storage.presignedUrl = (key) => getSignedUrl(client, new GetObjectCommand({ Bucket, Key: checkKey(key) }), { expiresIn: options.redirectSeconds });
  }
  return storage;
}

export function createStorage(config: MediaConfig, dataDir: string): MediaStorage {
  return config.s3 ? s3Storage(config.s3) : localStorage(path.join(dataDir, 'media'));
}
