// An order of the demo enterprise in step `interview` (issue 10), for the
// interview journey and the axe rows: created and given an interview time
// through the API as the customer would, then put straight into
// processing · interview and assigned to the demo operator in the database —
// the earlier stages (payment, review, mailing, page check) have their own
// journeys. Optionally with the notice published through /admin-api.
import { sha256Hex } from '../../common/signing';
import { DEMO, DEMO_STAFF, e2eDatabase, operatorSessionToken, signedApiHeaders } from './support';

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

export async function interviewStepOrder(baseURL: string, options: { publish?: boolean } = {}): Promise<{ userOrderId: number; date: string }> {
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
  const { token } = await e2eCall<{ token: string }>(baseURL, '/www/account_login', { account: DEMO.account, password: sha256Hex(DEMO.password) });
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
  const write = e2eDatabase();
  try {
    const operator = write.prepare('select id from operator where account = ?').get(DEMO_STAFF.operator.account) as { id: number };
    const now = Date.now();
    write
      .prepare(
        `update user_order set status = 'processing', step = 'interview', paid_at = ?, expires_at = null, step_entered_at = ?, step_due_at = null,
         assignee_operator_id = ?, version = version + 1 where user_order_id = ?`,
      )
      .run(now, now, operator.id, userOrderId);
  } finally {
    write.close();
  }
  if (options.publish) {
    const staff = operatorSessionToken(DEMO_STAFF.operator.account);
    const panel = await e2eCall<{ version: number; applicants: Array<{ applicant_id: number; form: Record<string, unknown> }> }>(
      baseURL,
      '/admin-api/order/interview_panel',
      { user_order_id: userOrderId },
      staff,
    );
    let version = panel.version;
    for (const applicant of panel.applicants) {
      const answer = await e2eCall<{ version: number }>(
        baseURL,
        '/admin-api/order/interview_notice_publish',
        { ...applicant.form, user_order_id: userOrderId, applicant_id: applicant.applicant_id, version },
        staff,
      );
      version = answer.version;
    }
  }
  return { userOrderId, date: day.date };
}
