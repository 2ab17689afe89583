// What the mail specs set up: an order of the test's own customer in 待邮寄资料,
// taken by the test's own operator (tests/e2e/backoffice-mail.spec.ts, and
// results-support.ts builds on it).
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

/**
 * An order of the customer in 待邮寄资料, taken by the operator: created
 * through the API for a product with mailed paper materials, then paid, assigned and
 * passed through the lifecycle (confirmed as the customer, then as the payment and the
 * review would; `pay` pays it for real instead). Also a pickup address in the address book.
 */
export async function orderAwaitingMail(
  baseURL: string,
  { customer, operator }: Parties,
  applicant: string | string[],
  options: {
    /** A product with 拒签退全款 (reject_refund on). */
    rejectRefund?: boolean;
    /** How the order gets paid (default: the lifecycle's pay event, as the payment would fire it). */
    pay?: (userOrderId: number, token: string) => Promise<void>;
  } = {},
): Promise<number> {
  const names = typeof applicant === 'string' ? [applicant] : applicant;
  const db = e2eDatabase();
  const product = db
    .prepare(
      `select p.visa_product_id from visa_product p
       where p.status = 0 and p.channel = 0 and p.offline = 1 and p.need_interview = 0
         and exists (select 1 from visa_product_material m where m.visa_product_id = p.visa_product_id and m.attr = 1 and m.identity_id = 0)
         ${options.rejectRefund ? 'and p.reject_refund = 1' : ''}
       order by p.visa_product_id limit 1`,
    )
    .get() as { visa_product_id: number };
  db.close();
  const { token } = customer;
  const departure = new Date(Date.now() + 60 * 86_400_000 + 8 * 3_600_000).toISOString().slice(0, 10);
  const { user_order_id: id } = await call<{ user_order_id: number }>(
    baseURL,
    '/www/order/order_create',
    {
      visa_product_id: product.visa_product_id,
      departure_date: departure,
      applicants: names.map((name, index) => ({ name, identity_id: 0, mobile_phone: `1360013600${index + 1}` })),
    },
    token,
  );
  await call(
    baseURL,
    '/www/address/address_save',
    {
      kind: 'return',
      name: names[0],
      mobile_phone: '13600136001',
      province_code: '440000',
      city_code: '440300',
      county_code: '440305',
      detail: '科技园南区 2 号',
    },
    token,
  );
  const now = Date.now();
  await confirmAsCustomer(id);
  if (options.pay) await options.pay(id, token);
  else await fire(id, { event: 'pay', set: { paid_at: now, expires_at: null } }, { kind: 'system' });
  await fire(id, { event: 'assign', set: { assignee_operator_id: operator.operatorId } }, operator.principal);
  await fire(id, { event: 'material_review_passed', to: 'processing:awaiting_mail' }, operator.principal);
  return id;
}
