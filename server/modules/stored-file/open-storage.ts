// The configured storage of stored files: an S3-compatible bucket when
// S3_BUCKET is set, else the folder UPLOAD_DIR on local disk. The one place
// that knows both implementations (storage.ts is the interface they share).
import type { AppConfig } from '../../config.ts';
import type { FileStorage } from './storage.ts';
import { createLocalStorage } from './storage-local.ts';
import { createS3Storage } from './storage-s3.ts';

export type StorageConfig = Pick<AppConfig, 'UPLOAD_DIR' | 'S3_BUCKET' | 'S3_ENDPOINT' | 'S3_REGION' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY'>;

export function createFileStorage(config: StorageConfig): FileStorage {
  if (config.S3_BUCKET) {
    if (!config.S3_ACCESS_KEY_ID || !config.S3_SECRET_ACCESS_KEY) {
      throw new Error('S3_BUCKET is set: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are needed too');
    }
    return createS3Storage({
      bucket: config.S3_BUCKET,
      endpoint: config.S3_ENDPOINT ?? `https://s3.${config.S3_REGION}.amazonaws.com`,
      region: config.S3_REGION,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    });
  }
  return createLocalStorage(config.UPLOAD_DIR);
}
