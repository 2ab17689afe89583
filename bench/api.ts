// npm run bench:api — requests/second and p99 of a signed sys_config_get
// against the same JSON from an unsigned route of the same server. Both runs
// send the same freshly signed headers, so the client does equal work; only
// the server's signature and replay checks differ. Prints figures, asserts none.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { once } from 'node:events';
import autocannon from 'autocannon';
import { API_VERSION } from '../common/constants.ts';
import { newRequestId, signRequest } from '../common/signing.ts';
import { DEV_API_CLIENTS } from '../server/config.ts';
import { median } from './support.ts';
import { openRedisConnection } from '../server/platform/redis-connection.ts';
import { replayKey } from '../server/platform/replay-store.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
// The platform, access key and secret the calls are signed with.
const [platform, accessKey, secret] = DEV_API_CLIENTS.split(':') as [string, string, string];

const server = spawn(
  'node',
  [
    ...(process.env.BENCH_PROF ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.BENCH_PROF] : []),
    '--conditions=production',
    '--import',
    'tsx',
    'bench/api-server.ts',
  ],
  {
    env: { ...process.env, API_CLIENTS: DEV_API_CLIENTS, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const [firstLine] = (await once(server.stdout!, 'data')) as [Buffer];
const { port, database } = JSON.parse(firstLine.toString()) as { port: number; database: string };

// The ids sent, so that the bench can delete its keys from a shared Redis when it ends:
// millions of left-over keys make the next run's Redis slower (decision 0016, "Redis client").
const sentIds: string[] = [];
function freshHeaders(): Record<string, string> {
  const date = new Date().toUTCString();
  const requestId = newRequestId();
  if (process.env.REDIS_URL) sentIds.push(requestId);
  return {
    'content-type': 'application/json',
    'x-version': API_VERSION,
    'x-date': date,
    'x-request-id': requestId,
    platform,
    authorization: `Basic ${signRequest({ accessKey, date, version: API_VERSION, requestId }, secret)}`,
  };
}

async function serverCpuMicros(): Promise<number> {
  const usage = (await (await fetch(`http://127.0.0.1:${port}/bench/cpu`)).json()) as { user: number; system: number };
  return usage.user + usage.system;
}

// With a Redis replay store, Redis's own CPU and its calls are part of a signed
// call's price: Redis shares this machine's cores with the server and the load.
const redis = process.env.REDIS_URL ? await openRedisConnection(process.env.REDIS_URL) : undefined;
async function redisCounters(): Promise<{ cpu: number; calls: number; reads: number }> {
  if (!redis) return { cpu: 0, calls: 0, reads: 0 };
  const [cpu, stats, io] = (await redis.send([
    ['INFO', 'cpu'],
    ['INFO', 'commandstats'],
    ['INFO', 'stats'],
  ])) as [string, string, string];
  const reads = Number(/total_reads_processed:(\d+)/.exec(io)?.[1] ?? 0);
  const seconds = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(cpu)?.[1] ?? 0);
  const calls = [...stats.matchAll(/cmdstat_(?!info)[^:]+:calls=(\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
  return { cpu: (seconds('used_cpu_sys') + seconds('used_cpu_user')) * 1e6, calls, reads };
}

/** The machine's busy and idle jiffies (all cores), to tell a saturated machine from one that waits. */
function machineJiffies(): { busy: number; idle: number } {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields.map(Number) as number[];
  return { busy: user! + nice! + system! + irq! + softirq! + steal!, idle: idle! + iowait! };
}

async function measure(path: string) {
  const machineBefore = machineJiffies();
  const redisBefore = await redisCounters();
  const cpuBefore = await serverCpuMicros();
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${path}`,
    connections: CONNECTIONS,
    pipelining: 1,
    duration: DURATION,
    requests: [{ method: 'POST', body: '{}', setupRequest: (request) => ({ ...request, headers: freshHeaders() }) }],
  });
  const non2xxOrFailed = result.non2xx + result.errors;
  const cpuPerRequest = (await serverCpuMicros()) - cpuBefore;
  const redisAfter = await redisCounters();
  const machineAfter = machineJiffies();
  const idle = machineAfter.idle - machineBefore.idle;
  const total = result.requests.total;
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    p50: result.latency.p50,
    non2xxOrFailed,
    cpu: cpuPerRequest / total,
    redisCpu: (redisAfter.cpu - redisBefore.cpu) / total,
    redisCalls: (redisAfter.calls - redisBefore.calls) / total,
    redisReads: (redisAfter.reads - redisBefore.reads) / total,
    machineIdle: idle / (idle + machineAfter.busy - machineBefore.busy),
  };
}

type Figures = Awaited<ReturnType<typeof measure>>;
function mean(runs: Figures[]): Figures {
  const avg = (pick: (f: Figures) => number) => runs.reduce((sum, f) => sum + pick(f), 0) / runs.length;
  return {
    rps: avg((f) => f.rps),
    p50: avg((f) => f.p50),
    p99: avg((f) => f.p99),
    non2xxOrFailed: avg((f) => f.non2xxOrFailed),
    cpu: avg((f) => f.cpu),
    redisCpu: avg((f) => f.redisCpu),
    redisCalls: avg((f) => f.redisCalls),
    redisReads: avg((f) => f.redisReads),
    machineIdle: avg((f) => f.machineIdle),
  };
}

// Warm both paths, then alternate in short rounds so a noisy moment hurts both sides alike:
// each round measures both, in turns (unsigned first, then signed first), and gives a ratio;
// on a machine shared with other work the median of those paired ratios is what holds still.
await measure('/www/bench_sys_config_unsigned');
await measure('/www/sys_config_get');
const unsignedRuns: Figures[] = [];
const signedRuns: Figures[] = [];
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
for (let round = 0; round < ROUNDS; round += 1) {
  if (round % 2 === 0) {
    unsignedRuns.push(await measure('/www/bench_sys_config_unsigned'));
    signedRuns.push(await measure('/www/sys_config_get'));
  } else {
    signedRuns.push(await measure('/www/sys_config_get'));
    unsignedRuns.push(await measure('/www/bench_sys_config_unsigned'));
  }
}
const unsigned = mean(unsignedRuns);
const signed = mean(signedRuns);
const pairedRatios = signedRuns.map((run, i) => run.rps / unsignedRuns[i]!.rps);
const pairedCpuRatios = signedRuns.map((run, i) => unsignedRuns[i]!.cpu / run.cpu);
server.kill('SIGTERM');
if (redis) {
  for (let i = 0; i < sentIds.length; i += 10_000) await redis.send([['UNLINK', ...sentIds.slice(i, i + 10_000).map((id) => replayKey(platform, id))]]);
  await redis.close();
}

const cost = 1 - signed.rps / unsigned.rps;
console.log(
  `database: ${database}${process.env.REDIS_URL ? ' + Redis replay store' : ''}; ${CONNECTIONS} connections, no pipelining, ${ROUNDS} alternating rounds of ${DURATION} s each, loopback (means)`,
);
console.log(
  `unsigned route      ${unsigned.rps.toFixed(0).padStart(7)} req/s   p50 ${unsigned.p50} ms   p99 ${unsigned.p99} ms   errors ${unsigned.non2xxOrFailed}   server CPU ${unsigned.cpu.toFixed(1)} µs/request`,
);
console.log(
  `signed sys_config   ${signed.rps.toFixed(0).padStart(7)} req/s   p50 ${signed.p50} ms   p99 ${signed.p99} ms   errors ${signed.non2xxOrFailed}   server CPU ${signed.cpu.toFixed(1)} µs/request`,
);
// On a machine shared with other work the throughput moves with their load;
// the server's CPU per request does not, so it is printed as a second view.
console.log(
  `server CPU per request unsigned/signed ${(unsigned.cpu / signed.cpu).toFixed(3)} — the checks cost ${((1 - unsigned.cpu / signed.cpu) * 100).toFixed(1)}% of a signed call's CPU`,
);
console.log(
  `machine idle while measuring: unsigned ${(unsigned.machineIdle * 100).toFixed(1)}%, signed ${(signed.machineIdle * 100).toFixed(1)}% of ${availableParallelism()} cores`,
);
if (redis) {
  console.log(
    `Redis per signed request: ${signed.redisCalls.toFixed(3)} commands in ${signed.redisReads.toFixed(3)} reads, ${signed.redisCpu.toFixed(1)} µs of Redis's CPU (unsigned: ${unsigned.redisCalls.toFixed(3)}, ${unsigned.redisCpu.toFixed(1)} µs)`,
  );
}
console.log(
  `signed/unsigned throughput ratio ${(signed.rps / unsigned.rps).toFixed(3)} (means) — signature + replay checks cost ${(cost * 100).toFixed(1)}% (goal: under 20%)`,
);
console.log(
  `paired rounds: throughput ratio median ${median(pairedRatios).toFixed(3)} (${pairedRatios.map((r) => r.toFixed(2)).join(' ')}), server CPU ratio median ${median(pairedCpuRatios).toFixed(3)}`,
);
