// The order the workbench benchmarks work on (bench:workbench, bench:review):
// the built app in demo mode on a SQLite file of its own, a customer's order
// of N applicants with ten files each (nine checklist scans and the photo),
// made the way the screens make it (signed customer calls, real JPEG uploads,
// the sandbox payment), so it sits in 资料审核中 with every file pending; and
// a supervisor of the bench's own with its session cookie.
import { readFileSync } from 'node:fs';
import type { Kysely } from 'kysely';
import { sha256Hex } from '../common/signing.ts';
import { openDatabase } from '../server/db/database.ts';
import type { Database } from '../server/db/schema.ts';
import { hashPasswordDigest } from '../server/modules/account/password.ts';
import { createOperatorRepository } from '../server/modules/operator/operator.repository.ts';
import { createOperatorService } from '../server/modules/operator/operator.service.ts';
import { insertCustomer, insertProduct, type MaterialOptions } from '../server/test-support/factories.ts';
import { FIXTURES } from '../tests/fixtures/index.ts';
import { signedHeaders, startBuiltApp } from './support.ts';

/** Nine scans on the checklist and the photo: ten files per applicant. */
const SCANS = 9;

export async function answer<T>(response: Response, path: string): Promise<T> {
  const envelope = (await response.json()) as { ret: number; msg: string; body: T };
  if (envelope.ret !== 0) throw new Error(`${path}: ${envelope.ret} ${envelope.msg}`);
  return envelope.body;
}

/** A supervisor of the bench's own and its session cookie (admin_token=…). */
export async function supervisorCookie(db: Kysely<Database>): Promise<string> {
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

/**
 * The server (BENCH_BASE_URL with BENCH_SQLITE_FILE: one already running, else the built app started
 * here), its database, and the order maker on one product of the bench's own.
 */
export async function workbenchBench() {
  const external =
    process.env.BENCH_BASE_URL && process.env.BENCH_SQLITE_FILE ? { base: process.env.BENCH_BASE_URL, dbFile: process.env.BENCH_SQLITE_FILE } : null;
  const app = external ? null : await startBuiltApp();
  const base = external?.base ?? `http://127.0.0.1:${app!.port}`;
  const handle = openDatabase({ kind: 'sqlite', file: external?.dbFile ?? app!.dbFile });
  const db: Kysely<Database> = handle.db;

  const call = async <T>(path: string, payload: unknown, token?: string): Promise<T> =>
    answer<T>(
      await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { ...signedHeaders(token), 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      }),
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
  const operatorCookie = () => supervisorCookie(db);

  return {
    base,
    db,
    orderInReview,
    operatorCookie,
    async close() {
      await handle.destroy();
      app?.child.kill('SIGTERM');
    },
  };
}
