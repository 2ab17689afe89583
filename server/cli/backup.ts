// npm run backup -- DIR
// A consistent copy of the SQLite database (SQLite's online backup API: safe
// while the server writes) and of the upload store (UPLOAD_DIR) into DIR, a
// new or empty folder, with a manifest that restore checks. The order and
// what is left out: backup-restore.ts. README, "Backups".
// With DATABASE_URL (PostgreSQL) nothing is copied: the pg_dump commands are
// printed and the status is 1. With S3_BUCKET the database is copied and the
// bucket's sync command printed (the bucket is not in the backup).
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.ts';
import { BackupError, createBackup, postgresBackupCommands } from './backup-restore.ts';

const usage = 'usage: npm run backup -- <DIR>   (a new or empty folder; e.g. backups/$(date +%Y-%m-%d-%H%M))';

async function main() {
  const { positionals } = parseArgs({ allowPositionals: true, options: {} });
  const [dir] = positionals;
  if (!dir || positionals.length > 1) {
    console.error(usage);
    process.exit(2);
  }
  const config = loadConfig();
  if (config.database.kind === 'postgres') {
    console.error(postgresBackupCommands(config, dir).join('\n'));
    process.exit(1);
  }
  const result = await createBackup(config, dir, (line) => console.log(line));
  const { manifest } = result;
  for (const warning of result.warnings) console.error(`WARNING: ${warning}`);
  const uploads = manifest.uploads.included
    ? `${manifest.uploads.files} files (${mb(manifest.uploads.bytes)})`
    : `no files (bucket ${manifest.uploads.bucket})`;
  console.log(`backup written to ${result.dir}: database ${mb(manifest.database.bytes)} at migration ${manifest.migration ?? '(none)'}, ${uploads}`);
  console.log(
    `  rows: ${Object.entries(manifest.rows)
      .map(([table, count]) => `${table} ${count}`)
      .join(', ')}`,
  );
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

main().catch((error) => {
  if (error instanceof ConfigError || error instanceof BackupError) {
    console.error(error.message);
    process.exit(1);
  }
  console.error(error);
  process.exit(1);
});
