// The interview notice through the real calls, on SQLite or PostgreSQL
// (TEST_DATABASE_URL): the operator publishes per applicant, the customer
// reads it and asks for another time, the operator accepts (the place moves,
// capacity kept by the database) or declines; the guards (wrong step, another
// enterprise, not the assignee, a stale version) and who is told.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminInterviewChangeAccept,
  adminInterviewChangeDecline,
  adminInterviewNoticePublish,
  adminInterviewPanel,
  interviewChangeRequest,
  interviewChangeSlots,
  interviewNoticeDetail,
} from '../../../common/contracts/interview-notice.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { seedCatalogue } from '../../db/seed/catalogue/index.ts';
import { createTestApp, type TestApp } from '../../test-support/test-app.ts';

/** Tuesday 1 December 2026, 10:00 in China. */
const T0 = Date.parse('2026-12-01T02:00:00Z');

let t: TestApp;
let product: number;

interface Customer {
  token: string;
  accountId: number;
}
type Op = Awaited<ReturnType<TestApp['operator']>>;

beforeAll(async () => {
  t = await createTestApp(undefined, { seed: (handle) => seedCatalogue(handle.db, T0) });
  t.clock.now = T0;
  const row = await t.db
    .selectFrom('visa_product')
    .innerJoin('visa_country', 'visa_country.visa_country_id', 'visa_product.visa_country_id')
    .select('visa_product.visa_product_id')
    .where('visa_country.iso_code', '=', 'US')
    .where('visa_product.need_interview', '=', 1)
    .where('visa_product.consular_district_id', 'is not', null)
    .where('visa_product.status', '=', 0)
    .where('visa_product.channel', '=', 0)
    .where('visa_product.offline', '=', 1)
    .orderBy('visa_product.visa_product_id')
    .executeTakeFirstOrThrow();
  product = row.visa_product_id;
});
afterAll(async () => {
  await t?.close();
});

async function customer(): Promise<Customer> {
  const created = await t.createAccount();
  return { token: await t.login(created.account, created.password), accountId: created.accountId };
}

/**
 * An order of two applicants with their times chosen, put straight into step
 * `interview` and assigned to `op` (the earlier stages are not under test here).
 */
async function interviewOrder(who: Customer, op: Op | null, options: { step?: boolean } = {}) {
  t.clock.now = T0;
  const created = await t.call(
    '/www/order/order_create',
    {
      visa_product_id: product,
      consular_district_id: null,
      departure_date: '2027-01-10',
      applicants: [
        { name: '面签甲', identity_id: 0, mobile_phone: '13900139001' },
        { name: '面签乙', identity_id: 0, mobile_phone: '13900139002' },
      ],
    },
    { token: who.token },
  );
  expect(created.body.ret, created.body.msg).toBe(0);
  const id = created.body.body.user_order_id as number;
  const list = await t.call('/www/order/interview_slot_list', { user_order_id: id }, { token: who.token });
  // The first time with two places left (every test order takes two).
  const dates = list.body.body.dates as Array<{ date: string; slots: Array<{ interview_slot_id: number; remaining: number }> }>;
  const day = dates.map((d) => ({ date: d.date, slots: d.slots.filter((s) => s.remaining >= 2) })).find((d) => d.slots.length > 0)!;
  const applicants = list.body.body.applicants as Array<{ applicant_id: number }>;
  const chosen = await t.call(
    '/www/order/interview_time_choose',
    { user_order_id: id, choices: applicants.map((a) => ({ applicant_id: a.applicant_id, interview_slot_id: day.slots[0]!.interview_slot_id })) },
    { token: who.token },
  );
  expect(chosen.body.ret, chosen.body.msg).toBe(0);
  if (options.step !== false) {
    await t.db
      .updateTable('user_order')
      .set((eb) => ({
        status: 'processing',
        step: 'interview',
        paid_at: T0,
        expires_at: null,
        assignee_operator_id: op?.operatorId ?? null,
        version: eb('version', '+', 1),
      }))
      .where('user_order_id', '=', id)
      .execute();
  }
  return { id, applicants: applicants.map((a) => a.applicant_id), slotId: day.slots[0]!.interview_slot_id, day: day.date };
}

async function panel(op: Op, id: number) {
  const answer = await op.callContract(adminInterviewPanel, { user_order_id: id });
  expect(answer.body.ret, answer.body.msg).toBe(0);
  return answer.result!;
}

async function publish(op: Op, id: number, applicantId: number, change: Record<string, unknown> = {}) {
  const bench = await panel(op, id);
  const form = (bench.applicants.find((a) => a.applicant_id === applicantId) ?? bench.applicants[0]!).form;
  return op.callContract(adminInterviewNoticePublish, { ...form, user_order_id: id, applicant_id: applicantId, version: bench.version, ...change });
}

async function slot(id: number) {
  return t.db.selectFrom('interview_slot').selectAll().where('interview_slot_id', '=', id).executeTakeFirstOrThrow();
}

async function noticesOf(kind: 'customer' | 'operator', recipientId: number, userOrderId: number) {
  const rows = await t.db
    .selectFrom('notice')
    .select(['kind', 'link'])
    .where('recipient_kind', '=', kind)
    .where('recipient_id', '=', recipientId)
    .where('user_order_id', '=', userOrderId)
    .orderBy('notice_id')
    .execute();
  return rows;
}

describe(`interview notice (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('refuses the wrong step, another enterprise, another operator and a stale version', async () => {
    const alice = await customer();
    const bob = await customer();
    const op = await t.operator();
    const other = await t.operator();

    const draft = await interviewOrder(alice, op, { step: false });
    expect((await publish(op, draft.id, draft.applicants[0]!)).body.ret).toBe(ErrorCode.ORDER_STATE_INVALID);
    const early = await t.callContract(
      interviewChangeRequest,
      { user_order_id: draft.id, applicant_id: draft.applicants[0]!, interview_slot_id: draft.slotId },
      { token: alice.token },
    );
    expect(early.body.ret).toBe(ErrorCode.ORDER_STATE_INVALID);

    const order = await interviewOrder(alice, op);
    expect((await t.callContract(interviewNoticeDetail, { user_order_id: order.id }, { token: bob.token })).body.ret).toBe(ErrorCode.ORDER_NOT_FOUND);
    const bobAsks = await t.callContract(
      interviewChangeRequest,
      { user_order_id: order.id, applicant_id: order.applicants[0]!, interview_slot_id: draft.slotId },
      { token: bob.token },
    );
    expect(bobAsks.body.ret).toBe(ErrorCode.ORDER_NOT_FOUND);
    expect((await publish(other, order.id, order.applicants[0]!)).body.ret).toBe(ErrorCode.INTERVIEW_NOTICE_NOT_ASSIGNEE);
    expect((await publish(op, order.id, order.applicants[0]!, { version: 0 })).body.ret).toBe(ErrorCode.INTERVIEW_NOTICE_STALE);
    expect((await publish(op, order.id, draft.applicants[0]!)).body.ret).toBe(ErrorCode.INTERVIEW_NOTICE_APPLICANT_NOT_FOUND);
    expect((await publish(op, order.id, order.applicants[0]!, { interview_date: '2027-01-10' })).body.ret).toBe(ErrorCode.INTERVIEW_NOTICE_INVALID);
    expect((await publish(op, order.id, order.applicants[0]!, { end_time: '08:00' })).body.ret).toBe(ErrorCode.INTERVIEW_NOTICE_INVALID);
    expect((await publish(op, order.id, order.applicants[0]!, { materials: [] })).body.ret).toBe(ErrorCode.INVALID_PARAMS);
    // A customer's token on the back office's call, and nothing was written by any refusal.
    expect((await t.callContract(adminInterviewPanel, { user_order_id: order.id }, { token: alice.token })).body.ret).toBe(ErrorCode.NOT_LOGGED_IN);
    expect(await t.db.selectFrom('interview_notice').select('applicant_id').where('user_order_id', '=', order.id).execute()).toEqual([]);
  });

  it('publishes with the chosen time as default; the customer reads it and is told', async () => {
    const alice = await customer();
    const op = await t.operator();
    const order = await interviewOrder(alice, op);
    const bench = await panel(op, order.id);
    expect(bench.can_act).toBe(true);
    const first = bench.applicants[0]!;
    expect(first.published).toBe(false);
    expect(first.form).toMatchObject({ interview_date: order.day, start_time: first.chosen!.start_time });
    expect(first.form.materials[0]).toBe('护照原件');

    const published = await publish(op, order.id, order.applicants[0]!, { start_time: '09:30', end_time: '10:00', materials: ['护照原件', '照片两张'] });
    expect(published.body.ret, published.body.msg).toBe(0);
    expect(published.result!.version).toBe(bench.version + 1);

    const detail = (await t.callContract(interviewNoticeDetail, { user_order_id: order.id }, { token: alice.token })).result!;
    expect(detail.in_interview_step).toBe(true);
    expect(detail.video.url).toBe('/media/interview-guide.webm');
    expect(detail.applicants[0]!.notice).toMatchObject({ interview_date: order.day, start_time: '09:30', materials: ['护照原件', '照片两张'] });
    expect(detail.applicants[1]!.notice).toBeNull();
    expect(await noticesOf('customer', alice.accountId, order.id)).toEqual([
      { kind: 'interview_notice_publish', link: `/order/order-interview-notification/${order.id}` },
    ]);
    // Republishing replaces the notice (one per applicant).
    expect((await publish(op, order.id, order.applicants[0]!, { attention: '请提前到达' })).body.ret).toBe(0);
    const rows = await t.db.selectFrom('interview_notice').select(['attention', 'start_time']).where('user_order_id', '=', order.id).execute();
    expect(rows).toEqual([{ attention: '请提前到达', start_time: '09:30' }]);
  });

  it('a change request: a free slot under the booking rules; accept moves the place with the capacity kept', async () => {
    const alice = await customer();
    const op = await t.operator();
    const order = await interviewOrder(alice, op);
    const [a1, a2] = order.applicants as [number, number];
    const slots = (await t.callContract(interviewChangeSlots, { user_order_id: order.id }, { token: alice.token })).result!;
    const target = slots.dates[4]!.slots[1]!;
    const ask = (applicantId: number, slotId: number) =>
      t.callContract(
        interviewChangeRequest,
        { user_order_id: order.id, applicant_id: applicantId, interview_slot_id: slotId, reason: '行程有变' },
        { token: alice.token },
      );

    expect((await ask(a1, target.interview_slot_id)).body.ret).toBe(ErrorCode.INTERVIEW_NOTICE_NOT_PUBLISHED);
    expect((await publish(op, order.id, a1)).body.ret).toBe(0);
    expect((await ask(a1, order.slotId)).body.ret).toBe(ErrorCode.INTERVIEW_CHANGE_SAME_TIME);
    expect((await ask(a1, 99_999_999)).body.ret).toBe(ErrorCode.INTERVIEW_SLOT_NOT_FOUND);

    const asked = await ask(a1, target.interview_slot_id);
    expect(asked.body.ret, asked.body.msg).toBe(0);
    expect((await ask(a1, slots.dates[5]!.slots[0]!.interview_slot_id)).body.ret).toBe(ErrorCode.INTERVIEW_CHANGE_ALREADY_OPEN);
    expect(await noticesOf('operator', op.operatorId, order.id)).toEqual([{ kind: 'interview_change_request', link: `/admin/orders/${order.id}` }]);

    // The new slot is full at accept time: refused, nothing moves.
    const before = { from: await slot(order.slotId), to: await slot(target.interview_slot_id) };
    await t.db.updateTable('interview_slot').set({ booked: before.to.capacity }).where('interview_slot_id', '=', target.interview_slot_id).execute();
    let bench = await panel(op, order.id);
    expect(bench.applicants[0]!.open_request).toMatchObject({ change_request_id: asked.result!.change_request_id, to_full: true });
    const full = await op.callContract(adminInterviewChangeAccept, {
      user_order_id: order.id,
      change_request_id: asked.result!.change_request_id,
      version: bench.version,
    });
    expect(full.body.ret).toBe(ErrorCode.INTERVIEW_CHANGE_SLOT_FULL);
    expect((await slot(order.slotId)).booked).toBe(before.from.booked);
    await t.db.updateTable('interview_slot').set({ booked: before.to.booked }).where('interview_slot_id', '=', target.interview_slot_id).execute();

    // Stale version, then the accept itself.
    const stale = await op.callContract(adminInterviewChangeAccept, {
      user_order_id: order.id,
      change_request_id: asked.result!.change_request_id,
      version: bench.version - 1,
    });
    expect(stale.body.ret).toBe(ErrorCode.INTERVIEW_NOTICE_STALE);
    bench = await panel(op, order.id);
    const accepted = await op.callContract(adminInterviewChangeAccept, {
      user_order_id: order.id,
      change_request_id: asked.result!.change_request_id,
      version: bench.version,
    });
    expect(accepted.body.ret, accepted.body.msg).toBe(0);
    expect((await slot(order.slotId)).booked).toBe(before.from.booked - 1);
    expect((await slot(target.interview_slot_id)).booked).toBe(before.to.booked + 1);
    const moved = await t.db
      .selectFrom('order_applicant')
      .select(['applicant_id', 'interview_slot_id'])
      .where('user_order_id', '=', order.id)
      .orderBy('sort')
      .execute();
    expect(moved).toEqual([
      { applicant_id: a1, interview_slot_id: target.interview_slot_id },
      { applicant_id: a2, interview_slot_id: order.slotId },
    ]);
    const detail = (await t.callContract(interviewNoticeDetail, { user_order_id: order.id }, { token: alice.token })).result!;
    expect(detail.applicants[0]!.notice).toMatchObject({ interview_date: slots.dates[4]!.date, start_time: target.start_time });
    expect(detail.applicants[0]!.change_request).toMatchObject({ status: 'accepted' });
    expect((await noticesOf('customer', alice.accountId, order.id)).map((n) => n.kind)).toEqual(['interview_notice_publish', 'interview_change_accept']);
    // Accepting it again: it is no longer open.
    const again = await op.callContract(adminInterviewChangeAccept, {
      user_order_id: order.id,
      change_request_id: asked.result!.change_request_id,
      version: accepted.result!.version,
    });
    expect(again.body.ret).toBe(ErrorCode.INTERVIEW_CHANGE_NOT_FOUND);
  });

  it('names the place the product names: its visa centre, not the consulate, on the notice, the notice form and the order detail', async () => {
    const who = await customer();
    const op = await t.operator();
    const district = await t.db
      .selectFrom('visa_product')
      .innerJoin('consular_district', 'consular_district.consular_district_id', 'visa_product.consular_district_id')
      .innerJoin('visa_country', 'visa_country.visa_country_id', 'visa_product.visa_country_id')
      .select(['consular_district.consulate_name', 'consular_district.city', 'visa_country.name as country'])
      .where('visa_product.visa_product_id', '=', product)
      .executeTakeFirstOrThrow();
    const words = await t.db
      .selectFrom('visa_product_basic_info')
      .select(['id', 'content'])
      .where('visa_product_id', '=', product)
      .where('title', '=', '是否面试')
      .executeTakeFirstOrThrow();
    // The consulate until the product says otherwise.
    const before = await interviewOrder(who, op);
    const consulate = await t.call('/www/order/interview_notice_detail', { user_order_id: before.id }, { token: who.token });
    expect(consulate.body.body.consulate).toMatchObject({ name: district.consulate_name, place_kind: 'consulate' });

    await t.db.updateTable('visa_product_basic_info').set({ content: '需本人前往签证中心录入指纹' }).where('id', '=', words.id).execute();
    try {
      const { id } = await interviewOrder(who, op);
      const centre = `${district.country}签证申请中心（${district.city}）`;
      const detail = await t.call('/www/order/interview_notice_detail', { user_order_id: id }, { token: who.token });
      expect(detail.body.body.consulate).toMatchObject({ name: centre, place_kind: 'visa_centre' });
      expect(detail.body.body.video.title).toBe(`${centre}面试/录指纹指引`);
      // The operator's form starts from the visa centre, its texts too.
      const form = (await panel(op, id)).applicants[0]!.form;
      expect(form.consulate_name).toBe(centre);
      expect(form.process).toContain('到达签证中心');
      expect(form.process).not.toContain('领馆');
      // The order detail's interview times name it as well.
      const order = await t.call('/www/order/order_detail_get', { user_order_id: id }, { token: who.token });
      for (const applicant of order.body.body.applicants) expect(applicant.interview.consulate_name).toBe(centre);
      // Published as the form says, the customer reads the visa centre.
      expect((await publish(op, id, (await panel(op, id)).applicants[0]!.applicant_id)).body.ret).toBe(0);
      const published = await t.call('/www/order/interview_notice_detail', { user_order_id: id }, { token: who.token });
      expect(published.body.body.applicants[0].notice.consulate_name).toBe(centre);
    } finally {
      await t.db.updateTable('visa_product_basic_info').set({ content: words.content }).where('id', '=', words.id).execute();
    }
  });

  it('decline keeps the time and tells the customer why', async () => {
    const alice = await customer();
    const op = await t.operator();
    const boss = await t.operator({ role: 'supervisor' });
    const order = await interviewOrder(alice, op);
    const a1 = order.applicants[0]!;
    expect((await publish(op, order.id, a1)).body.ret).toBe(0);
    const slots = (await t.callContract(interviewChangeSlots, { user_order_id: order.id }, { token: alice.token })).result!;
    const target = slots.dates[3]!.slots[0]!;
    const asked = await t.callContract(
      interviewChangeRequest,
      { user_order_id: order.id, applicant_id: a1, interview_slot_id: target.interview_slot_id },
      { token: alice.token },
    );
    expect(asked.body.ret).toBe(0);
    const before = (await slot(target.interview_slot_id)).booked;
    // A supervisor may act on any order.
    const bench = await panel(boss, order.id);
    const declined = await boss.callContract(adminInterviewChangeDecline, {
      user_order_id: order.id,
      change_request_id: asked.result!.change_request_id,
      version: bench.version,
      reason: '该日领馆已满',
    });
    expect(declined.body.ret, declined.body.msg).toBe(0);
    expect((await slot(target.interview_slot_id)).booked).toBe(before);
    const detail = (await t.callContract(interviewNoticeDetail, { user_order_id: order.id }, { token: alice.token })).result!;
    expect(detail.applicants[0]!.chosen!.interview_slot_id).toBe(order.slotId);
    expect(detail.applicants[0]!.change_request).toMatchObject({ status: 'declined', decline_reason: '该日领馆已满' });
    expect((await noticesOf('customer', alice.accountId, order.id)).map((n) => n.kind)).toEqual(['interview_notice_publish', 'interview_change_decline']);
    // Once declined, the customer may ask again.
    const again = await t.callContract(
      interviewChangeRequest,
      { user_order_id: order.id, applicant_id: a1, interview_slot_id: target.interview_slot_id },
      { token: alice.token },
    );
    expect(again.body.ret).toBe(0);
  });
});
