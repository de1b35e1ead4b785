import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type * as S3 from '@aws-sdk/client-s3';

/**
 * A copy of the backup folder in an S3 bucket (FISHLOG_BACKUP_TARGET=s3: the bucket the media
 * storage uses, under FISHLOG_BACKUP_S3_PREFIX). PostgreSQL archives into the local folder as
 * always (fast, atomic, no network in `archive_command`); `uploadBackups` copies every file the
 * bucket lacks (each base backup's manifest last, so a backup in the bucket is whole once its
 * manifest is there) and `downloadBackups` brings back what the folder lacks, before a restore onto
 * a new disk. Files are never overwritten in either place: their names are unique, their content fixed.
 */

export interface BackupBucket {
  bucket: string;
  region: string;
  endpoint: string | undefined;
  forcePathStyle: boolean;
  prefix: string;
}

export interface BackupRemote {
  list(): Promise<Set<string>>;
  upload(key: string, file: string): Promise<void>;
  download(key: string, file: string): Promise<void>;
  /** A small object's content (a manifest). */
  read(key: string): Promise<Buffer>;
  delete(keys: string[]): Promise<void>;
}

/**
 * The AWS SDK and the client, loaded at the first call: the server imports this file (through
 * backup.ts) before the embedded PostgreSQL starts, and the SDK is several hundred files.
 */
function lazyClient(options: BackupBucket): () => Promise<{ client: S3.S3Client; sdk: typeof S3 }> {
  let loaded: Promise<{ client: S3.S3Client; sdk: typeof S3 }> | undefined;
  return () =>
    (loaded ??= Promise.all([import('@aws-sdk/client-s3'), import('../s3-client.js')]).then(([sdk, { createS3Client }]) => ({ client: createS3Client(options), sdk })));
}

export function s3BackupRemote(options: BackupBucket): BackupRemote {
  const s3 = lazyClient(options);
  const Bucket = options.bucket;
  const prefix = options.prefix;
  return {
    async list() {
      const { client, sdk } = await s3();
      const keys = new Set<string>();
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new sdk.ListObjectsV2Command({ Bucket, Prefix: prefix, ...(ContinuationToken ? { ContinuationToken } : {}) }));
        for (const object of page.Contents ?? []) if (object.Key) keys.add(object.Key.slice(prefix.length));
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return keys;
    },
    async upload(key, file) {
      const { client, sdk } = await s3();
      const { size } = await fs.stat(file);
      await client.send(new sdk.PutObjectCommand({ Bucket, Key: prefix + key, Body: createReadStream(file), ContentLength: size }));
    },
    async download(key, file) {
      const { client, sdk } = await s3();
      const answer = await client.send(new sdk.GetObjectCommand({ Bucket, Key: prefix + key }));
      const partial = `${file}.${process.pid}.download`;
      await pipeline(answer.Body as Readable, createWriteStream(partial, { mode: 0o600 }));
      await fs.rename(partial, file);
    },
    async read(key) {
      const { client, sdk } = await s3();
      const answer = await client.send(new sdk.GetObjectCommand({ Bucket, Key: prefix + key }));
      return Buffer.from(await answer.Body!.transformToByteArray());
    },
    async delete(keys) {
      const { client, sdk } = await s3();
      for (let i = 0; i < keys.length; i += 1000) {
        const Objects = keys.slice(i, i + 1000).map((key) => ({ Key: prefix + key }));
        if (Objects.length > 0) await client.send(new sdk.DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }));
      }
    },
  };
}

/** The files of a backup folder, by their key (`wal/<segment>.gz`, `base/<id>/<file>`), manifests last. */
export async function localFiles(dir: string): Promise<string[]> {
  const keys: string[] = [];
  for (const name of (await fs.readdir(path.join(dir, 'wal')).catch(() => [] as string[])).sort()) {
    if (!name.startsWith('.') && name.endsWith('.gz')) keys.push(`wal/${name}`);
  }
  const manifests: string[] = [];
  for (const id of (await fs.readdir(path.join(dir, 'base')).catch(() => [] as string[])).sort()) {
    if (id.startsWith('.')) continue; // a backup being written
    for (const name of (await fs.readdir(path.join(dir, 'base', id)).catch(() => [] as string[])).sort()) {
      (name === 'manifest.json' ? manifests : keys).push(`base/${id}/${name}`);
    }
  }
  return [...keys, ...manifests];
}

/** Copies every file of the backup folder the bucket lacks; returns how many it copied. */
export async function uploadBackups(dir: string, remote: BackupRemote): Promise<{ uploaded: number }> {
  const present = await remote.list();
  let uploaded = 0;
  for (const key of await localFiles(dir)) {
    if (present.has(key)) continue;
    try {
      await remote.upload(key, path.join(dir, key));
    } catch (error) {
      // Deleted meanwhile by the retention: nothing to copy.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    uploaded += 1;
  }
  return { uploaded };
}

/**
 * Brings every file of the bucket the backup folder lacks (a restore onto a new disk), or those of
 * them `wanted` takes; manifests last.
 */
export async function downloadBackups(dir: string, remote: BackupRemote, wanted: (key: string) => boolean = () => true): Promise<{ downloaded: number }> {
  const keys = [...(await remote.list())].filter((key) => /^(wal\/[^/]+\.gz|base\/[^/.][^/]*\/[^/]+)$/.test(key) && wanted(key));
  const ordered = [...keys.filter((k) => !k.endsWith('/manifest.json')), ...keys.filter((k) => k.endsWith('/manifest.json'))];
  let downloaded = 0;
  for (const key of ordered) {
    const file = path.join(dir, key);
    const there = await fs.access(file).then(
      () => true,
      () => false,
    );
    if (there) continue;
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await remote.download(key, file);
    downloaded += 1;
  }
  return { downloaded };
}
