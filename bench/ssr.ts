// npm run bench:ssr — requests/second of the server-rendered product page for
// a guest, against a plain node:http server sending the same bytes from
// memory (the physical limit on this machine). autocannon, no pipelining,
// alternating rounds. Also the uncached render rate. Prints, asserts nothing.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { benchProductId, startBuiltApp, startProcess } from './support.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

const app = await startBuiltApp();
const path = `/visa/product/${benchProductId(app.dbFile)}`;
const appUrl = `http://127.0.0.1:${app.port}${path}`;

const first = await fetch(appUrl, { headers: { 'accept-encoding': 'identity' } });
const bytes = Buffer.from(await first.arrayBuffer());
const bodyFile = join(app.dir, 'page.html');
writeFileSync(bodyFile, bytes);
const plain = await startProcess(['--import', 'tsx', 'bench/plain-server.ts', bodyFile]);

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
