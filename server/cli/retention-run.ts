// npm run retention:run [-- --days N]
// One retention pass now (the server also runs it every
// RETENTION_INTERVAL_MINUTES): deletes the uploaded scans of orders that
// became completed or refunded RETENTION_DAYS ago or more, and writes a
// retention_purge event for each. Safe beside running servers (each order is
// claimed first). Rules: docs/order-rules.md ("Ship back, completion and retention").
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { createFileStorage } from '../modules/stored-file/open-storage.ts';
import { createRetentionJob } from '../modules/retention/retention.job.ts';

async function main() {
  const config = loadConfig();
  const daysFlag = process.argv.indexOf('--days');
  const days = daysFlag >= 0 ? Number(process.argv[daysFlag + 1]) : config.RETENTION_DAYS;
  if (!Number.isInteger(days) || days < 1 || days > 3650) {
    console.error('usage: npm run retention:run [-- --days N]   (N: 1–3650; default RETENTION_DAYS)');
    process.exit(2);
  }
  const database = openDatabase(config.database);
  try {
    await migrateToLatest(database);
    const log = { info: () => {}, warn: (obj: object, msg: string) => console.error(msg, obj) };
    const job = createRetentionJob(database.db, { storage: createFileStorage(config), now: Date.now, retentionDays: days, log });
    let total = { orders: 0, purged: 0, files: 0 };
    // Batches until a pass finds nothing more to claim.
    for (;;) {
      const run = await job.runOnce();
      total = { orders: total.orders + run.orders, purged: total.purged + run.purged, files: total.files + run.files };
      if (run.orders === 0) break;
    }
    console.log(`retention (${days} days): ${total.purged} orders purged, ${total.files} files deleted (${total.orders} orders looked at)`);
  } finally {
    await database.destroy();
  }
}

main().catch((error) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  console.error(error);
  process.exit(1);
});
