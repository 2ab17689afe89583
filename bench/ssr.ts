// npm run bench:ssr — requests/second of the server-rendered product page for
// a guest, against a plain node:http server sending the same bytes from
// memory (the physical limit on this machine). autocannon, no pipelining,
// alternating rounds. Also the uncached render rate. Prints, asserts nothing.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import SQLite from 'better-sqlite3';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

if (!existsSync('build/server/index.js')) throw new Error('build/server/index.js is missing: run `npm run build` first');

const dir = mkdtempSync(join(tmpdir(), 'visa-bench-ssr-'));
const dbFile = join(dir, 'bench.db');

async function start(command: string[], env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn('node', command, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  for await (const chunk of child.stdout!) {
    output += String(chunk);
    const port = /"port":(\d+)/.exec(output)?.[1];
    if (port) return { child, port: Number(port) };
  }
  throw new Error(`${command.join(' ')} exited before listening`);
}

// The real app, demo-seeded, JSON logs on stdout (the first log line with its port).
const app = await start(['--conditions=production', '--import', 'tsx', 'server/main.ts'], {
  APP_ENV: 'demo',
  NODE_ENV: 'production',
  SQLITE_FILE: dbFile,
  HOST: '127.0.0.1',
  PORT: '0',
  LOG_LEVEL: 'info',
});
app.child.stdout!.resume();

const db = new SQLite(dbFile, { readonly: true });
const product = db
  .prepare(
    `select p.visa_product_id as id from visa_product p
     where p.status = 0 and p.channel = 0 and p.offline = 1
       and (select count(*) from visa_product_review r where r.visa_product_id = p.visa_product_id) > 10
     order by p.visa_product_id limit 1`,
  )
  .get() as { id: number };
db.close();
const path = `/visa/product/${product.id}`;
const appUrl = `http://127.0.0.1:${app.port}${path}`;

const first = await fetch(appUrl, { headers: { 'accept-encoding': 'identity' } });
const bytes = Buffer.from(await first.arrayBuffer());
const bodyFile = join(dir, 'page.html');
writeFileSync(bodyFile, bytes);
const plain = await start(['--import', 'tsx', 'bench/plain-server.ts', bodyFile], {});

async function measure(url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, connections: CONNECTIONS, pipelining: 1, duration: DURATION, headers });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

await measure(appUrl);
await measure(`http://127.0.0.1:${plain.port}/`);
const appRuns = [];
const plainRuns = [];
for (let round = 0; round < 2; round += 1) {
  appRuns.push(await measure(appUrl));
  plainRuns.push(await measure(`http://127.0.0.1:${plain.port}/`));
}
// A cookie that is not a valid session makes the page uncacheable: every request renders.
const uncached = await measure(appUrl, { cookie: 'token=not-a-session' });
app.child.kill('SIGTERM');
plain.child.kill('SIGTERM');

const mean = (runs: Array<{ rps: number; p99: number; errors: number }>) => ({
  rps: runs.reduce((s, r) => s + r.rps, 0) / runs.length,
  p99: runs.reduce((s, r) => s + r.p99, 0) / runs.length,
  errors: runs.reduce((s, r) => s + r.errors, 0),
});
const a = mean(appRuns);
const p = mean(plainRuns);
console.log(`page ${path}: ${bytes.length} bytes uncompressed; ${CONNECTIONS} connections, no pipelining, ${DURATION} s per run, 2 alternating rounds (means)`);
console.log(`plain node:http, same bytes   ${p.rps.toFixed(0).padStart(7)} req/s   p99 ${p.p99.toFixed(0)} ms   errors ${p.errors}`);
console.log(`app, guest (cached render)    ${a.rps.toFixed(0).padStart(7)} req/s   p99 ${a.p99.toFixed(0)} ms   errors ${a.errors}`);
console.log(`app, every request rendered   ${uncached.rps.toFixed(0).padStart(7)} req/s   p99 ${uncached.p99.toFixed(0)} ms   errors ${uncached.errors}`);
console.log(`ratio app/plain ${(a.rps / p.rps).toFixed(2)} (goal ≥ 0.5)`);
process.exit(0);
