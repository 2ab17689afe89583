// An order of the test's own customer in step `interview` (issue 10), for the
// interview journey: created and given an interview time through the API as
// the customer would, then brought into processing · interview through the
// lifecycle's events (confirm, pay, the test's own operator takes it and passes
// its materials, the customer's page check done) without those steps' own
// checks — the earlier stages (payment, review, mailing, page check) have their
// own journeys. (The axe rows' interview orders are order-factories.ts's,
// through every step with its checks.)
import { confirmAsCustomer, customerOf, fire } from './notice-support';
import { e2eDatabase, type Parties, signedApiHeaders } from './support';

export async function e2eCall<T>(baseURL: string, path: string, payload: unknown, token?: string): Promise<T> {
  const response = await fetch(`${baseURL}${path}`, {
    method: 'POST',
    headers: { ...signedApiHeaders(token), 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  const envelope = (await response.json()) as { ret: number; msg: string; body: T };
  if (envelope.ret !== 0) throw new Error(`${path}: ${envelope.ret} ${envelope.msg}`);
  return envelope.body;
}

interface SlotList {
  dates: Array<{ date: string; slots: Array<{ interview_slot_id: number; full: boolean; remaining: number }> }>;
  applicants: Array<{ applicant_id: number }>;
}

export async function interviewStepOrder(baseURL: string, { customer, operator }: Parties): Promise<{ userOrderId: number; date: string }> {
  const db = e2eDatabase();
  let productId: number;
  try {
    productId = (
      db
        .prepare(
          `select visa_product_id as id from visa_product where status = 0 and channel = 0 and offline = 1 and need_interview = 1
           and consular_district_id is not null order by visa_product_id limit 1`,
        )
        .get() as { id: number }
    ).id;
  } finally {
    db.close();
  }
  const { token } = customer;
  const departure = new Date(Date.now() + 40 * 86_400_000 + 8 * 3_600_000).toISOString().slice(0, 10);
  const { user_order_id: userOrderId } = await e2eCall<{ user_order_id: number }>(
    baseURL,
    '/www/order/order_create',
    { visa_product_id: productId, departure_date: departure, applicants: [{ name: '沈知远', identity_id: 0, mobile_phone: '13700137001' }] },
    token,
  );
  const list = await e2eCall<SlotList>(baseURL, '/www/order/interview_slot_list', { user_order_id: userOrderId }, token);
  const day = list.dates.find((d) => d.slots.some((s) => !s.full))!;
  const slot = day.slots.find((s) => !s.full)!;
  await e2eCall(
    baseURL,
    '/www/order/interview_time_choose',
    { user_order_id: userOrderId, choices: [{ applicant_id: list.applicants[0]!.applicant_id, interview_slot_id: slot.interview_slot_id }] },
    token,
  );
  await confirmAsCustomer(userOrderId);
  await fire(userOrderId, { event: 'pay', set: { paid_at: Date.now(), expires_at: null } }, { kind: 'system' });
  await fire(userOrderId, { event: 'assign', set: { assignee_operator_id: operator.operatorId } }, operator.principal);
  await fire(userOrderId, { event: 'material_review_passed', to: 'processing:page_check' }, operator.principal);
  await fire(userOrderId, { event: 'page_check_done', to: 'processing:interview' }, await customerOf(userOrderId));
  return { userOrderId, date: day.date };
}
