// The only file that opens a port: config → database → migrations → seed → listen.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerBuild } from 'react-router';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { seedCatalogue } from './db/seed/catalogue/index.ts';
import { seedDemoAccounts } from './db/seed/demo-accounts.ts';
import { seedDemoOperators } from './db/seed/demo-operators.ts';
import { seedNationalDays } from './db/seed/national-days.ts';
import { seedInsurancePlans } from './db/seed/insurance-plans.ts';
import { seedReceivingAddresses } from './db/seed/receiving-addresses.ts';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const database = openDatabase(config.database);
  const applied = await migrateToLatest(database);

  const buildDir = process.env.BUILD_DIR ?? 'build';
  const serverBuild = resolve(buildDir, 'server/index.js');
  if (!existsSync(serverBuild)) {
    console.error(`${buildDir}/server/index.js is missing: run "npm run build" first (or "npm start").`);
    process.exit(1);
  }
  const build = (await import(pathToFileURL(serverBuild).href)) as ServerBuild;
  const { app, services } = await buildApp({ config, database, pages: { build, clientDir: join(buildDir, 'client') } });
  app.log.info({ applied, database: database.kind }, 'migrations applied');

  if (config.APP_ENV === 'dev' || config.APP_ENV === 'demo') {
    const created = await seedDemoAccounts(services.account, async (account) =>
      Boolean(await database.db.selectFrom('account').select('id').where('account', '=', account).executeTakeFirst()),
    );
    if (created > 0) app.log.info({ created }, 'demo accounts seeded');
    const catalogue = await seedCatalogue(database.db, Date.now());
    if (catalogue.countries > 0) app.log.info(catalogue, 'demo catalogue seeded');
    const plans = await seedInsurancePlans(database.db);
    if (plans > 0) app.log.info({ plans }, 'demo insurance plans seeded');
    const receiving = await seedReceivingAddresses(database.db, Date.now());
    if (receiving > 0) app.log.info({ receiving }, 'demo receiving addresses seeded');
  }
  // Demo back-office staff: dev and demo only (the function itself refuses any other APP_ENV).
  const operators = await seedDemoOperators(services.operator, config.APP_ENV);
  if (operators > 0) app.log.info({ operators }, 'demo operators seeded');
  // Every environment: consulate closing days of the countries present (adds only for countries without any).
  const nationalDays = await seedNationalDays(database.db);
  if (nationalDays > 0) app.log.info({ nationalDays }, 'national days seeded');

  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await database.destroy();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ host: config.HOST, port: config.PORT });
  const address = app.server.address();
  app.log.info({ port: typeof address === 'object' && address ? address.port : config.PORT }, 'ready');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
