// npm run bench:export — the order export (issue 29): an enterprise with
// 1,000 and then 5,000 applicants (orders of 10, paid, half of them with a
// visa result), each exported as .xlsx and as CSV over a real socket. Prints
// the time to the last byte, the file's size and the process's peak memory
// above its level just before the request (RSS and V8 heap, sampled every
// 5 ms), so one sees whether memory grows with the row count. The app runs in
// this process on a SQLite file of its own (BENCH_DATABASE_URL: PostgreSQL).
// Asserts nothing but that each download is a whole file.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../server/app.ts';
import { loadConfig, DEV_API_CLIENTS } from '../server/config.ts';
import { openDatabase } from '../server/db/database.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { createOrderService } from '../server/modules/order/order.service.ts';
import { sha256Hex } from '../common/signing.ts';
import { insertCustomer, insertProduct } from '../server/test-support/factories.ts';

const SIZES = (process.env.BENCH_APPLICANTS ?? '1000,5000').split(',').map(Number);
const PER_ORDER = 10;

const dir = mkdtempSync(join(tmpdir(), 'visa-bench-export-'));
const config = loadConfig({
  ...process.env,
  APP_ENV: 'test',
  LOG_LEVEL: 'warn',
  API_CLIENTS: DEV_API_CLIENTS,
  SQLITE_FILE: join(dir, 'bench.db'),
  UPLOAD_DIR: join(dir, 'uploads'),
  ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
});
const database = openDatabase(config.database);
await migrateToLatest(database);
const { db } = database;
const { app, services } = await buildApp({ config, database });
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
const product = await insertProduct(db, { at: Date.now() });
const orders = createOrderService(db, { now: Date.now });
const operatorId = (
  await db
    .insertInto('operator')
    .values({
      account: `bench_${randomBytes(3).toString('hex')}`,
      name: '压测',
      role: 'operator',
      password_hash: 'x',
      totp_secret: null,
      totp_pending_secret: null,
      totp_last_step: null,
      status: 'active',
      last_login_at: null,
      created_at: Date.now(),
      updated_at: Date.now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
).id;

/** An enterprise with `applicants` applicants in paid orders of 10; its session token. */
async function enterpriseWith(applicants: number): Promise<string> {
  const customer = await insertCustomer(db);
  const token = (await services.account.login({ account: customer.account, passwordDigest: sha256Hex(customer.password), ip: '127.0.0.1', userAgent: null }))
    .token;
  const departure = new Date(Date.now() + 8 * 3_600_000 + 30 * 86_400_000).toISOString().slice(0, 10);
  for (let made = 0; made < applicants; made += PER_ORDER) {
    const { user_order_id } = await orders.create(customer.principal, {
      visa_product_id: product.visa_product_id,
      departure_date: departure,
      applicants: Array.from({ length: PER_ORDER }, (_, i) => ({
        name: `申请人${made + i}`,
        identity_id: 0,
        mobile_phone: `138${String(made + i).padStart(8, '0')}`,
      })),
    });
    // Bench set-up: paid and at the embassy (the lifecycle's and payment's business in the product).
    const order = await db
      .updateTable('user_order')
      .set({ status: 'processing', step: 'submitted', paid_at: Date.now() })
      .where('user_order_id', '=', user_order_id)
      .returning(['total_amount'])
      .executeTakeFirstOrThrow();
    await db
      .insertInto('payment')
      .values({
        user_order_id,
        out_trade_no: `BENCH${user_order_id}${randomBytes(4).toString('hex')}`,
        provider: 'sandbox',
        channel: 'wechat',
        amount: order.total_amount,
        status: 'paid',
        provider_trade_no: null,
        code_url: '',
        account_id: customer.accountId,
        created_at: Date.now(),
        expires_at: Date.now(),
        paid_at: Date.now(),
        price_difference_id: null,
      })
      .execute();
    const people = await db.selectFrom('order_applicant').select('applicant_id').where('user_order_id', '=', user_order_id).execute();
    await db
      .insertInto('visa_result')
      .values(
        people.slice(0, PER_ORDER / 2).map((p, i) => ({
          user_order_id,
          applicant_id: p.applicant_id,
          result: 'issued' as const,
          visa_no: `V${user_order_id}${i}`,
          valid_from: '2027-01-01',
          valid_to: '2027-06-30',
          entries: '多次',
          stay_days: 30,
          reject_reasons: null,
          reject_note: null,
          file_id: null,
          operator_id: operatorId,
          created_at: Date.now(),
        })),
      )
      .execute();
  }
  return token;
}

interface Measure {
  ms: number;
  bytes: number;
  rssMb: number;
  heapMb: number;
}

async function download(token: string, format: 'xlsx' | 'csv'): Promise<Measure> {
  (globalThis as { gc?: () => void }).gc?.();
  const base = process.memoryUsage();
  let peakRss = base.rss;
  let peakHeap = base.heapUsed;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  }, 5);
  const started = performance.now();
  const bytes = await new Promise<number>((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: `/files/export/orders.${format}?from=${today(-1)}&to=${today(1)}`, headers: { 'x-token': token } }, (response) => {
      if (response.statusCode !== 200) reject(new Error(`HTTP ${response.statusCode}`));
      let size = 0;
      response.on('data', (chunk: Buffer) => (size += chunk.length));
      response.on('end', () => resolve(size));
      response.on('error', reject);
    }).on('error', reject);
  });
  const ms = performance.now() - started;
  clearInterval(sampler);
  return { ms, bytes, rssMb: (peakRss - base.rss) / 1048576, heapMb: (peakHeap - base.heapUsed) / 1048576 };
}

function today(offsetDays: number): string {
  return new Date(Date.now() + 8 * 3_600_000 + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

console.log(
  `order export on ${database.kind}, node ${process.version}${(globalThis as { gc?: unknown }).gc ? '' : ' (run with --expose-gc for steadier memory figures)'}`,
);
for (const size of SIZES) {
  const setupStarted = performance.now();
  const token = await enterpriseWith(size);
  console.log(`${size} applicants ready in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s`);
  for (const format of ['xlsx', 'csv'] as const) {
    // The first run warms the code paths; the second is reported.
    await download(token, format);
    const m = await download(token, format);
    console.log(
      `  ${format.padEnd(4)} ${size} applicants: ${m.ms.toFixed(0)} ms, ${(m.bytes / 1024).toFixed(0)} KB, peak above baseline: RSS +${m.rssMb.toFixed(1)} MB, heap +${m.heapMb.toFixed(1)} MB`,
    );
  }
}
await app.close();
await database.destroy();
rmSync(dir, { recursive: true, force: true });
