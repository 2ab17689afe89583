// The page check journey's setup (issue 10), shared with the axe row: the
// fastest honest way into the step. The customer creates an order through the
// API; the earlier stages (payment, material review, mailing) have journeys of
// their own, so the order row is then put straight into processing ·
// page_check, paid and taken by the demo operator — in the database, as the
// lifecycle would leave it. Publishing for the axe row goes through the real
// /admin-api calls with an operator session made in the database.
import { readFileSync } from 'node:fs';
import { sha256Hex } from '../../common/signing';
import { FIXTURES } from '../fixtures/index';
import { DEMO, DEMO_STAFF, e2eDatabase, operatorSessionToken, signedApiHeaders } from './support';

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

export interface PageCheckOrder {
  userOrderId: number;
  applicants: Array<{ applicant_id: number; name: string }>;
}

/** A demo-enterprise order of a product without an interview, in processing · page_check, taken by the demo operator. */
export async function orderInPageCheck(baseURL: string): Promise<PageCheckOrder> {
  const db = e2eDatabase();
  try {
    const product = db
      .prepare(
        `select visa_product_id as id from visa_product where status = 0 and channel = 0 and offline = 1 and need_interview = 0 order by visa_product_id limit 1`,
      )
      .get() as { id: number };
    const { token } = await call<{ token: string }>(baseURL, '/www/account_login', { account: DEMO.account, password: sha256Hex(DEMO.password) });
    const departure = new Date(Date.now() + 45 * 86_400_000 + 8 * 3_600_000).toISOString().slice(0, 10);
    const { user_order_id: userOrderId } = await call<{ user_order_id: number }>(
      baseURL,
      '/www/order/order_create',
      {
        visa_product_id: product.id,
        departure_date: departure,
        applicants: [
          { name: '沈思远', identity_id: 0, mobile_phone: '13700137001' },
          { name: '沈安然', identity_id: 0, mobile_phone: '13700137002' },
        ],
      },
      token,
    );
    const operator = db.prepare('select id from operator where account = ?').get(DEMO_STAFF.operator.account) as { id: number };
    const now = Date.now();
    db.prepare(
      `update user_order set status = 'processing', step = 'page_check', confirmed_at = ?, paid_at = ?, expires_at = null,
         step_entered_at = ?, assignee_operator_id = ?, version = version + 1 where user_order_id = ?`,
    ).run(now, now, now, operator.id, userOrderId);
    const applicants = db
      .prepare('select applicant_id, name from order_applicant where user_order_id = ? order by sort, applicant_id')
      .all(userOrderId) as PageCheckOrder['applicants'];
    return { userOrderId, applicants };
  } finally {
    db.close();
  }
}

/** The same, with a PDF and a JPEG published for the first applicant and a PNG for the second (through /admin-api). */
export async function publishedPageCheck(baseURL: string): Promise<number> {
  const order = await orderInPageCheck(baseURL);
  const token = operatorSessionToken(DEMO_STAFF.operator.account);
  const uploads: Array<[number, keyof typeof FIXTURES, string, string]> = [
    [order.applicants[0]!.applicant_id, 'pdf', 'application/pdf', '申请表.pdf'],
    [order.applicants[0]!.applicant_id, 'jpeg', 'image/jpeg', '申请表-第2页.jpg'],
    [order.applicants[1]!.applicant_id, 'png', 'image/png', '申请表.png'],
  ];
  for (const [applicantId, fixture, type, name] of uploads) {
    const form = new FormData();
    form.append('user_order_id', String(order.userOrderId));
    form.append('applicant_id', String(applicantId));
    form.append('file', new Blob([new Uint8Array(readFileSync(FIXTURES[fixture]))], { type }), name);
    const response = await fetch(`${baseURL}/admin-api/page_check/upload`, { method: 'POST', headers: signedApiHeaders(token), body: form });
    const envelope = (await response.json()) as { ret: number; msg: string };
    if (envelope.ret !== 0) throw new Error(`page upload: ${envelope.ret} ${envelope.msg}`);
  }
  for (const applicant of order.applicants) {
    const { version } = await call<{ version: number }>(baseURL, '/admin-api/page_check/detail', { user_order_id: order.userOrderId }, token);
    await call(baseURL, '/admin-api/page_check/publish', { user_order_id: order.userOrderId, applicant_id: applicant.applicant_id, version }, token);
  }
  return order.userOrderId;
}
