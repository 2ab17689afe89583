// The app under `npm run bench:order`, in its own process: a fresh database
// (SQLite file, or a PostgreSQL schema of its own when BENCH_DATABASE_URL is
// set), the seeded catalogue, and BENCH_CUSTOMERS enterprises each logged in
// once. Prints {port, database, tokens, product} on its first line.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { sha256Hex } from '../common/signing.ts';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/database.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { seedCatalogue } from '../server/db/seed/catalogue/index.ts';

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 50);
const url = process.env.BENCH_DATABASE_URL;
const schema = url ? `bench_${randomBytes(5).toString('hex')}` : undefined;
if (url && schema) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
}
// The SQLite file's folder, removed at the end (a 10 s run leaves a WAL of a few hundred MB).
const sqliteDir = url ? null : mkdtempSync(join(tmpdir(), 'visa-bench-'));
const config = loadConfig({
  ...process.env,
  APP_ENV: 'test',
  LOG_LEVEL: 'silent',
  ...(url ? { DATABASE_URL: url } : { SQLITE_FILE: join(sqliteDir!, 'bench.db') }),
});
const database = openDatabase(config.database, schema ? { pgSchema: schema } : {});
await migrateToLatest(database);
await seedCatalogue(database.db, Date.now());
const { app, services } = await buildApp({ config, database });

const product = await database.db
  .selectFrom('visa_product')
  .select(['visa_product_id'])
  .where('status', '=', 0)
  .where('channel', '=', 0)
  .where('offline', '=', 1)
  .orderBy('visa_product_id')
  .executeTakeFirstOrThrow();

const password = sha256Hex('Bench@123456');
const tokens = await Promise.all(
  Array.from({ length: CUSTOMERS }, async (_, i) => {
    const account = `bench_${i}_${randomBytes(3).toString('hex')}`;
    await services.account.createEnterpriseWithAdmin({
      enterpriseName: `压测企业${i}`,
      enterpriseKind: 'agency',
      adminAccount: account,
      adminPasswordDigest: password,
      adminName: `压测管理员${i}`,
    });
    const { token } = await services.account.login({ account, passwordDigest: password, ip: `10.0.${Math.floor(i / 200)}.${i % 200}`, userAgent: null });
    return token;
  }),
);

await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
console.log(
  JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0, database: database.kind, tokens, product: product.visa_product_id }),
);

process.on('SIGTERM', async () => {
  await app.close();
  await database.destroy();
  if (url && schema) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  }
  if (sqliteDir) rmSync(sqliteDir, { recursive: true, force: true });
  process.exit(0);
});
