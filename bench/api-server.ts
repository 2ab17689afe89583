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
import { systemOperations } from '../server/modules/system/system.routes.ts';
import { registerOperation } from '../server/platform/operation.ts';
import { createRateLimiter } from '../server/platform/rate-limit.ts';

const config = loadConfig({
  ...process.env,
  APP_ENV: 'test',
  LOG_LEVEL: 'silent',
  SQLITE_FILE: process.env.SQLITE_FILE ?? join(mkdtempSync(join(tmpdir(), 'visa-bench-')), 'bench.db'),
});
const database = openDatabase(config.database);
await migrateToLatest(database);
const { app } = await buildApp({ config, database });
// The very same operation (payload check, handler, envelope), outside the
// signed /www scope: the only difference left is the signature and replay check.
// Its path starts with /www/ (registerOperation refuses others for auth 'none'),
// but it is registered on the root instance, which the signature hook does not cover.
const sysConfig = systemOperations({ miniProgramLinkBase: config.MINI_PROGRAM_LINK_BASE, rateLimiter: createRateLimiter(database.db), now: Date.now }).find(
  (op) => op.path === '/www/sys_config_get',
)!;
registerOperation(app, { ...sysConfig, path: '/www/bench_sys_config_unsigned' });
// The server's own CPU time, so the benchmark can tell cost per request apart
// from what other processes on a shared machine take.
app.get('/bench/cpu', async () => process.cpuUsage());
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
console.log(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0, database: database.kind }));
process.on('SIGTERM', async () => {
  await app.close();
  await database.destroy();
  process.exit(0);
});
