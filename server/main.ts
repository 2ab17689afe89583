// The only file that opens a port: config → database → migrations → seed → listen.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerBuild } from 'react-router';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { seedOnStart } from './db/seed/on-start.ts';

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

  await seedOnStart({ config, database, services, log: app.log });

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
