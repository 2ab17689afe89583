// npm run bench:day — a mixed-load benchmark (issue 23): two instances of the
// built app on one PostgreSQL database and one Redis (replay protection
// shared), the demo catalogue, accounts and operators seeded at their start,
// and BENCH_DAY_USERS (120) virtual users spread round-robin over the two
// for BENCH_DAY_SECONDS (60) after a BENCH_DAY_WARMUP_SECONDS (10) warm-up.
//
// The mix (bench/day-users.ts has each user's steps):
//   - 75 % visitors. A visa site is mostly browsing: destination pages found
//     by search engines and from the home page, the product pages with their
//     checklists and reviews; one visit in five comes from the mobile app
//     over the signed catalogue calls. New visitors (60 %) download the
//     scripts and styles of their first page.
//   - 20 % customers: enterprise and agency administrators, logged in once,
//     who order for their staff or clients (1–3 applicants), upload each
//     required scan, confirm, pay (the payment sandbox, the payer's phone
//     included), follow their orders and re-upload what was refused. These
//     are the writes: orders, files, payments, notices.
//   - 5 % operators (at least 2): back-office staff logged in once with a
//     TOTP code, working the queue of paid orders in material review: take
//     one, open each file, pass or refuse it.
// Why these shares: most people on a visa site never log in (they compare
// destinations, prices and checklists); those who order here are businesses
// ordering for others, so they come back often and each order brings many
// writes (an upload per required document and applicant, ~10 an order);
// staff are few. At 120 users that is ~45 paid orders and ~600 uploads a
// minute against ~110 file reviews: the queue grows, as in a morning rush.
// Think times are those of a busy hour compressed about five times (pages
// read in 1.5–4 s, a file checked in 1.5–4 s, an upload every 0.5–1.5 s):
// the point is the servers' load with the real mix of reads, renders and
// writes, not a day's worth of wall time. BENCH_DAY_THINK scales them.
//
// Set-up: a database of its own (bench_day_<random>) on BENCH_DAY_PG's server
// (default the local test database's), dropped at the end; Redis database
// BENCH_DAY_REDIS_DB (11) of REDIS_URL's server, our replay keys deleted at
// the end; one shared temporary UPLOAD_DIR (either instance serves the
// other's files); the build in BUILD_DIR (default build). Customers'
// enterprises are created with the account:create CLI's service, extra
// operators with the operator:create CLI's; BENCH_DAY_SETUP_ORDERS (40)
// orders are placed and paid before the warm-up so that the operators'
// queue has work from the start.
//
// A copy of the build outside the repository needs node_modules reachable
// from it (its server bundle imports react and antd): symlink it beside.
//
// Prints p50 / p99 per group of calls, throughput, errors (network errors,
// unexpected HTTP ≥ 400, unexpected ret ≠ 0, a page redirecting to a login),
// expected refusals apart, the slowest calls, where the CPU went (each
// instance, PostgreSQL's backends, Redis, the driver, the rest of the
// machine), what PostgreSQL waited on, and the window slice by slice (calls'
// p99 next to the machine's CPU and each instance's event-loop delay and pool
// waiters from its /metrics) — on a shared machine the tail follows what else
// runs. BENCH_DAY_CPU_PROF=<dir> writes instance A's CPU profile there;
// BENCH_DAY_LOG_LEVEL (warn) is the instances' LOG_LEVEL. Goal on this
// machine: 0 errors and p99 ≤ 500 ms in every group. A benchmark, not a test:
// exits 0 whether the goal is met or not, 1 only when the set-up failed.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { sha256Hex } from '../common/signing.ts';
import { DEV_API_CLIENTS, loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/database.ts';
import { DEMO_ACCOUNTS } from '../server/db/seed/demo-accounts.ts';
import { DEMO_OPERATORS } from '../server/db/seed/demo-operators.ts';
import { createAccountService } from '../server/modules/account/account.service.ts';
import { createOperatorService } from '../server/modules/operator/operator.service.ts';
import { totpCode } from '../server/modules/operator/totp.ts';
import { openRedisConnection, type RedisConnection } from '../server/platform/redis-connection.ts';
import { replayKey } from '../server/platform/replay-store.ts';
import { Client, GROUPS, percentile, Recorder, sentRequestIds, setCookie, TIMELINE_SLICE_MS } from './day-client.ts';
import { type Customer, customer, learnAssets, type Life, type Operator, operator, placeOrder, visitor, type World } from './day-users.ts';

const SECONDS = Number(process.env.BENCH_DAY_SECONDS ?? 60);
const WARMUP_SECONDS = Number(process.env.BENCH_DAY_WARMUP_SECONDS ?? 10);
const USERS = Number(process.env.BENCH_DAY_USERS ?? 120);
const THINK = Number(process.env.BENCH_DAY_THINK ?? 1);
const SETUP_ORDERS = Number(process.env.BENCH_DAY_SETUP_ORDERS ?? 40);
const BUILD_DIR = process.env.BUILD_DIR ?? 'build';
const PG_URL = process.env.BENCH_DAY_PG ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_SERVER = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const REDIS_DB = Number(process.env.BENCH_DAY_REDIS_DB ?? 11);
/** A folder to write instance A's CPU profile to (node --cpu-prof), for finding where its time goes. */
const CPU_PROF_DIR = process.env.BENCH_DAY_CPU_PROF;
const PORT_RANGE = [4100, 4199] as const;
const INSTANCES = 2;
const GOAL_P99_MS = 500;

const VISITORS = Math.round(USERS * 0.75);
const OPERATORS = Math.max(2, Math.round(USERS * 0.05));
const CUSTOMERS = Math.max(1, USERS - VISITORS - OPERATORS);
const CUSTOMER_PASSWORD = 'BenchDay@123456';
const OPERATOR_PASSWORD = 'BenchDay@Operator1';
const [platform, accessKey, secret] = DEV_API_CLIENTS.split(':') as [string, string, string];

class SetupError extends Error {}

// ── Clean-up, whatever happens ─────────────────────────────────────────────

const cleanups: Array<{ name: string; run: () => Promise<void> | void }> = [];
let cleaning: Promise<void> | undefined;
function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    for (const { name, run } of cleanups.reverse()) {
      try {
        await run();
      } catch (error) {
        console.error(`clean-up: ${name} failed: ${(error as Error).message}`);
      }
    }
  })();
  return cleaning;
}
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\n${signal}: stopping the instances, dropping the database, removing the temporary folders …`);
    void cleanUp().then(() => process.exit(130));
  });
}

// ── Helpers ───────────────────────────────────────────────────────────────

async function portFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.once('error', () => done(false));
    server.listen(port, '127.0.0.1', () => server.close(() => done(true)));
  });
}

async function freePorts(n: number): Promise<number[]> {
  const found: number[] = [];
  const start = PORT_RANGE[0] + Math.floor(Math.random() * (PORT_RANGE[1] - PORT_RANGE[0]));
  for (let i = 0; i <= PORT_RANGE[1] - PORT_RANGE[0] && found.length < n; i += 1) {
    const port = PORT_RANGE[0] + ((start - PORT_RANGE[0] + i) % (PORT_RANGE[1] - PORT_RANGE[0] + 1));
    if (await portFree(port)) found.push(port);
  }
  if (found.length < n) throw new SetupError(`no ${n} free ports in ${PORT_RANGE.join('–')}`);
  return found;
}

/** user + system CPU of a process so far, in seconds (/proc/<pid>/stat; 0 when it is gone). */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return 0;
  }
}

function machineJiffies(): { busy: number; idle: number } {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields.map(Number) as number[];
  return { busy: user! + nice! + system! + irq! + softirq! + steal!, idle: idle! + iowait! };
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

interface Instance {
  name: string;
  port: number;
  child: ChildProcess;
  logFile: string;
  exited: boolean;
}

async function startInstance(name: string, port: number, env: Record<string, string>, logFile: string): Promise<Instance> {
  const args = [
    ...(CPU_PROF_DIR && name === 'A' ? ['--cpu-prof', `--cpu-prof-dir=${resolve(CPU_PROF_DIR)}`] : []),
    '--conditions=production',
    '--import',
    'tsx',
    'server/main.ts',
  ];
  const child = spawn('node', args, {
    env: { ...process.env, ...env, PORT: String(port), PUBLIC_SITE_URL: `http://127.0.0.1:${port}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(logFile);
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  const instance: Instance = { name, port, child, logFile, exited: false };
  child.once('exit', () => {
    instance.exited = true;
  });
  return instance;
}

async function waitReady(instance: Instance, timeoutMs: number): Promise<void> {
  const giveUpAt = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < giveUpAt) {
    if (instance.exited) {
      throw new SetupError(`instance ${instance.name} exited during its start:\n${readFileSync(instance.logFile, 'utf8').slice(-3000)}`);
    }
    try {
      const response = await fetch(`http://127.0.0.1:${instance.port}/favicon.svg`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
      last = `HTTP ${response.status} ${(await response.text()).slice(0, 200)}`;
    } catch (error) {
      // not listening yet (migrations, seeding)
      last = `${(error as Error).message} ${String((error as { cause?: Error }).cause?.message ?? '')}`;
    }
    await sleep(250);
  }
  throw new SetupError(
    `instance ${instance.name} did not answer within ${timeoutMs / 1000} s (last: ${last}; its CPU so far ${cpuSeconds(instance.child.pid!).toFixed(1)} s); its log:\n${readFileSync(instance.logFile, 'utf8').slice(-3000)}`,
  );
}

async function stopInstance(instance: Instance): Promise<void> {
  if (instance.exited) return;
  const exited = new Promise<void>((done) => instance.child.once('exit', () => done()));
  instance.child.kill('SIGTERM');
  const inTime = await Promise.race([exited.then(() => true), sleep(15_000).then(() => false)]);
  if (!inTime) {
    console.error(`instance ${instance.name} did not stop within 15 s of SIGTERM: SIGKILL`);
    instance.child.kill('SIGKILL');
    await exited;
  }
}

// ── Set-up ────────────────────────────────────────────────────────────────

async function main(): Promise<number> {
  const buildEntry = join(BUILD_DIR, 'server', 'index.js');
  if (!existsSync(buildEntry)) {
    console.error(`bench:day needs the built app: ${buildEntry} is missing — run npm run build first (or set BUILD_DIR).`);
    return 1;
  }
  const loadBefore = loadavg();
  console.log(
    `bench:day — set-up: ${INSTANCES} instances on PostgreSQL + Redis, ${USERS} users (${VISITORS} visitors, ${CUSTOMERS} customers, ${OPERATORS} operators)`,
  );

  const dir = mkdtempSync(join(tmpdir(), 'bench-day-'));
  cleanups.push({ name: `remove ${dir}`, run: () => rmSync(dir, { recursive: true, force: true }) });
  const uploadDir = join(dir, 'uploads');
  mkdirSync(uploadDir);

  // PostgreSQL: a database of our own.
  const admin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 5_000 });
  try {
    await admin.connect();
  } catch (error) {
    throw new SetupError(`PostgreSQL at ${PG_URL} (BENCH_DAY_PG) is not reachable: ${(error as Error).message}`);
  }
  const databaseName = `bench_day_${randomBytes(5).toString('hex')}`;
  await admin.query(`create database ${databaseName}`);
  cleanups.push({
    name: `drop database ${databaseName}`,
    run: async () => {
      await admin.query(`drop database if exists ${databaseName} with (force)`);
      await admin.end();
    },
  });
  const databaseUrl = new URL(PG_URL);
  databaseUrl.pathname = `/${databaseName}`;
  const DATABASE_URL = databaseUrl.toString();

  // Redis: a database number of our own; the replay keys we caused are deleted at the end.
  const redisUrl = new URL(REDIS_SERVER);
  redisUrl.pathname = `/${REDIS_DB}`;
  const REDIS_URL = redisUrl.toString();
  let redis: RedisConnection;
  try {
    redis = await openRedisConnection(REDIS_URL);
  } catch (error) {
    throw new SetupError(`Redis at ${REDIS_URL} is not reachable: ${(error as Error).message}`);
  }
  cleanups.push({
    name: 'delete the replay keys from Redis',
    run: async () => {
      for (let i = 0; i < sentRequestIds.length; i += 10_000) {
        await redis.send([['UNLINK', ...sentRequestIds.slice(i, i + 10_000).map((id) => replayKey(platform, id))]]);
      }
      await redis.close();
    },
  });

  // The two instances, started together (the seeding runs under a lock).
  const ports = await freePorts(INSTANCES);
  const env = {
    APP_ENV: 'demo',
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.BENCH_DAY_LOG_LEVEL ?? 'warn',
    DATABASE_URL,
    REDIS_URL,
    API_CLIENTS: DEV_API_CLIENTS,
    BUILD_DIR,
    UPLOAD_DIR: uploadDir,
    OUTBOX_DIR: join(dir, 'outbox'),
  };
  const instances: Instance[] = [];
  cleanups.push({ name: 'stop the instances', run: () => Promise.all(instances.map(stopInstance)).then(() => undefined) });
  for (const [i, port] of ports.entries()) instances.push(await startInstance(String.fromCharCode(65 + i), port, env, join(dir, `instance-${i}.log`)));
  const started = performance.now();
  const slow = setTimeout(() => console.log('  (still starting: migrations and the demo seed, one instance after the other …)'), 30_000);
  try {
    await Promise.all(instances.map((instance) => waitReady(instance, 180_000))).finally(() => clearTimeout(slow));
  } catch (error) {
    // What the instances' database sessions were doing (a lock wait shows here).
    const { rows } = await admin.query<{ pid: number; state: string; wait: string | null; query: string }>(
      `select pid, state, wait_event_type || ':' || wait_event as wait, left(query, 160) as query from pg_stat_activity where datname = $1`,
      [databaseName],
    );
    throw new SetupError(
      `${(error as Error).message}\nsessions on ${databaseName}:\n${rows.map((r) => `  ${r.pid} ${r.state} ${r.wait ?? ''} ${r.query}`).join('\n') || '  none'}`,
    );
  }
  console.log(
    `  instances ${instances.map((i) => `${i.name} :${i.port} (pid ${i.child.pid})`).join(', ')} ready in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const bases = instances.map((i) => `http://127.0.0.1:${i.port}`);

  // Accounts, operators and the catalogue, straight on the database (the CLIs' services).
  const handle = openDatabase(loadConfig({ APP_ENV: 'demo', LOG_LEVEL: 'silent', DATABASE_URL }).database, { poolSize: 4 });
  const world: World = {
    continents: [],
    countries: [],
    orderable: [],
    provinces: ['110000', '310000', '440000', '330000', '320000', '510000', '420000', '370000', '350000', '500000'],
    files: {
      scan: readFileSync('tests/fixtures/passport-scan.jpg'),
      photo: readFileSync('tests/fixtures/visa-photo.jpg'),
      pdf: readFileSync('tests/fixtures/bank-statement.pdf'),
      png: readFileSync('tests/fixtures/id-card.png'),
    },
  };
  const customerAccounts: string[] = [];
  const operatorLogins: Array<{ account: string; password: string; secret: string; role: 'operator' | 'supervisor' }> = [];
  try {
    const accounts = createAccountService(handle.db, { idleMs: 0, absoluteMs: 0 });
    const run = randomBytes(3).toString('hex');
    for (const demo of DEMO_ACCOUNTS) if (customerAccounts.length < CUSTOMERS) customerAccounts.push(demo.adminAccount);
    for (let i = customerAccounts.length; i < CUSTOMERS; i += 1) {
      const account = `bench_${run}_${i}`;
      await accounts.createEnterpriseWithAdmin({
        enterpriseName: `压测${i % 2 === 0 ? '商务咨询有限公司' : '国际旅行社'}${i}`,
        enterpriseKind: i % 2 === 0 ? 'company' : 'agency',
        adminAccount: account,
        adminPasswordDigest: sha256Hex(CUSTOMER_PASSWORD),
        adminName: `管理员${i}`,
        adminMobilePhone: `139${String(i).padStart(8, '0')}`,
      });
      customerAccounts.push(account);
    }
    const operators = createOperatorService(handle.db, { idleMs: 0, absoluteMs: 0 });
    for (const demo of DEMO_OPERATORS) operatorLogins.push({ account: demo.account, password: demo.password, secret: demo.totpSecret, role: demo.role });
    for (let i = operatorLogins.length; i < OPERATORS; i += 1) {
      const account = `bench_op_${run}_${i}`;
      const created = await operators.create({ account, name: `压测操作员${i}`, role: 'operator', passwordDigest: sha256Hex(OPERATOR_PASSWORD) });
      operatorLogins.push({ account, password: OPERATOR_PASSWORD, secret: created.secret, role: 'operator' });
    }
    operatorLogins.length = OPERATORS;

    const { rows: countries } = await sql<{ id: number; continent_id: number }>`${sql.raw(
      `select c.visa_country_id as id, c.continent_id from visa_country c
         where exists (select 1 from visa_product p where p.visa_country_id = c.visa_country_id and p.status = 0 and p.channel <> 99)
         order by c.hot desc, (select count(*) from visa_product p where p.visa_country_id = c.visa_country_id) desc, c.visa_country_id`,
    )}`.execute(handle.db);
    const { rows: products } = await sql<{ id: number; country_id: number; orderable: boolean }>`${sql.raw(
      `select visa_product_id as id, visa_country_id as country_id,
                (channel = 0 and offline = 1 and need_interview = 0) as orderable
         from visa_product where status = 0 and channel <> 99 order by visa_product_id`,
    )}`.execute(handle.db);
    world.continents = [...new Set(countries.map((c) => c.continent_id))].sort();
    world.countries = countries.map((c) => ({ id: c.id, products: products.filter((p) => p.country_id === c.id).map((p) => p.id) }));
    for (const country of world.countries) {
      for (const p of products) if (p.country_id === country.id && p.orderable) world.orderable.push({ id: p.id, countryId: country.id });
    }
  } finally {
    await handle.destroy();
  }
  if (world.countries.length === 0 || world.orderable.length === 0) throw new SetupError('the demo catalogue was not seeded (no listed products)');

  // Log everyone in once (a TOTP code logs an operator in once), a return address per customer.
  const setup = new Recorder();
  const pair = { platform, accessKey, secret };
  const setupClient = new Client(bases, pair, setup);
  const must = async <T>(what: string, answer: Promise<{ ret: number; msg: string; body: T } | null>): Promise<T> => {
    const got = await answer;
    if (!got || got.ret !== 0) throw new SetupError(`${what}: ${got ? `${got.ret} ${got.msg}` : (setup.warmupFirstErrors.at(-1) ?? 'failed')}`);
    return got.body;
  };
  const customers: Customer[] = [];
  for (const [i, account] of customerAccounts.entries()) {
    const password = DEMO_ACCOUNTS.find((d) => d.adminAccount === account)?.password ?? CUSTOMER_PASSWORD;
    const login = await setupClient.call('order reads', '/www/account_login', { account, password: sha256Hex(password) });
    const token = (await must<{ token?: string }>(`login of ${account}`, Promise.resolve(login))).token ?? setCookie(login!.headers, 'token');
    if (!token) throw new SetupError(`customer ${account}: the login answer carries no token and sets no token cookie`);
    const address = await must<{ address_id: number }>(
      `address of ${account}`,
      setupClient.call(
        'order reads',
        '/www/address/address_save',
        {
          kind: 'return',
          name: `收件人${i}`,
          mobile_phone: `138${String(i).padStart(8, '0')}`,
          province_code: '310000',
          city_code: '310100',
          county_code: '310106',
          detail: `南京西路${100 + i}号${(i % 30) + 1}楼`,
        },
        token,
      ),
    );
    customers.push({ account, token, addressId: address.address_id });
  }
  const operators: Operator[] = [];
  for (const login of operatorLogins) {
    // The session is the admin_token cookie the answer sets (decision 0032; the body carried the token before it).
    const answer = await setupClient.call('operator queue', '/admin-api/operator_login', {
      account: login.account,
      password: sha256Hex(login.password),
      code: totpCode(login.secret),
    });
    const body = await must<{ next: string; token?: string }>(`login of operator ${login.account}`, Promise.resolve(answer));
    if (body.next !== 'done') throw new SetupError(`operator ${login.account}: login answered ${body.next}`);
    const token = body.token ?? setCookie(answer!.headers, 'admin_token');
    if (!token) throw new SetupError(`operator ${login.account}: the login answer carries no token and sets no admin_token cookie`);
    operators.push({ account: login.account, token, role: login.role });
  }
  console.log(`  ${customers.length} customers and ${operators.length} operators logged in`);

  // Work for the operators: orders placed and paid through the same calls the customers use.
  const life: Life = { stopping: false, thinkScale: THINK, tally: {} };
  const setupLife: Life = { stopping: false, thinkScale: 0, tally: {} };
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(8, SETUP_ORDERS) }, async () => {
      while (next < SETUP_ORDERS) {
        const i = next;
        next += 1;
        await placeOrder(setupClient, world, setupLife, customers[i % customers.length]!, { thinking: false });
      }
    }),
  );
  const assets = await learnAssets(setupClient, world);
  if (setup.warmupErrors > 0) throw new SetupError(`set-up calls failed (${setup.warmupErrors}):\n  ${setup.warmupFirstErrors.join('\n  ')}`);
  console.log(`  ${setupLife.tally['orders paid'] ?? 0} orders placed and paid for the queue; ${assets} static assets in the pages' import graph`);

  // ── The run ────────────────────────────────────────────────────────────
  const recorder = new Recorder();
  const users: Array<Promise<void>> = [];
  const spread = Math.min(5_000, WARMUP_SECONDS * 500);
  const startUser = (i: number, run: (client: Client) => Promise<void>) =>
    users.push(
      sleep((i / USERS) * spread).then(async () => {
        const client = new Client(bases, pair, recorder);
        try {
          await run(client);
        } catch (error) {
          recorder.record('order reads', 0, 'error', `a virtual user crashed: ${(error as Error).stack}`);
        }
      }),
    );
  // Interleaved, so that every kind of user starts during the ramp.
  let v = 0;
  let c = 0;
  let o = 0;
  for (let i = 0; i < USERS; i += 1) {
    const share = i / USERS;
    if ((o < OPERATORS && o / OPERATORS <= share) || (v >= VISITORS && c >= CUSTOMERS)) {
      const me = operators[o++]!;
      startUser(i, (client) => operator(client, life, me));
    } else if ((c < CUSTOMERS && c / CUSTOMERS <= share) || v >= VISITORS) {
      const me = customers[c++]!;
      startUser(i, (client) => customer(client, world, life, me));
    } else {
      v += 1;
      startUser(i, (client) => visitor(client, world, life));
    }
  }
  console.log(`  warm-up ${WARMUP_SECONDS} s (users start over the first ${(spread / 1000).toFixed(1)} s) …`);
  await sleep(WARMUP_SECONDS * 1000);

  const tallyBefore = { ...life.tally };
  const activity = sampleDatabase(admin, databaseName);
  const tablesBefore = await tableScans(DATABASE_URL);
  const transactionsBefore = await transactions(admin, databaseName);
  const loadAtStart = loadavg();
  // Every slice of the window: the CPU of each process and of the machine, and each instance's
  // /metrics (event-loop delay since the last scrape, GC, the PostgreSQL pool) — a scrape resets
  // prom-client's event-loop histogram, so the first one here starts the window's.
  const slices: Slice[] = [await takeSlice(instances, admin, databaseName, redis)];
  recorder.startMeasuring();
  const measureStart = performance.now();
  console.log(`  measuring ${SECONDS} s …`);
  while (performance.now() - measureStart < SECONDS * 1000 - 50) {
    await sleep(Math.min(TIMELINE_SLICE_MS, SECONDS * 1000 - (performance.now() - measureStart)));
    slices.push(await takeSlice(instances, admin, databaseName, redis));
  }
  recorder.measuring = false;
  const measured = (performance.now() - measureStart) / 1000;
  const cpuBefore = slices[0]!.cpu;
  const cpuAfter = slices.at(-1)!.cpu;
  const loadAtEnd = loadavg();
  const waits = await activity.stop();
  const tables = scanDelta(tablesBefore, await tableScans(DATABASE_URL));
  const committed = (await transactions(admin, databaseName)) - transactionsBefore;
  life.stopping = true;
  await Promise.race([Promise.all(users), sleep(45_000)]);
  const crashed = instances.filter((i) => i.exited);

  // ── Report ─────────────────────────────────────────────────────────────
  const tally: Record<string, number> = {};
  for (const [key, value] of Object.entries(life.tally)) tally[key] = value - (tallyBefore[key] ?? 0);
  report({
    recorder,
    measured,
    loadBefore,
    loadAtStart,
    loadAtEnd,
    cpuBefore,
    cpuAfter,
    waits,
    tables,
    tally,
    instances,
    crashed,
    slices,
    committed,
  });
  return 0;
}

// ── Where the CPU went, what the database waited on ──────────────────────

interface CpuSnapshot {
  at: number;
  instances: number[];
  postgres: number;
  redis: number;
  driver: number;
  machine: { busy: number; idle: number };
}

async function cpuSnapshot(instances: Instance[], admin: pg.Client, databaseName: string, redis: RedisConnection): Promise<CpuSnapshot> {
  // PostgreSQL: the backends serving our database (the pools keep them open through the run).
  const { rows } = await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [databaseName]);
  const [info] = (await redis.send([['INFO', 'cpu']])) as [string];
  const redisSeconds = ['used_cpu_sys', 'used_cpu_user'].reduce((sum, name) => sum + Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? 0), 0);
  const driver = process.cpuUsage();
  return {
    at: performance.now(),
    instances: instances.map((i) => cpuSeconds(i.child.pid!)),
    postgres: rows.reduce((sum, row) => sum + cpuSeconds(row.pid), 0),
    redis: redisSeconds,
    driver: (driver.user + driver.system) / 1e6,
    machine: machineJiffies(),
  };
}

/** An instance's /metrics as series → value (the Prometheus text format: `name{labels} value`). */
async function scrapeMetrics(instance: Instance): Promise<Map<string, number>> {
  const series = new Map<string, number>();
  try {
    const response = await fetch(`http://127.0.0.1:${instance.port}/metrics`, { signal: AbortSignal.timeout(5_000) });
    if (!response.ok) return series;
    for (const line of (await response.text()).split('\n')) {
      if (line === '' || line.startsWith('#')) continue;
      const at = line.lastIndexOf(' ');
      series.set(line.slice(0, at), Number(line.slice(at + 1)));
    }
  } catch {
    // no /metrics (an older build of the server): the columns stay empty
  }
  return series;
}

/** The sum of every series of a metric (all label sets). */
function metricSum(series: Map<string, number>, name: string): number {
  let sum = 0;
  for (const [key, value] of series) if (key === name || key.startsWith(`${name}{`)) sum += value;
  return sum;
}

interface Slice {
  cpu: CpuSnapshot;
  metrics: Array<Map<string, number>>;
}

async function takeSlice(instances: Instance[], admin: pg.Client, databaseName: string, redis: RedisConnection): Promise<Slice> {
  const [cpu, ...metrics] = await Promise.all([cpuSnapshot(instances, admin, databaseName, redis), ...instances.map(scrapeMetrics)]);
  return { cpu: cpu as CpuSnapshot, metrics: metrics as Array<Map<string, number>> };
}

/** Samples our database's backends every 100 ms: how many run a query, and what those wait on. */
function sampleDatabase(admin: pg.Client, databaseName: string) {
  const waits = new Map<string, number>();
  let samples = 0;
  let active = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const { rows } = await admin.query<{ wait: string | null }>(
        `select case when wait_event_type is null then 'CPU (running)' else wait_event_type || ':' || wait_event end as wait
         from pg_stat_activity where datname = $1 and state = 'active' and pid <> pg_backend_pid()`,
        [databaseName],
      );
      samples += 1;
      active += rows.length;
      for (const row of rows) waits.set(row.wait ?? '?', (waits.get(row.wait ?? '?') ?? 0) + 1);
      await sleep(100);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { samples, meanActive: active / Math.max(1, samples), waits: [...waits.entries()].sort((a, b) => b[1] - a[1]) };
    },
  };
}

/** Transactions committed in the database so far (every autocommitted statement is one). */
async function transactions(admin: pg.Client, databaseName: string): Promise<number> {
  const { rows } = await admin.query<{ n: number }>('select xact_commit::float8 as n from pg_stat_database where datname = $1', [databaseName]);
  return rows[0]?.n ?? 0;
}

interface TableScans {
  relname: string;
  seq_scan: number;
  seq_tup_read: number;
  idx_scan: number;
  n_live_tup: number;
}

/** Sequential and index scans per table so far (PostgreSQL's statistics, sent by the backends every few hundred ms). */
async function tableScans(url: string): Promise<TableScans[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<TableScans>(
      `select relname, seq_scan::float8 as seq_scan, seq_tup_read::float8 as seq_tup_read, coalesce(idx_scan, 0)::float8 as idx_scan, n_live_tup::float8 as n_live_tup
       from pg_stat_user_tables`,
    );
    return rows;
  } finally {
    await client.end();
  }
}

/** What the measured window added, the tables whose sequential scans read the most rows first. */
function scanDelta(before: TableScans[], after: TableScans[]): TableScans[] {
  return after
    .map((t) => {
      const b = before.find((x) => x.relname === t.relname);
      return {
        ...t,
        seq_scan: t.seq_scan - (b?.seq_scan ?? 0),
        seq_tup_read: t.seq_tup_read - (b?.seq_tup_read ?? 0),
        idx_scan: t.idx_scan - (b?.idx_scan ?? 0),
      };
    })
    .sort((a, b) => b.seq_tup_read - a.seq_tup_read)
    .slice(0, 6);
}

// ── Printing ─────────────────────────────────────────────────────────────

function report(r: {
  recorder: Recorder;
  measured: number;
  loadBefore: number[];
  loadAtStart: number[];
  loadAtEnd: number[];
  cpuBefore: CpuSnapshot;
  cpuAfter: CpuSnapshot;
  waits: { samples: number; meanActive: number; waits: Array<[string, number]> };
  tables: TableScans[];
  tally: Record<string, number>;
  instances: Instance[];
  crashed: Instance[];
  slices: Slice[];
  committed: number;
}) {
  const { recorder } = r;
  const ms = (x: number) => (Number.isNaN(x) ? '—' : x.toFixed(0));
  const all: number[] = [];
  let errors = 0;
  let expected = 0;
  let worstP99 = 0;
  const lines: string[] = [];
  for (const group of GROUPS) {
    const stats = recorder.groups.get(group)!;
    const times = [...stats.times].sort((a, b) => a - b);
    all.push(...times);
    errors += stats.errors;
    expected += stats.expected;
    const p99 = percentile(times, 99);
    if (times.length > 0) worstP99 = Math.max(worstP99, p99);
    lines.push(
      `${group.padEnd(28)} ${String(times.length).padStart(7)} ${ms(percentile(times, 50)).padStart(7)} ${ms(p99).padStart(7)} ${ms(times.at(-1) ?? NaN).padStart(7)} ${String(stats.errors).padStart(7)} ${String(stats.expected).padStart(9)}`,
    );
  }
  all.sort((a, b) => a - b);
  const seconds = r.measured;
  const cores = availableParallelism();
  console.log('');
  console.log(
    `bench:day — ${r.instances.length} instances (PostgreSQL + Redis), ${USERS} virtual users: ${VISITORS} visitors, ${CUSTOMERS} customers, ${OPERATORS} operators;`,
  );
  console.log(`${seconds.toFixed(1)} s measured after a ${WARMUP_SECONDS} s warm-up; think times × ${THINK}; ${cores} cores`);
  console.log(
    "mix: 75 % visitors (HTML pages, .data navigation, assets of new visitors, 1 in 5 on the app's catalogue calls), 20 % customers (order, upload, confirm, pay, follow, re-upload), 5 % operators (queue, take, open and review each file)\n" +
      'why: most people on a visa site only browse; those who order are businesses ordering for others (about 10 uploads an order); staff are few (the queue grows, as in a morning rush)',
  );
  console.log(
    `load average: before set-up ${r.loadBefore.map((x) => x.toFixed(2)).join(' ')}, at start ${r.loadAtStart.map((x) => x.toFixed(2)).join(' ')}, at end ${r.loadAtEnd.map((x) => x.toFixed(2)).join(' ')}`,
  );
  console.log('');
  console.log(
    `${'group'.padEnd(28)} ${'count'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'max ms'.padStart(7)} ${'errors'.padStart(7)} ${'expected'.padStart(9)}`,
  );
  for (const line of lines) console.log(line);
  console.log(
    `${'all'.padEnd(28)} ${String(all.length).padStart(7)} ${ms(percentile(all, 50)).padStart(7)} ${ms(percentile(all, 99)).padStart(7)} ${ms(all.at(-1) ?? NaN).padStart(7)} ${String(errors).padStart(7)} ${String(expected).padStart(9)}`,
  );
  console.log('');
  console.log(
    `throughput: ${(all.length / seconds).toFixed(1)} requests/s; errors: ${errors}${recorder.warmupErrors ? ` (and ${recorder.warmupErrors} outside the measured window)` : ''}`,
  );
  console.log(
    `expected refusals (counted apart, not errors): ${expected}; mean time of a call as the driver measured it: ${(all.reduce((a, b) => a + b, 0) / Math.max(1, all.length)).toFixed(1)} ms`,
  );
  console.log(
    `done in the window: ${
      Object.entries(r.tally)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ') || 'nothing'
    }`,
  );

  // The slowest calls, by path (ids folded).
  const byLabel = new Map<string, number[]>();
  for (const [label, times] of recorder.byLabel) byLabel.set(label, times);
  const slowest = [...byLabel.entries()]
    .filter(([, times]) => times.length >= 5)
    .map(([label, times]) => {
      const sorted = [...times].sort((a, b) => a - b);
      return { label, n: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
    })
    .sort((a, b) => b.p99 - a.p99)
    .slice(0, 10);
  console.log('\nslowest calls (p99, at least 5 calls):');
  for (const s of slowest) console.log(`  ${s.label.padEnd(60)} ${String(s.n).padStart(6)}  p50 ${ms(s.p50).padStart(5)}  p99 ${ms(s.p99).padStart(5)} ms`);

  // CPU.
  const span = (r.cpuAfter.at - r.cpuBefore.at) / 1000;
  const share = (a: number, b: number) => `${(a - b).toFixed(1)} s (${(((a - b) / span) * 100).toFixed(0)} % of a core)`;
  const machineBusy = r.cpuAfter.machine.busy - r.cpuBefore.machine.busy;
  const machineIdle = r.cpuAfter.machine.idle - r.cpuBefore.machine.idle;
  console.log(`\nCPU in the measured window (${span.toFixed(1)} s, ${cores} cores = ${(span * cores).toFixed(0)} core-seconds):`);
  for (const [i, instance] of r.instances.entries())
    console.log(`  instance ${instance.name}           ${share(r.cpuAfter.instances[i]!, r.cpuBefore.instances[i]!)}`);
  console.log(`  PostgreSQL backends  ${share(r.cpuAfter.postgres, r.cpuBefore.postgres)}`);
  console.log(`  Redis                ${share(r.cpuAfter.redis, r.cpuBefore.redis)}`);
  console.log(`  load driver          ${share(r.cpuAfter.driver, r.cpuBefore.driver)}`);
  console.log(`  whole machine busy   ${((machineBusy / (machineBusy + machineIdle)) * 100).toFixed(0)} % (everything else on it included)`);
  console.log(
    `PostgreSQL: ${r.waits.meanActive.toFixed(2)} queries running on average (sampled every 100 ms); what they were doing: ${r.waits.waits
      .slice(0, 6)
      .map(([wait, n]) => `${wait} ${((n / Math.max(1, r.waits.samples * r.waits.meanActive)) * 100).toFixed(0)} %`)
      .join(', ')}`,
  );
  console.log(
    `PostgreSQL committed ${r.committed} transactions in the window (${(r.committed / seconds).toFixed(0)}/s, ${(r.committed / Math.max(1, all.length)).toFixed(1)} per call of the driver; each autocommitted statement is one)`,
  );
  console.log(
    `sequential scans in the window (most rows read first): ${
      r.tables
        .filter((t) => t.seq_tup_read > 0)
        .map((t) => `${t.relname} ${t.seq_scan}× reading ${t.seq_tup_read} rows (${t.n_live_tup} live rows; ${t.idx_scan} index scans)`)
        .join('; ') || 'none'
    }`,
  );

  // The window slice by slice: when calls were slow, was the machine busy, and with whose work?
  console.log(
    `\nslice by slice (${TIMELINE_SLICE_MS / 1000} s each; calls by the time they started; CPU in % of the ${cores}-core machine; event-loop delay max and PostgreSQL pool waiters per instance):`,
  );
  console.log(
    `  ${'from s'.padStart(6)} ${'calls'.padStart(6)} ${'p50'.padStart(5)} ${'p99'.padStart(5)} ${'max'.padStart(5)}   busy  ours others   ${r.instances.map((i) => `${i.name}: lag ms, pool waiting`).join('   ')}`,
  );
  for (let i = 1; i < r.slices.length; i += 1) {
    const before = r.slices[i - 1]!;
    const after = r.slices[i]!;
    const times = [...(recorder.timeline[i - 1] ?? [])].sort((a, b) => a - b);
    const jiffies = after.cpu.machine.busy - before.cpu.machine.busy + (after.cpu.machine.idle - before.cpu.machine.idle);
    const busy = (after.cpu.machine.busy - before.cpu.machine.busy) / jiffies;
    const ours =
      (after.cpu.instances.reduce((a, b) => a + b, 0) -
        before.cpu.instances.reduce((a, b) => a + b, 0) +
        (after.cpu.postgres - before.cpu.postgres) +
        (after.cpu.redis - before.cpu.redis) +
        (after.cpu.driver - before.cpu.driver)) /
      ((after.cpu.at - before.cpu.at) / 1000) /
      cores;
    const perInstance = after.metrics
      .map(
        (m) =>
          `${(metricSum(m, 'nodejs_eventloop_lag_max_seconds') * 1000).toFixed(0).padStart(5)} ${String(metricSum(m, 'db_pool_connections_waiting')).padStart(3)}`,
      )
      .join('              ');
    console.log(
      `  ${String(((i - 1) * TIMELINE_SLICE_MS) / 1000).padStart(6)} ${String(times.length).padStart(6)} ${ms(percentile(times, 50)).padStart(5)} ${ms(percentile(times, 99)).padStart(5)} ${ms(times.at(-1) ?? NaN).padStart(5)}   ${(busy * 100).toFixed(0).padStart(3)} % ${(ours * 100).toFixed(0).padStart(3)} % ${(Math.max(0, busy - ours) * 100).toFixed(0).padStart(4)} %   ${perInstance}`,
    );
  }
  const first = r.slices[0]!;
  const last = r.slices.at(-1)!;
  for (const [i, instance] of r.instances.entries()) {
    const gc = metricSum(last.metrics[i]!, 'nodejs_gc_duration_seconds_sum') - metricSum(first.metrics[i]!, 'nodejs_gc_duration_seconds_sum');
    const served = metricSum(last.metrics[i]!, 'http_request_duration_seconds_count') - metricSum(first.metrics[i]!, 'http_request_duration_seconds_count');
    const serverSeconds = metricSum(last.metrics[i]!, 'http_request_duration_seconds_sum') - metricSum(first.metrics[i]!, 'http_request_duration_seconds_sum');
    if (served > 0) {
      console.log(
        `instance ${instance.name}: ${served} answers, mean ${((serverSeconds / served) * 1000).toFixed(1)} ms from request to end of answer as the server counts it; GC ${gc.toFixed(2)} s`,
      );
    }
  }

  // Errors.
  if (errors > 0 || recorder.warmupErrors > 0) {
    console.log('\nfirst errors:');
    for (const group of GROUPS) for (const detail of recorder.groups.get(group)!.firstErrors) console.log(`  ${group}: ${detail.slice(0, 300)}`);
    for (const detail of recorder.warmupFirstErrors) console.log(`  (outside the window) ${detail.slice(0, 300)}`);
  }
  if (r.crashed.length > 0) console.log(`\n!!! instance(s) ${r.crashed.map((i) => i.name).join(', ')} exited during the run (logs kept above) !!!`);
  for (const instance of r.instances) {
    const log = readFileSync(instance.logFile, 'utf8').trim();
    const warnings = log ? log.split('\n').length : 0;
    if (warnings > 0)
      console.log(
        `\ninstance ${instance.name} logged ${warnings} lines (warn and above); the first:\n  ${log.split('\n').slice(0, 3).join('\n  ').slice(0, 1200)}`,
      );
  }

  const met = errors === 0 && all.length > 0 && worstP99 <= GOAL_P99_MS && r.crashed.length === 0;
  console.log(
    `\ngoal (0 errors, p99 ≤ ${GOAL_P99_MS} ms in every group): ${met ? 'met' : 'NOT met'} — ${errors} errors, worst group p99 ${ms(worstP99)} ms, all calls p99 ${ms(percentile(all, 99))} ms`,
  );
}

// ── Go ───────────────────────────────────────────────────────────────────

const code = await main().catch((error: unknown) => {
  console.error(error instanceof SetupError ? `bench:day set-up failed: ${error.message}` : error);
  return 1;
});
if (!interrupted) await cleanUp();
process.exit(code);
