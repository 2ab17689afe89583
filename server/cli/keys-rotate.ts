// npm run keys:rotate
// Re-wraps every stored file's data key under FILE_ENCRYPTION_KEY, from
// FILE_ENCRYPTION_KEY_OLD (decision 0043). Without downtime: first give the
// servers both keys (new as FILE_ENCRYPTION_KEY, old as FILE_ENCRYPTION_KEY_OLD;
// they read either and write under the new one), run this, then drop the old
// key. Only headers change; resumable like files:encrypt. Prints counts, never keys.
import { ConfigError, loadConfig } from '../config.ts';
import { rotateFileKeys } from '../modules/stored-file/at-rest-commands.ts';
import { createFileStorage } from '../modules/stored-file/open-storage.ts';

async function main() {
  const config = loadConfig();
  if (!config.fileKeyring.old) {
    console.error('keys:rotate needs the new master key as FILE_ENCRYPTION_KEY and the old one as FILE_ENCRYPTION_KEY_OLD');
    process.exit(2);
  }
  const totals = await rotateFileKeys(createFileStorage(config), {
    failed: (key, error) => console.error(`${key}: ${error instanceof Error ? error.message : String(error)}`),
  });
  console.log(`keys:rotate: ${totals.done} data keys re-wrapped, ${totals.skipped} already under the new key (or not yet encrypted), ${totals.failed} failed`);
  if (totals.failed > 0) process.exit(1);
  console.log('FILE_ENCRYPTION_KEY_OLD is no longer needed once every server has restarted without it.');
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
