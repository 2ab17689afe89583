// npm run files:encrypt
// Encrypts, in place, the stored files written before encryption at rest
// (decision 0043) under FILE_ENCRYPTION_KEY. Resumable: stopped at any point,
// the next run skips what is done. Safe beside running servers (each file is
// replaced whole; readers serve either form). Prints counts, never keys.
import { ConfigError, loadConfig } from '../config.ts';
import { encryptStoredFiles } from '../modules/stored-file/at-rest-commands.ts';
import { createFileStorage } from '../modules/stored-file/open-storage.ts';

async function main() {
  const config = loadConfig();
  if (config.fileKeyring.development) console.error('FILE_ENCRYPTION_KEY is not set: encrypting under the published development key (dev, demo and test only)');
  const totals = await encryptStoredFiles(createFileStorage(config), {
    failed: (key, error) => console.error(`${key}: ${error instanceof Error ? error.message : String(error)}`),
  });
  console.log(`files:encrypt: ${totals.done} files encrypted, ${totals.skipped} already encrypted, ${totals.failed} failed`);
  if (totals.failed > 0) process.exit(1);
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
