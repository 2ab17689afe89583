// npm run bench:order — orders created per second through the signed API with
// BENCH_CUSTOMERS (50) customers each sending order_create back to back for
// BENCH_SECONDS, with p50/p99 latency, on SQLite and then on PostgreSQL
// (BENCH_DATABASE_URL, default the local test database; skipped loudly when
// unreachable; BENCH_DATABASES=sqlite or =postgres for one); BENCH_PROFILE=DIR
// also writes the server's CPU profile. Afterwards every customer's order list is counted: the
// orders stored must equal the successes. Prints figures, asserts none.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import http from 'node:http';
import pg from 'pg';
import { signedHeaders } from './support.ts';
import { DEV_API_CLIENTS } from '../server/config.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 50);
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

function chinaDatePlus(days: number): string {
  return new Date(Date.now() + 8 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * CPU seconds used so far by the processes matched (Linux /proc; null elsewhere):
 * where the machine's two cores go per order — server, PostgreSQL's backends, this client.
 */
function cpuSeconds(match: (pid: number, comm: string) => boolean): number | null {
  try {
    let ticks = 0;
    for (const entry of readdirSync('/proc')) {
      const pid = Number(entry);
      if (!Number.isInteger(pid)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        continue; // the process ended while we looked
      }
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (!match(pid, comm)) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime + stime
    }
    return ticks / 100; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

async function run(label: string, env: Record<string, string>) {
  // BENCH_PROFILE=DIR writes the server's CPU profile there (open it in Chrome's DevTools).
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const server = spawn('node', [...profile, '--conditions=production', '--import', 'tsx', 'bench/order-server.ts'], {
    env: { ...process.env, ...env, API_CLIENTS: DEV_API_CLIENTS, NODE_ENV: 'production', BENCH_CUSTOMERS: String(CUSTOMERS) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let first = '';
  while (!first.includes('\n')) first += String(((await once(server.stdout!, 'data')) as [Buffer])[0]);
  const { port, tokens, product } = JSON.parse(first.split('\n')[0]!) as { port: number; tokens: string[]; product: number };
  const base = `http://127.0.0.1:${port}`;
  const departure = chinaDatePlus(30);

  // node:http with a keep-alive agent rather than fetch: the client shares the machine's cores with
  // the server (and PostgreSQL), and undici's fetch costs it about twice the CPU per call.
  const agent = new http.Agent({ keepAlive: true, maxSockets: CUSTOMERS });
  function post(path: string, token: string, body: object) {
    const payload = Buffer.from(JSON.stringify(body));
    return new Promise<{ ret: number; msg: string; body: any }>((resolve, reject) => {
      const request = http.request(
        base + path,
        { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': payload.length, ...signedHeaders(token) } },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            try {
              resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
            } catch (error) {
              reject(error);
            }
          });
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(payload);
    });
  }

  const latencies: number[] = [];
  let failures = 0;
  /** Successes including the warm-up: must equal what the lists count afterwards. */
  let created = 0;
  let firstFailure = '';
  let measuring = false;
  const stopAt = { warm: Date.now() + 2_000, end: 0 };
  async function customer(index: number) {
    const token = tokens[index]!;
    let n = 0;
    for (;;) {
      const now = Date.now();
      if (measuring && now >= stopAt.end) return;
      n += 1;
      const started = performance.now();
      const answer = await post('/www/order/order_create', token, {
        visa_product_id: product,
        departure_date: departure,
        applicants: [
          { name: `申请人${index}-${n}`, identity_id: 0, mobile_phone: '13800138000' },
          { name: `同行人${index}-${n}`, identity_id: 1, mobile_phone: '13900139000' },
        ],
      });
      const took = performance.now() - started;
      if (answer.ret === 0) created += 1;
      if (!measuring) continue;
      if (answer.ret === 0) latencies.push(took);
      else {
        failures += 1;
        firstFailure ||= `${answer.ret} ${answer.msg}`;
      }
    }
  }
  // Warm-up for 2 s (JIT, connection pools), then measure.
  const warm = Array.from({ length: CUSTOMERS }, (_, i) => customer(i));
  await new Promise((resolve) => setTimeout(resolve, stopAt.warm - Date.now()));
  const processes = {
    server: (pid: number) => pid === server.pid,
    postgres: (_pid: number, comm: string) => comm === 'postgres',
    client: (pid: number) => pid === process.pid,
  };
  const cpuBefore = Object.fromEntries(Object.entries(processes).map(([name, match]) => [name, cpuSeconds(match)]));
  measuring = true;
  stopAt.end = Date.now() + SECONDS * 1000;
  await Promise.all(warm);
  const cpu = Object.fromEntries(
    Object.entries(processes).map(([name, match]) => {
      const after = cpuSeconds(match);
      const before = cpuBefore[name];
      return [name, after === null || before === null || before === undefined ? null : after - before];
    }),
  ) as Record<keyof typeof processes, number | null>;

  // Count what was stored: each customer's order list.
  let stored = 0;
  for (const token of tokens) stored += (await post('/www/order/order_list', token, { tab: 'all', page: 1 })).body.total_count;
  agent.destroy();
  server.kill('SIGTERM');
  await once(server, 'exit');

  latencies.sort((a, b) => a - b);
  return {
    label,
    ok: latencies.length,
    failures,
    firstFailure,
    stored,
    created,
    rps: latencies.length / SECONDS,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    cpu,
  };
}

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

// BENCH_DATABASES=sqlite or =postgres measures one of them (default both).
const databases = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',');
const results = databases.includes('sqlite') ? [await run('SQLite', {})] : [];
if (!databases.includes('postgres')) console.log('\n(PostgreSQL not asked for: BENCH_DATABASES=' + databases.join(',') + ')');
else if (await postgresReachable()) results.push(await run('PostgreSQL', { BENCH_DATABASE_URL: PG_URL }));
else console.log(`\n!!! PostgreSQL at ${PG_URL} is not reachable: the PostgreSQL figures are NOT measured !!!\n`);

console.log(`\norder_create, ${CUSTOMERS} concurrent customers, 2 applicants per order, ${SECONDS} s after a 2 s warm-up`);
console.log('database    orders/s   p50 ms   p99 ms   failed   created/stored (incl. warm-up)');
for (const r of results) {
  console.log(
    `${r.label.padEnd(11)} ${r.rps.toFixed(0).padStart(8)} ${r.p50.toFixed(1).padStart(8)} ${r.p99.toFixed(1).padStart(8)} ${String(r.failures).padStart(8)}   ${r.created}/${r.stored}${r.created === r.stored ? '' : '  MISMATCH'}`,
  );
  if (r.firstFailure) console.log(`  first failure: ${r.firstFailure}`);
}
console.log('\nCPU per order (ms, over the measured seconds; PostgreSQL: all its processes)');
console.log('database      server   postgres     client');
const perOrder = (seconds: number | null, r: (typeof results)[number]) =>
  (seconds === null ? 'n/a' : ((seconds * 1000) / Math.max(1, r.ok + r.failures)).toFixed(2)).padStart(10);
for (const r of results) {
  console.log(
    `${r.label.padEnd(11)} ${perOrder(r.cpu.server, r)} ${r.label === 'SQLite' ? '         -' : perOrder(r.cpu.postgres, r)} ${perOrder(r.cpu.client, r)}`,
  );
}
