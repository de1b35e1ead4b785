import type { Readable } from 'node:stream';
import { DeleteObjectsCommand, GetObjectCommand, NoSuchKey, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { MediaConfig } from '../../config.js';
import { createS3Client } from '../../core/s3-client.js';
import { checkKey, type MediaStorage } from './photos.media.js';

/** An S3 bucket (or an S3-compatible service at `endpoint`); credentials from the AWS environment. */
export function s3Storage(options: NonNullable<MediaConfig['s3']>): MediaStorage {
  const client = createS3Client(options);
  const Bucket = options.bucket;
  const storage: MediaStorage = {
    kind: 's3',
    async put(key, body, contentType) {
      await client.send(new PutObjectCommand({ Bucket, Key: checkKey(key), Body: body, ContentType: contentType, ContentLength: body.length }));
    },
    async get(key) {
      return (await storage.open(key))?.body;
    },
    async open(key) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: checkKey(key) }));
        return { body: answer.Body as Readable, size: answer.ContentLength ?? 0 };
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
