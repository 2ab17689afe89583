// npm run restore -- DIR
// Puts a backup made by `npm run backup` back in place of SQLITE_FILE and
// UPLOAD_DIR/materials. STOP THE SERVER FIRST: the restore refuses while a
// process has the database open. Everything is checked against the manifest's
// checksums before anything is touched; what was there is moved aside
// (*.pre-restore-<time>), never deleted. README, "Backups".
// With DATABASE_URL (PostgreSQL) the pg_restore commands are printed instead (status 1).
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.ts';
import { BackupError, postgresRestoreCommands, restoreBackup } from './backup-restore.ts';

const usage = 'usage: npm run restore -- <DIR>   (a folder written by npm run backup; stop the server first)';

async function main() {
  const { positionals } = parseArgs({ allowPositionals: true, options: {} });
  const [dir] = positionals;
  if (!dir || positionals.length > 1) {
    console.error(usage);
    process.exit(2);
  }
  const config = loadConfig();
  if (config.database.kind === 'postgres') {
    console.error(postgresRestoreCommands(config, dir).join('\n'));
    process.exit(1);
  }
  const result = await restoreBackup(config, dir, (line) => console.log(line));
  const { manifest } = result;
  console.log(`restored the backup of ${manifest.started_at} (version ${manifest.app_version}, migration ${manifest.migration ?? '(none)'})`);
  console.log(`  database: ${result.database}${result.previousDatabase ? ` (the previous one moved to ${result.previousDatabase})` : ''}`);
  console.log(
    `  rows: ${Object.entries(manifest.rows)
      .map(([table, count]) => `${table} ${count}`)
      .join(', ')}`,
  );
  if (result.uploads) {
    console.log(
      `  uploads: ${result.files} files in ${result.uploads}${result.previousUploads ? ` (the previous ones moved to ${result.previousUploads})` : ''}`,
    );
  }
  if (result.pendingMigrations.length > 0) console.log(`  the server applies ${result.pendingMigrations.length} newer migrations when it starts`);
  for (const warning of result.warnings) console.error(`WARNING: ${warning}`);
  if (result.previousDatabase || result.previousUploads) console.log('Delete the moved-aside copies once the restored site has been checked.');
}

main().catch((error) => {
  if (error instanceof ConfigError || error instanceof BackupError) {
    console.error(error.message);
    process.exit(1);
  }
  console.error(error);
  process.exit(1);
});
