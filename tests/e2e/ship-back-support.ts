// What the ship-back journey sets up: an order of the demo enterprise at the
// embassy (processing · 已递交使馆) with every applicant's result recorded,
// holding the customer's passports. Built on the mail journey's order (in
// 待邮寄资料, taken by the demo operator): the customer self-expresses the
// paper materials through the API (the real mail_send), then the operator's
// steps are fired through the order lifecycle in process, as the mail,
// page-check, submit and result services would (each has its own spec):
// mail_receive, submit, and one result per applicant. The order keeps a return
// address snapshot, as confirm would have written it.
import { sha256Hex } from '../../common/signing';
import { openDatabase } from '../../server/db/database';
import { recordRoutes } from '../../server/modules/courier/tracking';
import { orderAwaitingMail } from './mail-support';
import { fire } from './notice-support';
import { DEMO, DEMO_STAFF, e2eDatabase, signedApiHeaders } from './support';

async function call<T>(baseURL: string, path: string, payload: unknown, token?: string): Promise<T> {
  const response = await fetch(`${baseURL}${path}`, {
    method: 'POST',
    headers: { ...signedApiHeaders(token), 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  const envelope = (await response.json()) as { ret: number; msg: string; body: T };
  if (envelope.ret !== 0) throw new Error(`${path}: ${envelope.ret} ${envelope.msg}`);
  return envelope.body;
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

/** A submitted order with results: `results` per applicant ('issued' / 'rejected'). Returns its id. */
export async function orderWithResults(
  baseURL: string,
  applicant: string,
  results: Array<'issued' | 'rejected'>,
  options: { mailed?: boolean; rejectRefund?: 0 | 1 } = {},
): Promise<number> {
  const id = await orderAwaitingMail(baseURL, applicant);
  const mailed = options.mailed !== false;
  const { token } = await call<{ token: string }>(baseURL, '/www/account_login', { account: DEMO.account, password: sha256Hex(DEMO.password) });
  const { order } = await call<{ order: { version: number } }>(baseURL, '/www/order/mail_list', { user_order_id: id }, token);
  const version = order.version;
  const waybill = `SF${String(Date.now()).slice(-13).padStart(13, '7')}`;
  // Without the parcel (mailed: false) the service holds nothing: it stands for an e-visa order.
  if (mailed) await call(baseURL, '/www/order/mail_self_express', { user_order_id: id, version, courier_company: 'SF', waybill_no: waybill }, token);

  const db = e2eDatabase();
  const operator = db.prepare('select id, role from operator where account = ?').get(DEMO_STAFF.operator.account) as { id: number; role: 'operator' };
  // Stands for confirm's snapshot of the chosen return address.
  db.prepare('update user_order set return_address = ? where user_order_id = ?').run(JSON.stringify(RETURN_SNAPSHOT), id);
  if (options.rejectRefund !== undefined) db.prepare('update user_order set reject_refund = ? where user_order_id = ?').run(options.rejectRefund, id);
  const applicants = db.prepare('select applicant_id from order_applicant where user_order_id = ? order by sort, applicant_id').all(id) as Array<{
    applicant_id: number;
  }>;
  db.close();
  const principal = { kind: 'operator' as const, operatorId: operator.id, role: operator.role };
  await fire(id, { event: 'mail_receive', detail: { e2e: true } }, principal);
  // As the mail service's 已收到 does: the parcel that came in is confirmed delivered by the operator.
  await confirmParcel(id);
  const today = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
  await fire(id, { event: 'submit', set: { submitted_date: today }, detail: { submitted_date: today } }, principal);
  for (const [index, row] of applicants.entries()) {
    const status = results[index] ?? results[0] ?? 'issued';
    await fire(
      id,
      {
        event: status === 'issued' ? 'result_issue' : 'result_reject',
        applicants: [{ applicant_id: row.applicant_id, set: { status } }],
        detail: { applicant_id: row.applicant_id },
      },
      principal,
    );
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
