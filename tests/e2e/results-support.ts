// What the visa-results journeys of issue 11 set up (backoffice-results,
// backoffice-refund, backoffice-ship-back and the combined
// backoffice-issue11-chain): the signed API call, a payment through the
// sandbox's pay page and its signed notification (the real payment path:
// refunds give back a payment, so they need one), the submission at the
// embassy fired through the lifecycle as the test's own operator, and an order of
// the test's own customer at the embassy holding the customer's passports.
//
// orderAtEmbassy is built on the mail journey's order (mail-support.ts, in
// 待邮寄资料, taken by the test's operator): the customer self-expresses the
// paper materials through the API (the real mail_send), then the operator's
// steps are fired through the order lifecycle in process, as the mail,
// page-check and submit services would (each has its own spec): mail_receive
// and submit. The order keeps a return address snapshot, as confirm would have
// written it. orderWithResults adds one result per applicant, fired the same
// way (the results panel itself is the results spec's and the chain's).
import { tmpdir } from 'node:os';
import { expect } from '@playwright/test';
import { openDatabase } from '../../server/db/database';
import { recordRoutes } from '../../server/modules/courier/tracking';
import { createLocalStorage } from '../../server/modules/stored-file/storage-local';
import { createResultService } from '../../server/modules/result/result.service';
import type { Principal } from '../../server/platform/principal';
import { orderAwaitingMail } from './mail-support';
import { confirmAsCustomer, fire } from './notice-support';
import { e2eDatabase, type Parties, signedApiHeaders } from './support';

/** A signed call of the customer API (spec §7's envelope); throws on ret ≠ 0. */
export async function api<T>(baseURL: string, path: string, payload: unknown, token?: string): Promise<T> {
  const response = await fetch(`${baseURL}${path}`, {
    method: 'POST',
    headers: { ...signedApiHeaders(token), 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  const envelope = (await response.json()) as { ret: number; msg: string; body: T };
  if (envelope.ret !== 0) throw new Error(`${path}: ${envelope.ret} ${envelope.msg}`);
  return envelope.body;
}

/** Today in China (YYYY-MM-DD): the submission date. */
export function chinaToday(): string {
  return new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
}

/**
 * Pays a pending order for real: payment_create, the sandbox's pay page
 * confirmed, and its signed notification (the server's) moving the order to
 * processing. Returns what was paid, in cents.
 */
export async function payInSandbox(baseURL: string, userOrderId: number, token: string): Promise<{ outTradeNo: string; amount: number }> {
  const payment = await api<{ out_trade_no: string; amount: number }>(
    baseURL,
    '/www/payment/payment_create',
    { user_order_id: userOrderId, channel: 'wechat' },
    token,
  );
  const confirmed = await fetch(`${baseURL}/sandbox/pay/${payment.out_trade_no}/confirm`, { method: 'POST', redirect: 'manual' });
  expect(confirmed.status).toBeLessThan(400);
  await expect
    .poll(async () => (await api<{ status: string }>(baseURL, '/www/order/order_detail_get', { user_order_id: userOrderId }, token)).status, {
      timeout: 15_000,
    })
    .toBe('processing');
  return { outTradeNo: payment.out_trade_no, amount: payment.amount };
}

/**
 * A processing order of the customer (its session token), paid through the payment module:
 * created through the API for the first offline product without interview,
 * confirmed through the lifecycle as its customer (the confirm step is the confirm spec's),
 * then paid on the sandbox's page. `total` is what was paid, in cents.
 */
export async function paidOrder(
  baseURL: string,
  customer: { token: string },
  applicants: { name: string; mobile_phone: string }[],
): Promise<{ userOrderId: number; total: number; token: string }> {
  const { token } = customer;
  const db = e2eDatabase();
  const product = db
    .prepare(
      `select visa_product_id from visa_product where status = 0 and channel = 0 and offline = 1 and need_interview = 0 order by visa_product_id limit 1`,
    )
    .get() as { visa_product_id: number };
  const departure = new Date(Date.now() + 50 * 86_400_000 + 8 * 3_600_000).toISOString().slice(0, 10);
  const { user_order_id: userOrderId } = await api<{ user_order_id: number }>(
    baseURL,
    '/www/order/order_create',
    { visa_product_id: product.visa_product_id, departure_date: departure, applicants: applicants.map((a) => ({ ...a, identity_id: 0 })) },
    token,
  );
  db.close();
  await confirmAsCustomer(userOrderId);
  const { amount } = await payInSandbox(baseURL, userOrderId, token);
  return { userOrderId, total: amount, token };
}

/** 已递交使馆 today, fired through the lifecycle as the operator (the submit step has its own spec). */
export async function submitAtEmbassy(userOrderId: number, principal: Principal): Promise<void> {
  await fire(userOrderId, { event: 'submit', set: { submitted_date: chinaToday() }, detail: { submitted_date: chinaToday() } }, principal);
}

export const RETURN_SNAPSHOT = {
  address_id: 0,
  kind: 'return',
  company_name: null,
  name: '林寄回',
  mobile_phone: '13600136009',
  province_code: '440000',
  city_code: '440300',
  county_code: '440305',
  province_name: '广东省',
  city_name: '深圳市',
  county_name: '南山区',
  detail: '科技园南区 8 号 1201 室',
};

export interface OrderAtEmbassy {
  userOrderId: number;
  applicants: Array<{ applicant_id: number; name: string }>;
  /** What the customer paid in the sandbox (cents), when paidInSandbox. */
  paid: number | null;
}

/**
 * An order of the customer at the embassy (processing · 已递交使馆), taken by the operator, one
 * applicant per name. `mailed: false`: no parcel came in (it stands for an
 * e-visa order, nothing to send back). `rejectRefund: true`: a product with
 * 拒签退全款. `paidInSandbox: true`: paid through the sandbox (a refund needs a payment).
 */
export async function orderAtEmbassy(
  baseURL: string,
  parties: Parties,
  names: string[],
  options: { mailed?: boolean; rejectRefund?: boolean; paidInSandbox?: boolean } = {},
): Promise<OrderAtEmbassy> {
  let paid: number | null = null;
  const id = await orderAwaitingMail(baseURL, parties, names, {
    rejectRefund: options.rejectRefund,
    pay: options.paidInSandbox
      ? async (userOrderId, token) => {
          paid = (await payInSandbox(baseURL, userOrderId, token)).amount;
        }
      : undefined,
  });
  const mailed = options.mailed !== false;
  const { token } = parties.customer;
  const { order } = await api<{ order: { version: number } }>(baseURL, '/www/order/mail_list', { user_order_id: id }, token);
  const waybill = `SF${String(Date.now()).slice(-13).padStart(13, '7')}`;
  // Without the parcel (mailed: false) the service holds nothing: it stands for an e-visa order.
  if (mailed)
    await api(baseURL, '/www/order/mail_self_express', { user_order_id: id, version: order.version, courier_company: 'SF', waybill_no: waybill }, token);

  const db = e2eDatabase();
  // Stands for confirm's snapshot of the chosen return address.
  db.prepare('update user_order set return_address = ? where user_order_id = ?').run(JSON.stringify(RETURN_SNAPSHOT), id);
  const applicants = db.prepare('select applicant_id, name from order_applicant where user_order_id = ? order by sort, applicant_id').all(id) as Array<{
    applicant_id: number;
    name: string;
  }>;
  db.close();
  const { principal } = parties.operator;
  await fire(id, { event: 'mail_receive', detail: { e2e: true } }, principal);
  // As the mail service's 已收到 does: the parcel that came in is confirmed delivered by the operator.
  await confirmParcel(id);
  await submitAtEmbassy(id, principal);
  return { userOrderId: id, applicants, paid };
}

/**
 * A submitted order with results: `results` per applicant ('issued' /
 * 'rejected'), recorded through the results service. `rejectRefund` sets the order's
 * 拒签退全款 snapshot (no payment here, so no refund is made). Returns its id.
 */
export async function orderWithResults(
  baseURL: string,
  parties: Parties,
  applicant: string,
  results: Array<'issued' | 'rejected'>,
  options: { mailed?: boolean; rejectRefund?: 0 | 1 } = {},
): Promise<number> {
  const { userOrderId: id, applicants } = await orderAtEmbassy(baseURL, parties, [applicant], { mailed: options.mailed });
  if (options.rejectRefund !== undefined) {
    const db = e2eDatabase();
    db.prepare('update user_order set reject_refund = ? where user_order_id = ?').run(options.rejectRefund, id);
    db.close();
  }
  // Through the results service (as the results panel's calls do), so each applicant has a real result row.
  const { principal } = parties.operator;
  const handle = openDatabase({ kind: 'sqlite', file: process.env.E2E_DB_FILE! });
  try {
    const silent = { info: () => {}, warn: () => {}, error: () => {} };
    const results_ = createResultService(handle.db, { now: Date.now, storage: createLocalStorage(tmpdir()), maxBytes: 1, log: silent });
    const version = async () => (await handle.db.selectFrom('user_order').select('version').where('user_order_id', '=', id).executeTakeFirstOrThrow()).version;
    for (const [index, row] of applicants.entries()) {
      const status = results[index] ?? results[0] ?? 'issued';
      const common = { user_order_id: id, applicant_id: row.applicant_id, version: await version() };
      if (status === 'issued')
        await results_.issue(principal, {
          ...common,
          visa_no: `E2E${id}${index}`,
          valid_from: '2027-02-01',
          valid_to: '2027-04-30',
          entries: '单次',
          stay_days: 15,
        });
      else await results_.reject(principal, { ...common, reasons: ['funds'], note: '' });
    }
  } finally {
    await handle.destroy();
  }
  return id;
}

/** The parcel of paper materials, if any, confirmed delivered by the operator (as the mail service's 已收到 does). */
async function confirmParcel(id: number): Promise<void> {
  const handle = openDatabase({ kind: 'sqlite', file: process.env.E2E_DB_FILE! });
  try {
    const parcel = await handle.db
      .selectFrom('shipment')
      .select('shipment_id')
      .where('user_order_id', '=', id)
      .where('direction', '=', 'to_service')
      .executeTakeFirst();
    if (!parcel) return;
    const route = {
      op_code: 'received',
      status: 'delivered' as const,
      event_time: Date.now(),
      remark: '易签通已签收（工作人员确认）',
      location: '北京市',
      provider_route_id: null,
    };
    await recordRoutes(handle.db, parcel.shipment_id, [route], 'operator', Date.now(), 600_000);
  } finally {
    await handle.destroy();
  }
}
