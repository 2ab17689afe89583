// npm run bench:workbench — the server render of the operator's workbench
// (/admin/orders/:id, issue 24 item 6) for an order of BENCH_APPLICANTS (20)
// applicants with ten files each (nine checklist scans and the photo), and
// for a two-applicant order: p50/p95/p99 of the first byte and of the whole
// page over BENCH_REQUESTS (200) requests, one at a time, by a logged-in
// operator. The built app runs in demo mode on a SQLite file of its own; the
// order is made the way the screens make it (signed customer calls, real
// JPEG uploads through the stored-file module, the sandbox payment), so it
// sits in 资料审核中 with every file pending. Goal: p95 ≤ 150 ms for the
// full page of the 20-applicant order. Prints figures; asserts nothing.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sha256Hex } from '../common/signing.ts';
import { openDatabase } from '../server/db/database.ts';
import { hashPasswordDigest } from '../server/modules/account/password.ts';
import { createOperatorRepository } from '../server/modules/operator/operator.repository.ts';
import { createOperatorService } from '../server/modules/operator/operator.service.ts';
import { insertCustomer, insertProduct, type MaterialOptions } from '../server/test-support/factories.ts';
import { FIXTURES } from '../tests/fixtures/index.ts';
import { startProcess, signedHeaders } from './support.ts';

const APPLICANTS = Number(process.env.BENCH_APPLICANTS ?? 20);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const WARM_UP = 20;
/** Nine scans on the checklist and the photo: ten files per applicant. */
const SCANS = 9;

async function answer<T>(response: Response, path: string): Promise<T> {
  const envelope = (await response.json()) as { ret: number; msg: string; body: T };
  if (envelope.ret !== 0) throw new Error(`${path}: ${envelope.ret} ${envelope.msg}`);
  return envelope.body;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

// BENCH_BASE_URL with BENCH_SQLITE_FILE: a server already running (to read its log), else the built app started here.
const external =
  process.env.BENCH_BASE_URL && process.env.BENCH_SQLITE_FILE ? { base: process.env.BENCH_BASE_URL, dbFile: process.env.BENCH_SQLITE_FILE } : null;
const app = external ? null : await startApp();
const base = external?.base ?? `http://127.0.0.1:${app!.port}`;
const handle = openDatabase({ kind: 'sqlite', file: external?.dbFile ?? app!.dbFile });

/** A free port: the sandbox's payment notification calls the site back at PUBLIC_SITE_URL, so the port is known before the start. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The built app in demo mode on a SQLite file of its own (bench/support.ts startBuiltApp, on a known port). */
async function startApp() {
  if (!existsSync('build/server/index.js')) throw new Error('build/server/index.js is missing: run `npm run build` first');
  const dir = mkdtempSync(join(tmpdir(), 'visa-bench-workbench-'));
  const dbFile = join(dir, 'bench.db');
  const port = await freePort();
  const started = await startProcess(['--conditions=production', '--import', 'tsx', 'server/main.ts'], {
    APP_ENV: 'demo',
    NODE_ENV: 'production',
    SQLITE_FILE: dbFile,
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_SITE_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'info',
    OUTBOX_DIR: join(dir, 'outbox'),
    UPLOAD_DIR: join(dir, 'uploads'),
  });
  return { ...started, dbFile };
}
const db = handle.db;

const call = async <T>(path: string, payload: unknown, token?: string): Promise<T> =>
  answer<T>(
    await fetch(`${base}${path}`, { method: 'POST', headers: { ...signedHeaders(token), 'content-type': 'application/json' }, body: JSON.stringify(payload) }),
    path,
  );

const scans: MaterialOptions[] = Array.from({ length: SCANS }, (_, i) => ({ name: `资料 ${i + 1}`, attr: 0, required: true }));
const product = await insertProduct(db, { photo: true, mailed: false, materials: { 0: scans } });
const scan = new Blob([new Uint8Array(readFileSync(FIXTURES.jpeg))], { type: 'image/jpeg' });

/** A customer's order of `count` applicants brought to 资料审核中 with every file uploaded. */
async function orderInReview(count: number): Promise<number> {
  const customer = await insertCustomer(db);
  const login = await call<{ token: string }>('/www/account_login', { account: customer.account, password: sha256Hex(customer.password) });
  const token = login.token;
  const departure = new Date(Date.now() + 45 * 86_400_000 + 8 * 3_600_000).toISOString().slice(0, 10);
  const { user_order_id: userOrderId } = await call<{ user_order_id: number }>(
    '/www/order/order_create',
    {
      visa_product_id: product.visa_product_id,
      departure_date: departure,
      applicants: Array.from({ length: count }, (_, i) => ({ name: `申请人${i + 1}`, identity_id: 0, mobile_phone: `139${String(i).padStart(8, '0')}` })),
    },
    token,
  );
  const detail = await call<{ missing_materials: Array<{ applicant_id: number; material_id: number | null }> }>(
    '/www/order/order_detail_get',
    { user_order_id: userOrderId },
    token,
  );
  for (const item of detail.missing_materials) {
    const form = new FormData();
    form.append('user_order_id', String(userOrderId));
    form.append('applicant_id', String(item.applicant_id));
    if (item.material_id === null) form.append('kind', 'photo');
    else form.append('material_id', String(item.material_id));
    form.append('file', scan, 'scan.jpg');
    await answer(await fetch(`${base}/www/order/material_upload`, { method: 'POST', headers: signedHeaders(token), body: form }), 'material_upload');
  }
  const address = await call<{ address_id: number }>(
    '/www/address/address_save',
    {
      kind: 'return',
      name: '申请人一',
      mobile_phone: '13900139011',
      province_code: '440000',
      city_code: '440300',
      county_code: '440305',
      detail: '科技园南区 2 号',
    },
    token,
  );
  await call('/www/order/order_confirm', { user_order_id: userOrderId, address_id: address.address_id, insurance_plan_id: null }, token);
  const payment = await call<{ out_trade_no: string }>('/www/payment/payment_create', { user_order_id: userOrderId, channel: 'wechat' }, token);
  const paid = await fetch(`${base}/sandbox/pay/${payment.out_trade_no}/confirm`, { method: 'POST', redirect: 'manual' });
  if (paid.status >= 400) throw new Error(`sandbox pay: ${paid.status}`);
  for (let i = 0; ; i += 1) {
    const order = await call<{ status: string }>('/www/order/order_detail_get', { user_order_id: userOrderId }, token);
    if (order.status === 'processing') break;
    if (i > 300) throw new Error(`order ${userOrderId} was not paid`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return userOrderId;
}

/** A supervisor of the bench's own, logged in through the cookie as a login sets it. */
async function operatorCookie(): Promise<string> {
  const operatorId = await createOperatorRepository(db).insert({
    account: `bench_${Date.now().toString(36)}`,
    name: '压测主管',
    role: 'supervisor',
    password_hash: await hashPasswordDigest(sha256Hex('Bench@123456')),
    totp_secret: null,
    now: Date.now(),
  });
  const session = await createOperatorService(db, { idleMs: 3_600_000, absoluteMs: 3_600_000 }).openSession(operatorId, null, null);
  return `admin_token=${session.token}`;
}

async function measure(label: string, userOrderId: number, cookie: string) {
  const url = `${base}/admin/orders/${userOrderId}`;
  const once = async () => {
    const start = performance.now();
    const response = await fetch(url, { headers: { cookie, accept: 'text/html' } });
    const firstByte = performance.now() - start;
    const html = await response.text();
    const full = performance.now() - start;
    if (response.status !== 200 || !html.includes('data-testid="admin-workbench"')) throw new Error(`${url}: ${response.status}`);
    return { firstByte, full, bytes: html.length };
  };
  for (let i = 0; i < WARM_UP; i += 1) await once();
  const firstBytes: number[] = [];
  const fulls: number[] = [];
  let bytes = 0;
  for (let i = 0; i < REQUESTS; i += 1) {
    const run = await once();
    firstBytes.push(run.firstByte);
    fulls.push(run.full);
    bytes = run.bytes;
  }
  firstBytes.sort((a, b) => a - b);
  fulls.sort((a, b) => a - b);
  const line = (name: string, times: number[]) =>
    `  ${name.padEnd(11)} p50 ${percentile(times, 50).toFixed(1).padStart(6)} ms   p95 ${percentile(times, 95).toFixed(1).padStart(6)} ms   p99 ${percentile(times, 99).toFixed(1).padStart(6)} ms`;
  console.log(`${label}: ${(bytes / 1024).toFixed(0)} KB of HTML, ${REQUESTS} requests one at a time after ${WARM_UP} to warm up`);
  console.log(line('first byte', firstBytes));
  console.log(line('full page', fulls));
  return percentile(fulls, 95);
}

try {
  const cookie = await operatorCookie();
  const small = await orderInReview(2);
  const large = await orderInReview(APPLICANTS);
  await measure(`workbench, 2 applicants × 10 files (order ${small})`, small, cookie);
  const p95 = await measure(`workbench, ${APPLICANTS} applicants × 10 files (order ${large})`, large, cookie);
  console.log(`goal: full page p95 ≤ 150 ms for ${APPLICANTS} applicants — ${p95 <= 150 ? 'met' : 'not met'} (${p95.toFixed(1)} ms)`);
} finally {
  await handle.destroy();
  app?.child.kill('SIGTERM');
}
process.exit(0);
