import { S3Client } from '@aws-sdk/client-s3';

/**
 * An S3 client for a bucket of AWS or of an S3-compatible service at `endpoint` (MinIO, R2, a test
 * server); credentials from the AWS environment. Used by the photo storage and the backups' copy.
 */
export function createS3Client(options: { region: string; endpoint: string | undefined; forcePathStyle: boolean }): S3Client {
  return new S3Client({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    forcePathStyle: options.forcePathStyle,
    // Checksums only where S3 requires them: S3-compatible services do not all read the
    // streaming-trailer checksums the SDK sends by default.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}
