// The travellers' own SMS and e-mails through the real app on SQLite or
// PostgreSQL (TEST_DATABASE_URL): one order of two applicants from the page
// check to the passports shipped back, the messages each gets (written in the
// event's transaction, sent by the traveller outbox after the commit, SMS in
// the sandbox's folder, e-mails in the mail outbox), a repeated event sending
// nothing new, the quiet hours (a same-day change goes at night, the rest at
// 08:00), the opt-out (a reply TD), the per-number rate limit, a provider's
// refusal recorded with its reason, and a send that died half-way not repeated.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminOrderTake, adminOrderWorkbench } from '../../../common/contracts/admin-order.ts';
import { adminTravellerMessages } from '../../../common/contracts/traveller-message.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { adminShipBackGet, adminShipBackSend } from '../../../common/contracts/ship-back.ts';
import { toJson } from '../../db/json.ts';
import type { Customer } from '../../test-support/fixtures/material.ts';
import { type Op, RETURN_ADDRESS, shipBackTestContext, type ShipBackTestContext } from '../../test-support/fixtures/ship-back.ts';
import { T0 } from '../../test-support/fixtures/review.ts';
import { createTravellerOutbox, TRAVELLER_OUTBOX_JOB } from './traveller-outbox.ts';
import { SmsSendError, type SmsMessage, type SmsProvider } from './sms-provider.ts';
import { installSmsReply, isOptOutReply, optOut } from './sms.module.ts';

let ctx: ShipBackTestContext;
let alice: Customer;
let op: Op;

beforeAll(async () => {
  ctx = await shipBackTestContext();
  alice = await ctx.customer();
  // A supervisor: the test's clock outlives sessions, and a new supervisor may act on any order.
  op = await ctx.t.operator({ role: 'supervisor' });
});
afterAll(async () => {
  await ctx?.close();
});

const HOUR = 3_600_000;
const MOBILE_A = '13900000001';
const MOBILE_B = '13900000002';
const EMAIL_A = 'zhang.traveller@example.com';

/** A paid order of two applicants (A with mobile and e-mail, B with a mobile), taken by `op`, in page_check. */
async function orderInPageCheck(phones = [MOBILE_A, MOBILE_B]): Promise<{ id: number; a: number; b: number }> {
  const id = await ctx.paidOrder(alice, { phones });
  const [a, b] = await ctx.applicantIds(id);
  await ctx.t.db.updateTable('order_applicant').set({ email: EMAIL_A }).where('applicant_id', '=', a!).execute();
  await ctx.t.db.updateTable('order_applicant').set({ email: null }).where('applicant_id', '=', b!).execute();
  const taken = await op.callContract(adminOrderTake, { user_order_id: id });
  if (taken.body.ret !== 0) throw new Error(`take: ${taken.body.msg}`);
  await ctx.t.db
    .updateTable('user_order')
    .set({ return_address: toJson(RETURN_ADDRESS) })
    .where('user_order_id', '=', id)
    .execute();
  await ctx.lifecycle.change(op.principal, id, () => ({ event: 'material_review_passed', to: 'processing:page_check', detail: { test: true } }));
  return { id, a: a!, b: b! };
}

/** The page check service's publication of one applicant's pages (its rows are page-check's business). */
const publishPages = (id: number, applicantId: number, round = 1) =>
  ctx.lifecycle.change(op.principal, id, () => ({ event: 'page_check_publish', detail: { applicant_id: applicantId, round, pages: 2 } }));

/** The interview notice service's publication: the notice row, then the event. */
async function publishInterview(id: number, applicantId: number, date: string, start: string, republish: boolean) {
  await ctx.lifecycle.change(op.principal, id, () => ({
    event: 'interview_notice_publish',
    within: async (trx) => {
      const values = {
        interview_date: date,
        start_time: start,
        end_time: '17:00',
        consulate_name: '美国驻上海总领事馆',
        consulate_address: '南京西路1038号梅龙镇广场8楼',
        process: '安检后排队',
        attention: '提前30分钟到达',
        telephone: '021-12345678',
        materials: toJson(['护照原件', 'DS-160确认页']),
        published_by: op.principal.operatorId,
        published_at: ctx.t.clock.now,
        updated_at: ctx.t.clock.now,
      };
      await trx
        .insertInto('interview_notice')
        .values({ user_order_id: id, applicant_id: applicantId, ...values })
        .onConflict((oc) => oc.column('applicant_id').doUpdateSet(values))
        .execute();
    },
    detail: { applicant_id: applicantId, interview_date: date, start_time: start, republish },
  }));
}

async function recordResult(id: number, applicantId: number, result: 'issued' | 'rejected') {
  await ctx.lifecycle.change(op.principal, id, () => ({
    event: result === 'issued' ? 'result_issue' : 'result_reject',
    applicants: [{ applicant_id: applicantId, set: { status: result } }],
    within: async (trx) => {
      await trx
        .insertInto('visa_result')
        .values({
          user_order_id: id,
          applicant_id: applicantId,
          result,
          visa_no: result === 'issued' ? 'V20261234' : null,
          valid_from: result === 'issued' ? '2026-12-20' : null,
          valid_to: result === 'issued' ? '2027-12-19' : null,
          entries: result === 'issued' ? '多次' : null,
          stay_days: result === 'issued' ? 90 : null,
          reject_reasons: result === 'rejected' ? toJson(['other']) : null,
          reject_note: null,
          file_id: null,
          operator_id: op.principal.operatorId,
          created_at: ctx.t.clock.now,
        })
        .execute();
    },
    detail: { applicant_id: applicantId },
  }));
}

/** A parcel of paper materials that came in (the service holds the passports), as the ship-back fixture does. */
async function passportsHeld(id: number) {
  const courier = ctx.t.app.courier.service;
  const receiver = await courier.receivingAddress(null);
  const { receiving_address_id: _id, consular_district_id: _d, note: _n, ...contact } = receiver!;
  const draft = courier.selfExpress({
    user_order_id: id,
    direction: 'to_service',
    applicant_ids: await ctx.applicantIds(id),
    receiver: contact,
    courier_company: 'SF',
    waybill_no: `SF${String(1_000_000_000_000 + id).slice(-13)}`,
    by: alice,
  });
  await ctx.t.db.transaction().execute((trx) => courier.storeShipment(trx, draft));
}

/** Sessions expire as the clock moves on: a fresh customer and operator. */
async function newSessions() {
  alice = await ctx.customer();
  op = await ctx.t.operator({ role: 'supervisor' });
}

const drain = () => ctx.t.app.travellerOutbox.drain();

async function messages(id: number) {
  return ctx.t.db
    .selectFrom('traveller_message')
    .select(['message_id', 'applicant_id', 'channel', 'to_address', 'template', 'params', 'status', 'last_error', 'sent_at', 'next_attempt_at'])
    .where('user_order_id', '=', id)
    .orderBy('message_id')
    .execute();
}

function sandboxSms(): Array<{ to: string; template: string; text: string; params: Record<string, string> }> {
  const dir = ctx.t.config.SMS_OUTBOX_DIR;
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')));
}

/** China time of day D (2026-12-0x) at hh:mm, as an instant. */
const china = (date: string, time: string) => Date.parse(`${date}T${time}:00+08:00`);

describe(`travellers are told themselves (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('over one order each traveller gets their own messages; a repeated event sends one; a same-day change goes at night, the rest at 08:00', async () => {
    ctx.t.clock.now = T0; // 2026-12-01 10:00 China time
    const { id, a, b } = await orderInPageCheck();

    await publishPages(id, a);
    // Sent right after the commit by the app's job (the after-commit hook pokes it).
    await ctx.t.app.jobs.settled(TRAVELLER_OUTBOX_JOB);
    expect((await messages(id)).map((m) => [m.channel, m.status])).toEqual([
      ['sms', 'sent'],
      ['email', 'sent'],
    ]);
    // From here the test drains by hand, to count what each drain sends.
    await ctx.t.app.jobs.disable(TRAVELLER_OUTBOX_JOB);
    await publishPages(id, a); // the same publication recorded twice: one message
    await publishPages(id, b);
    await ctx.lifecycle.change(alice, id, () => ({ event: 'page_check_done', to: 'processing:interview', detail: { test: true } }));
    await publishInterview(id, a, '2026-12-08', '09:00', false);
    await publishInterview(id, b, '2026-12-08', '10:00', false);
    // Republished unchanged: nothing new.
    await publishInterview(id, a, '2026-12-08', '09:00', true);
    expect((await drain()).sent).toBe(1 * 2 + 2); // A: the appointment by SMS and e-mail; B: page check and appointment by SMS

    // 2026-12-08 06:30: A's interview moves to 14:00 that day (sent at once, quiet hours or not); B's to the 10th (waits for 08:00).
    ctx.t.clock.now = china('2026-12-08', '06:30');
    await publishInterview(id, a, '2026-12-08', '14:00', true);
    await publishInterview(id, b, '2026-12-10', '10:00', true);
    const night = await drain();
    expect(night).toMatchObject({ sent: 2, held: 0 }); // A's SMS and e-mail; B's SMS was written held
    const held = (await messages(id)).find((m) => m.applicant_id === b && m.template === 'appointment_change')!;
    expect(held).toMatchObject({ status: 'pending', last_error: '夜间免打扰（22:00–08:00），08:00 后发送' });
    expect(Number(held.next_attempt_at)).toBe(china('2026-12-08', '08:00'));
    ctx.t.clock.now = china('2026-12-08', '08:00');
    expect((await drain()).sent).toBe(1);

    ctx.t.clock.now = china('2026-12-11', '10:00');
    await newSessions();
    await passportsHeld(id);
    await ctx.lifecycle.change(op.principal, id, () => ({ event: 'submit', set: { submitted_date: '2026-12-11' }, detail: { test: true } }));
    await recordResult(id, a, 'issued');
    await recordResult(id, b, 'rejected');
    const panel = await op.callContract(adminShipBackGet, { user_order_id: id });
    const shipped = await op.callContract(adminShipBackSend, { user_order_id: id, version: panel.result!.order.version, pickup_window: ctx.window() });
    expect(shipped.body.ret).toBe(0);
    await drain();

    const rows = await messages(id);
    expect(rows.every((m) => m.status === 'sent')).toBe(true);
    const list = (applicantId: number, channel: 'sms' | 'email') =>
      rows.filter((m) => m.applicant_id === applicantId && m.channel === channel).map((m) => m.template);
    expect(list(a, 'sms')).toEqual(['page_check', 'appointment', 'appointment_change', 'result_issued', 'ship_back']);
    expect(list(a, 'email')).toEqual(['page_check', 'appointment', 'appointment_change', 'result_issued', 'ship_back']);
    expect(list(b, 'sms')).toEqual(['page_check', 'appointment', 'appointment_change', 'result_rejected', 'ship_back']);
    expect(list(b, 'email')).toEqual([]);

    // What reached the sandbox: each number only its own, in the approved words with the order's facts.
    const sms = sandboxSms();
    const toA = sms.filter((m) => m.to === MOBILE_A);
    const toB = sms.filter((m) => m.to === MOBILE_B);
    expect(toA.map((m) => m.template)).toEqual(list(a, 'sms'));
    expect(toB.map((m) => m.template)).toEqual(list(b, 'sms'));
    expect(toA[1]!.text).toContain('2026-12-08 09:00-17:00');
    expect(toA[1]!.text).toContain('请携带：护照原件、DS-160确认页');
    expect(toA[2]!.text).toContain('已变更为2026-12-08 14:00-17:00');
    expect(toA[3]!.text).toContain('签证号V20261234，有效期至2027-12-19');
    expect(toB[4]!.params.waybill).toMatch(/\w{6,}/);
    expect(toB[4]!.text).toContain(`运单号${toB[4]!.params.waybill}`);
    // A's e-mails are in the mail outbox, addressed to A.
    const eml = readdirSync(ctx.t.config.OUTBOX_DIR).map((f) => readFileSync(join(ctx.t.config.OUTBOX_DIR, f), 'utf8'));
    expect(eml.filter((text) => text.includes(`To: ${EMAIL_A}`))).toHaveLength(5);

    // The ordering account keeps its notices of these events.
    const notices = await ctx.t.db.selectFrom('notice').select('kind').where('user_order_id', '=', id).where('recipient_kind', '=', 'customer').execute();
    expect(notices.map((n) => n.kind)).toEqual(
      expect.arrayContaining(['page_check_publish', 'interview_notice_publish', 'result_issue', 'result_reject', 'ship_back']),
    );
  });

  it('a number that replied TD gets no SMS (its e-mail still goes); the reply endpoint needs its secret', async () => {
    const app = Fastify();
    installSmsReply(app, { db: ctx.t.db, now: () => ctx.t.clock.now, token: 'reply-token-0123456789' });
    expect(
      (await app.inject({ method: 'POST', url: '/sms/reply/wrong-token-0123456789', payload: [{ phone_number: MOBILE_A, content: 'TD' }] })).statusCode,
    ).toBe(404);
    const answered = await app.inject({
      method: 'POST',
      url: '/sms/reply/reply-token-0123456789',
      payload: [
        { phone_number: MOBILE_A, content: ' td ' },
        { phone_number: MOBILE_B, content: '谢谢' },
      ],
    });
    expect(answered.json()).toEqual({ code: 0, msg: '成功' });
    await app.close();
    expect(isOptOutReply('退订')).toBe(true);
    expect(isOptOutReply('好的')).toBe(false);

    ctx.t.clock.now = T0 + 20 * 24 * HOUR;
    await newSessions();
    const { id, a, b } = await orderInPageCheck();
    await publishPages(id, a);
    await publishPages(id, b);
    await drain();
    const rows = await messages(id);
    expect(rows.find((m) => m.applicant_id === a && m.channel === 'sms')).toMatchObject({ status: 'skipped', last_error: '该号码已退订短信' });
    expect(rows.find((m) => m.applicant_id === a && m.channel === 'email')).toMatchObject({ status: 'sent' });
    expect(rows.find((m) => m.applicant_id === b && m.channel === 'sms')).toMatchObject({ status: 'sent' });

    // Opted out after the message was written, before it went: the outbox skips it too.
    await ctx.t.app.jobs.disable(TRAVELLER_OUTBOX_JOB);
    await publishPages(id, b, 2);
    await optOut(ctx.t.db, `+86 ${MOBILE_B}`, 'operator', ctx.t.clock.now);
    await drain();
    expect((await messages(id)).at(-1)).toMatchObject({ applicant_id: b, channel: 'sms', status: 'skipped' });
  });

  it('rate-limits SMS per number, records a refusal with its reason, retries a passing failure, never sends a message twice', async () => {
    await ctx.t.app.jobs.disable(TRAVELLER_OUTBOX_JOB);
    const sent: SmsMessage[] = [];
    let refuse: SmsSendError | null = null;
    const provider: SmsProvider = {
      kind: 'sandbox',
      async send(message) {
        if (refuse) throw refuse;
        sent.push(message);
        return { id: `m${sent.length}` };
      },
    };
    const outbox = createTravellerOutbox({ db: ctx.t.db, sms: provider, mailer: noMailer, now: () => ctx.t.clock.now, ratePerHour: 2, ratePerDay: 3 });
    ctx.t.clock.now = T0 + 22 * 24 * HOUR;
    await newSessions();
    const mobile = '13700000009';
    const { id, a, b } = await orderInPageCheck([mobile, mobile]);
    // Three messages to one number within the hour: two go, the third waits until the first leaves the window.
    await publishPages(id, a);
    await publishPages(id, b);
    await publishPages(id, a, 2);
    const first = await outbox.drain();
    expect(first).toMatchObject({ sent: 4, held: 1 }); // two SMS and A's two e-mails; the third SMS held
    const waiting = (await messages(id)).find((m) => m.channel === 'sms' && m.status === 'pending')!;
    expect(waiting.last_error).toContain('每小时最多 2 条');
    expect(Number(waiting.next_attempt_at)).toBe(ctx.t.clock.now + HOUR);
    ctx.t.clock.now += HOUR;
    expect(await outbox.drain()).toMatchObject({ sent: 1 });
    expect(sent.filter((m) => m.to === mobile)).toHaveLength(3);
    // The day's limit (3) reached: the next waits for a day.
    await publishPages(id, b, 2);
    expect(await outbox.drain()).toMatchObject({ sent: 0, held: 1 });

    // A refusal (a bad number) is final, with the provider's code and words; a throttle is retried with backoff.
    ctx.t.clock.now += 2 * 24 * HOUR;
    refuse = new SmsSendError('isv.MOBILE_NUMBER_ILLEGAL', '非法手机号', true);
    await outbox.drain();
    expect((await messages(id)).find((m) => m.applicant_id === b && m.channel === 'sms' && m.status === 'failed')?.last_error).toBe(
      'isv.MOBILE_NUMBER_ILLEGAL: 非法手机号',
    );
    refuse = new SmsSendError('isv.BUSINESS_LIMIT_CONTROL', '触发流控', false);
    await publishPages(id, a, 3);
    await outbox.drain();
    const retrying = (await messages(id)).find((m) => m.applicant_id === a && m.channel === 'sms' && m.status === 'pending')!;
    expect(retrying.last_error).toContain('isv.BUSINESS_LIMIT_CONTROL');
    refuse = null;
    ctx.t.clock.now = Number(retrying.next_attempt_at);
    await outbox.drain();
    expect((await messages(id)).find((m) => m.message_id === retrying.message_id)).toMatchObject({ status: 'sent' });

    // A row left sending (the process died during the provider's call) is not sent again once its lease is over.
    await publishPages(id, a, 4);
    const row = (await messages(id)).find((m) => m.applicant_id === a && m.channel === 'sms' && m.status === 'pending')!;
    await ctx.t.db
      .updateTable('traveller_message')
      .set({ status: 'sending', claimed_until: ctx.t.clock.now + 1000, claim_token: 'dead' })
      .where('message_id', '=', row.message_id)
      .execute();
    const before = sent.length;
    await outbox.drain();
    ctx.t.clock.now += 2000;
    await outbox.drain();
    expect(sent.length).toBe(before);
    expect((await messages(id)).find((m) => m.message_id === row.message_id)).toMatchObject({
      status: 'failed',
      last_error: expect.stringContaining('未再发送'),
    });

    // The operator sees it all per order, with the reasons; the workbench carries the same list.
    await newSessions();
    const listed = await op.callContract(adminTravellerMessages, { user_order_id: id });
    expect(listed.body.ret).toBe(0);
    const list = listed.result!.list;
    expect(list.find((m) => m.status === 'failed' && m.reason === 'isv.MOBILE_NUMBER_ILLEGAL: 非法手机号')).toMatchObject({
      channel_label: '短信',
      status_label: '发送失败',
      template_label: '核对页待确认',
      to_address: mobile,
    });
    expect(list.find((m) => m.message_id === row.message_id)?.reason).toContain('未再发送');
    expect(list[0]!.text).toMatch(/^申请人\d+您好，您的签证申请表核对页已生成/);
    const bench = await op.callContract(adminOrderWorkbench, { user_order_id: id });
    expect(bench.result!.panels.traveller_messages?.list).toEqual(list);
    expect((await op.callContract(adminTravellerMessages, { user_order_id: 99_999_999 })).body.ret).toBe(ErrorCode.ORDER_NOT_FOUND);
  });
});

const noMailer = { send: async () => ({ delivered: 'outbox' as const, id: 'none' }), close() {} };
