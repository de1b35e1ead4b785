import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/**
 * A real S3-protocol server in the test process (s3rver, files in a temp folder), with one bucket.
 * `env` configures the app's S3 storage against it (the SDK signs with these credentials; the
 * server checks them).
 */
export interface TestS3 {
  endpoint: string;
  bucket: string;
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startTestS3(bucket = 'fishlog-test'): Promise<TestS3> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'fishlog-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, resetOnClose: true, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver's default credentials.
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  return {
    endpoint,
    bucket,
    env: { FISHLOG_MEDIA_STORAGE: 's3', S3_BUCKET: bucket, S3_REGION: 'us-east-1', S3_ENDPOINT: endpoint, S3_FORCE_PATH_STYLE: 'true' },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
