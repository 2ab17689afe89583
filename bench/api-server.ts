// The app under benchmark, in its own process so the load generator does not
// share its event loop. Adds one unsigned route returning the very JSON that
// the signed sys_config_get returns, then prints its port.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/database.ts';
import { migrateToLatest } from '../server/db/migrate.ts';

const config = loadConfig({
  ...process.env,
  APP_ENV: 'test',
  LOG_LEVEL: 'silent',
  SQLITE_FILE: process.env.SQLITE_FILE ?? join(mkdtempSync(join(tmpdir(), 'visa-bench-')), 'bench.db'),
});
const database = openDatabase(config.database);
await migrateToLatest(database);
const { app } = await buildApp({ config, database });
const plainBody = JSON.stringify({ ret: 0, msg: 'ok', body: { addr_download_url: '', address_root_region: '86' } });
app.post('/bench/sys_config_unsigned', async (_request, reply) => reply.type('application/json; charset=utf-8').send(plainBody));
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
console.log(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0, database: database.kind }));
process.on('SIGTERM', async () => {
  await app.close();
  await database.destroy();
  process.exit(0);
});
