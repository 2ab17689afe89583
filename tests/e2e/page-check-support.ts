// The page check journey's setup (issue 10): the fastest honest way into the
// step. The test's own customer creates an order through the API; the earlier
// stages (payment, material review, mailing) have journeys of their own, so
// the order is then brought into processing · page_check through the
// lifecycle's events — confirmed by its customer, paid, taken by the test's own
// operator and its materials passed — without those steps' own checks (the
// page check spec asserts the events it leaves).
import { confirmAsCustomer, fire } from './notice-support';
import { e2eDatabase, type Parties, signedApiHeaders } from './support';

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

/** An order of the customer, of a product without an interview, in processing · page_check, taken by the operator. */
export async function orderInPageCheck(baseURL: string, { customer, operator }: Parties): Promise<PageCheckOrder> {
  const db = e2eDatabase();
  try {
    const product = db
      .prepare(
        `select visa_product_id as id from visa_product where status = 0 and channel = 0 and offline = 1 and need_interview = 0 order by visa_product_id limit 1`,
      )
      .get() as { id: number };
    const { token } = customer;
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
    await confirmAsCustomer(userOrderId);
    await fire(userOrderId, { event: 'pay', set: { paid_at: Date.now(), expires_at: null } }, { kind: 'system' });
    await fire(userOrderId, { event: 'assign', set: { assignee_operator_id: operator.operatorId } }, operator.principal);
    await fire(userOrderId, { event: 'material_review_passed', to: 'processing:page_check' }, operator.principal);
    const applicants = db
      .prepare('select applicant_id, name from order_applicant where user_order_id = ? order by sort, applicant_id')
      .all(userOrderId) as PageCheckOrder['applicants'];
    return { userOrderId, applicants };
  } finally {
    db.close();
  }
}
