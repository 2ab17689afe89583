// The configured storage of stored files: an S3-compatible bucket when
// S3_BUCKET is set, else the folder UPLOAD_DIR on local disk. The one place
// that knows both implementations (storage.ts is the interface they share).
// Either way every file is encrypted at rest (storage-encrypted.ts, decision 0043).
import type { AppConfig } from '../../config.ts';
import type { FileStorage } from './storage.ts';
import { createEncryptedStorage, type EncryptedFileStorage } from './storage-encrypted.ts';
import { createLocalStorage } from './storage-local.ts';
import { createS3Storage } from './storage-s3.ts';

export type StorageConfig = Pick<
  AppConfig,
  'fileKeyring' | 'UPLOAD_DIR' | 'S3_BUCKET' | 'S3_ENDPOINT' | 'S3_REGION' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY'
>;

/** The configured storage, every file sealed on its way in and opened on its way out. */
export function createFileStorage(config: StorageConfig): EncryptedFileStorage {
  return createEncryptedStorage(createRawFileStorage(config), config.fileKeyring);
}

/** The storage as it is, ciphertext and all (the benchmark's plaintext side, and tests that look at what is on disk). */
export function createRawFileStorage(config: Omit<StorageConfig, 'fileKeyring'>): FileStorage {
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
