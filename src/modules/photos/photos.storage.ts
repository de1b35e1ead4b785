import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import type { MediaConfig } from '../../config.js';
import { checkKey, type MediaStorage } from './photos.media.js';

export type { MediaStorage } from './photos.media.js';

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
    async open(key) {
      const handle = await open(path.join(root, checkKey(key)), 'r').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      });
      if (!handle) return undefined;
      try {
        const { size } = await handle.stat();
        return { body: handle.createReadStream(), size };
      } catch (error) {
        await handle.close();
        throw error;
      }
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

/**
 * The configured storage: an S3 bucket (`FISHLOG_MEDIA_STORAGE=s3`; the AWS SDK is loaded only
 * then, as it holds ~5 MB of heap and ~25 MB of RSS) or files under the data folder.
 */
export async function createStorage(config: MediaConfig, dataDir: string): Promise<MediaStorage> {
  if (!config.s3) return localStorage(path.join(dataDir, 'media'));
  const { s3Storage } = await import('./photos.s3-storage.js');
  return s3Storage(config.s3);
}
