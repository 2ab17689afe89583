// The confirm step through the signed API, on SQLite or PostgreSQL
// (TEST_DATABASE_URL): each guard, ownership, the snapshots, the totals, and
// two concurrent confirms of one order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InsuranceSnapshot, ReturnAddressSnapshot } from '../../../common/contracts/order.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { bookInterviews, completeMaterials } from '../../test-support/fixtures/confirm.ts';
import { missingMaterialsMessage } from './confirm.ts';
import { applicant, HOUR, newCustomer, type OrderTestContext, orderTestContext, T0, TODAY } from '../../test-support/fixtures/order.ts';
import type { Customer } from '../../platform/principal.ts';
import { toJson } from '../../db/json.ts';

let ctx: OrderTestContext;
let alice: Customer & { token: string };
let bob: Customer & { token: string };
let aliceAddressId: number;
let alicePeerAddressId: number;
let bobAddressId: number;
let plans: Array<{ insurance_plan_id: number; price_per_day: number; min_days: number; max_days: number; name: string }>;
/** An orderable product that needs an interview, with its own consular district. */
let interviewProductId: number;

const DEPARTURE = '2026-12-28';
const SHENZHEN = { province_code: '440000', city_code: '440300', county_code: '440305' };

async function customer() {
  const created = await newCustomer(ctx.t);
  return { ...created, token: await ctx.t.login(created.account, created.password) };
}

async function addAddress(token: string, extra: Record<string, unknown> = {}): Promise<number> {
  const result = await ctx.t.call(
    '/www/address/address_save',
    { kind: 'return', name: '王敏', mobile_phone: '13800138000', ...SHENZHEN, detail: '科技园深南大道 10000 号', ...extra },
    { token },
  );
  expect(result.body.ret).toBe(0);
  return result.body.body.address_id as number;
}

/** A draft of `who` with `count` applicants, its materials complete unless told otherwise. */
async function draft(who: Customer, options: { count?: number; complete?: boolean; productId?: number } = {}): Promise<number> {
  const { user_order_id } = await ctx.service.create(who, {
    visa_product_id: options.productId ?? ctx.products.plain.visa_product_id,
    departure_date: DEPARTURE,
    applicants: Array.from({ length: options.count ?? 2 }, (_, i) => applicant(i + 1)),
  });
  if (options.complete !== false) await completeMaterials(ctx.t.db, user_order_id, who.accountId);
  return user_order_id;
}

async function applicantIds(userOrderId: number): Promise<number[]> {
  const rows = await ctx.t.db.selectFrom('order_applicant').select('applicant_id').where('user_order_id', '=', userOrderId).orderBy('sort').execute();
  return rows.map((row) => row.applicant_id);
}

function confirm(token: string, payload: Record<string, unknown>) {
  return ctx.t.call('/www/order/order_confirm', payload, { token });
}

async function withPlan(userOrderId: number, extra: Record<string, unknown> = {}) {
  return {
    user_order_id: userOrderId,
    address_id: aliceAddressId,
    insurance_plan_id: plans[0]!.insurance_plan_id,
    insurance_days: 10,
    insured_applicant_ids: await applicantIds(userOrderId),
    protocol_agreed: true,
    ...extra,
  };
}

async function orderRow(userOrderId: number) {
  return ctx.t.db.selectFrom('user_order').selectAll().where('user_order_id', '=', userOrderId).executeTakeFirstOrThrow();
}

async function confirmEvents(userOrderId: number) {
  return ctx.t.db.selectFrom('order_event').selectAll().where('user_order_id', '=', userOrderId).where('event', '=', 'confirm').execute();
}

beforeAll(async () => {
  ctx = await orderTestContext();
  alice = await customer();
  bob = await customer();
  aliceAddressId = await addAddress(alice.token);
  alicePeerAddressId = await addAddress(alice.token, { kind: 'peer', company_name: '北京环球旅行社', name: '赵六', detail: '建国路 88 号' });
  bobAddressId = await addAddress(bob.token);
  const list = await ctx.t.call('/www/order/insurance_plan_list', { user_order_id: await draft(alice) }, { token: alice.token });
  plans = list.body.body.plans;
  const product = ctx.products.interview;
  interviewProductId = product.visa_product_id;
});
afterAll(async () => {
  await ctx?.close();
});

describe(`order confirm (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('confirms with insurance: pending_payment, snapshots, insured flags, totals, the event; the expiry does not move', async () => {
    const id = await draft(alice, { count: 3 });
    const before = await orderRow(id);
    const [first, second, third] = await applicantIds(id);
    ctx.t.clock.now = T0 + HOUR;
    const plan = plans[1]!;
    const result = await confirm(
      alice.token,
      await withPlan(id, { insurance_plan_id: plan.insurance_plan_id, insurance_days: 12, insured_applicant_ids: [first, third, first] }),
    );
    ctx.t.clock.now = T0;
    expect(result.body.ret).toBe(0);
    const insuranceAmount = plan.price_per_day * 12 * 2;
    expect(result.body.body).toEqual({
      user_order_id: id,
      status: 'pending_payment',
      product_amount: before.product_amount,
      insurance_amount: insuranceAmount,
      discount_amount: 0,
      total_amount: before.product_amount + insuranceAmount,
      expires_at: before.expires_at,
    });

    const after = await orderRow(id);
    expect(after).toMatchObject({
      status: 'pending_payment',
      insurance_plan_id: plan.insurance_plan_id,
      insurance_amount: insuranceAmount,
      total_amount: before.product_amount + insuranceAmount,
      confirmed_at: T0 + HOUR,
      expires_at: before.expires_at,
      version: before.version + 1,
    });
    const insurance = JSON.parse(after.insurance_snapshot!) as InsuranceSnapshot;
    expect(insurance).toMatchObject({
      insurance_plan_id: plan.insurance_plan_id,
      name: plan.name,
      price_per_day: plan.price_per_day,
      days: 12,
      start_date: DEPARTURE,
      end_date: '2027-01-08',
      insured_count: 2,
      amount: insuranceAmount,
    });
    expect(insurance.items.length).toBeGreaterThan(0);
    const address = JSON.parse(after.return_address!) as ReturnAddressSnapshot;
    expect(address).toEqual({
      address_id: aliceAddressId,
      kind: 'return',
      company_name: null,
      name: '王敏',
      mobile_phone: '13800138000',
      ...SHENZHEN,
      province_name: '广东省',
      city_name: '深圳市',
      county_name: '南山区',
      detail: '科技园深南大道 10000 号',
    });
    const flags = await ctx.t.db.selectFrom('order_applicant').select(['applicant_id', 'insured']).where('user_order_id', '=', id).execute();
    expect(Object.fromEntries(flags.map((row) => [row.applicant_id, row.insured]))).toEqual({ [first!]: 1, [second!]: 0, [third!]: 1 });

    const events = await confirmEvents(id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actor: 'customer',
      actor_id: alice.accountId,
      from_status: 'draft',
      to_status: 'pending_payment',
      created_at: T0 + HOUR,
    });
    expect(JSON.parse(events[0]!.detail!)).toMatchObject({
      product_amount: before.product_amount,
      insurance_amount: insuranceAmount,
      discount_amount: 0,
      total_amount: after.total_amount,
      insured_count: 2,
    });

    // The order detail shows what was chosen, and where the customer goes next.
    const detail = await ctx.t.call('/www/order/order_detail_get', { user_order_id: id }, { token: alice.token });
    expect(detail.body.body).toMatchObject({
      status: 'pending_payment',
      ordering_step: 'pay',
      insurance: { days: 12 },
      return_address: { city_name: '深圳市' },
      total_amount: after.total_amount,
    });
  });

  it('confirms without insurance: the total is the product amount, nobody is insured', async () => {
    const id = await draft(alice);
    const before = await orderRow(id);
    const result = await confirm(alice.token, {
      user_order_id: id,
      address_id: alicePeerAddressId,
      insurance_plan_id: null,
      insured_applicant_ids: await applicantIds(id),
    });
    expect(result.body.ret).toBe(0);
    expect(result.body.body).toMatchObject({ insurance_amount: 0, total_amount: before.product_amount });
    const after = await orderRow(id);
    expect(after).toMatchObject({ insurance_plan_id: null, insurance_snapshot: null, insurance_amount: 0 });
    // A peer address is a valid return address: the passports go to the partner agency.
    expect(JSON.parse(after.return_address!)).toMatchObject({ kind: 'peer', company_name: '北京环球旅行社' });
    const flags = await ctx.t.db.selectFrom('order_applicant').select('insured').where('user_order_id', '=', id).execute();
    expect(flags.every((row) => row.insured === 0)).toBe(true);
  });

  it('takes the discount off the total', async () => {
    const id = await draft(alice, { count: 1 });
    await ctx.t.db.updateTable('user_order').set({ discount_amount: 500 }).where('user_order_id', '=', id).execute();
    const before = await orderRow(id);
    const result = await confirm(alice.token, await withPlan(id, { insurance_days: 3 }));
    expect(result.body.body.total_amount).toBe(before.product_amount + plans[0]!.price_per_day * 3 - 500);
  });

  it("answers another enterprise's order exactly like a missing one, and writes nothing", async () => {
    const id = await draft(alice);
    const foreign = await confirm(bob.token, { user_order_id: id, address_id: bobAddressId, insurance_plan_id: null });
    const missing = await confirm(bob.token, { user_order_id: 99_999_999, address_id: bobAddressId, insurance_plan_id: null });
    expect(foreign.body.ret).toBe(ErrorCode.ORDER_NOT_FOUND);
    expect(foreign.status).toBe(missing.status);
    expect(foreign.body).toEqual(missing.body);
    expect((await orderRow(id)).status).toBe('draft');
    const plansForeign = await ctx.t.call('/www/order/insurance_plan_list', { user_order_id: id }, { token: bob.token });
    expect(plansForeign.body.ret).toBe(ErrorCode.ORDER_NOT_FOUND);
  });

  it("refuses another enterprise's address or a missing one (1861)", async () => {
    const id = await draft(alice);
    for (const addressId of [bobAddressId, 99_999_999]) {
      const result = await confirm(alice.token, { user_order_id: id, address_id: addressId, insurance_plan_id: null });
      expect(result.body).toMatchObject({ ret: ErrorCode.ADDRESS_NOT_FOUND, msg: '回寄地址不存在，请重新选择' });
    }
    expect((await orderRow(id)).status).toBe('draft');
  });

  it('refuses a second confirm (1871), a cancelled order (1815), an expired one (1815) and a paid one (1871)', async () => {
    const confirmed = await draft(alice);
    expect((await confirm(alice.token, await withPlan(confirmed))).body.ret).toBe(0);
    const again = await confirm(alice.token, await withPlan(confirmed, { insurance_plan_id: plans[2]!.insurance_plan_id }));
    expect(again.body).toMatchObject({ ret: ErrorCode.ORDER_ALREADY_CONFIRMED, msg: '订单已确认，请直接支付' });
    expect((await orderRow(confirmed)).insurance_plan_id).toBe(plans[0]!.insurance_plan_id);

    const cancelled = await draft(alice);
    await ctx.service.cancel(alice, cancelled);
    expect((await confirm(alice.token, await withPlan(cancelled))).body.ret).toBe(ErrorCode.ORDER_ALREADY_CANCELLED);

    // Due for expiry but not swept yet (moving the clock 24 h would end the session too).
    const expiring = await draft(alice);
    await ctx.t.db
      .updateTable('user_order')
      .set({ expires_at: T0 - 1 })
      .where('user_order_id', '=', expiring)
      .execute();
    expect((await confirm(alice.token, await withPlan(expiring))).body.ret).toBe(ErrorCode.ORDER_ALREADY_CANCELLED);
    expect((await orderRow(expiring)).status).toBe('cancelled');

    const paid = await draft(alice);
    await ctx.t.db.updateTable('user_order').set({ status: 'processing', step: 'material_review' }).where('user_order_id', '=', paid).execute();
    expect((await confirm(alice.token, await withPlan(paid))).body).toMatchObject({ ret: ErrorCode.ORDER_ALREADY_CONFIRMED, msg: '订单已支付，无需再次确认' });
  });

  it('refuses a departure date that has passed (1872)', async () => {
    const id = await draft(alice);
    // As if the order had been created earlier and the day had come and gone.
    await ctx.t.db.updateTable('user_order').set({ departure_date: '2026-11-30' }).where('user_order_id', '=', id).execute();
    expect((await confirm(alice.token, await withPlan(id))).body.ret).toBe(ErrorCode.ORDER_CONFIRM_DEPARTURE_PAST);
    await ctx.t.db.updateTable('user_order').set({ departure_date: TODAY }).where('user_order_id', '=', id).execute();
    expect((await confirm(alice.token, await withPlan(id))).body.ret).toBe(0);
  });

  it('refuses missing materials (1873), naming the applicant and what is missing', async () => {
    const id = await draft(alice, { complete: false });
    const result = await confirm(alice.token, await withPlan(id));
    expect(result.body.ret).toBe(ErrorCode.ORDER_MATERIALS_INCOMPLETE);
    expect(result.body.msg).toMatch(/^资料尚未上传完整：申请人1（.*护照首页扫描件.*签证照片）；申请人2（/);
    await completeMaterials(ctx.t.db, id, alice.accountId);
    // One file deleted again: that one is named.
    const photo = await ctx.t.db
      .selectFrom('order_material_file')
      .select('file_id')
      .where('user_order_id', '=', id)
      .where('kind', '=', 'photo')
      .orderBy('file_id', 'desc')
      .executeTakeFirstOrThrow();
    await ctx.t.db.deleteFrom('order_material_file').where('file_id', '=', photo.file_id).execute();
    expect((await confirm(alice.token, await withPlan(id))).body.msg).toBe('资料尚未上传完整：申请人2（签证照片）');
    expect(await confirmEvents(id)).toHaveLength(0);
  });

  it('names at most three applicants in the missing-materials message', () => {
    const missing = [1, 2, 3, 4, 5].map((n) => ({ applicant_id: n, applicant_name: `A${n}`, material_id: null, name: '签证照片' }));
    expect(missingMaterialsMessage(missing)).toBe('资料尚未上传完整：A1（签证照片）；A2（签证照片）；A3（签证照片）等 5 位申请人');
  });

  it('needs an interview time for every applicant when the product needs one (1874)', async () => {
    const id = await draft(alice, { productId: interviewProductId });
    const without = await confirm(alice.token, await withPlan(id));
    expect(without.body).toMatchObject({ ret: ErrorCode.ORDER_INTERVIEW_NOT_CHOSEN, msg: '请为申请人申请人1、申请人2选择面试时间' });
    await bookInterviews(ctx.t.db, id, '2026-11-30');
    expect((await confirm(alice.token, await withPlan(id))).body).toMatchObject({
      ret: ErrorCode.ORDER_INTERVIEW_NOT_CHOSEN,
      msg: '申请人申请人1、申请人2的面试时间已过，请重新选择',
    });
    await bookInterviews(ctx.t.db, id, '2026-12-10');
    expect((await confirm(alice.token, await withPlan(id))).body.ret).toBe(0);
  });

  it('refuses an interview time on or after a departure date that moved earlier (1874)', async () => {
    const id = await draft(alice, { productId: interviewProductId });
    await bookInterviews(ctx.t.db, id, '2026-12-10');
    await ctx.service.changeDepartureDate(alice, id, '2026-12-10');
    expect((await confirm(alice.token, await withPlan(id))).body).toMatchObject({
      ret: ErrorCode.ORDER_INTERVIEW_NOT_CHOSEN,
      msg: '申请人申请人1、申请人2的面试时间不早于出发日期，请重新选择',
    });
  });

  it('checks the plan, the days, the insured applicants and the protocol (1875–1878), and writes nothing', async () => {
    const id = await draft(alice);
    const other = await draft(alice, { count: 1 });
    const [otherApplicant] = await applicantIds(other);
    const longPlan = plans.find((plan) => plan.min_days > 1)!;
    const before = await orderRow(id);
    const cases: Array<[Record<string, unknown>, number, string?]> = [
      [{ insurance_plan_id: 99_999 }, ErrorCode.INSURANCE_PLAN_NOT_FOUND],
      [{ insurance_days: 0 }, ErrorCode.INSURANCE_DAYS_INVALID],
      [{ insurance_days: 181 }, ErrorCode.INSURANCE_DAYS_INVALID, '保险天数须在 1–180 天之间'],
      [{ insurance_days: 2.5 }, ErrorCode.INSURANCE_DAYS_INVALID],
      [{ insurance_days: null }, ErrorCode.INSURANCE_DAYS_INVALID],
      [{ insurance_plan_id: longPlan.insurance_plan_id, insurance_days: longPlan.min_days - 1 }, ErrorCode.INSURANCE_DAYS_INVALID],
      [{ insured_applicant_ids: [] }, ErrorCode.INSURANCE_INSURED_INVALID, '请选择被保险人'],
      [{ insured_applicant_ids: [otherApplicant] }, ErrorCode.INSURANCE_INSURED_INVALID, '被保险人须为本订单的申请人'],
      [{ protocol_agreed: false }, ErrorCode.INSURANCE_PROTOCOL_NOT_AGREED],
      [{ protocol_agreed: undefined }, ErrorCode.INSURANCE_PROTOCOL_NOT_AGREED],
      [{ insurance_plan_id: 'abc' }, ErrorCode.INVALID_PARAMS],
      [{ address_id: null }, ErrorCode.INVALID_PARAMS],
      [{ insured_applicant_ids: 'all' }, ErrorCode.INVALID_PARAMS],
    ];
    for (const [extra, ret, msg] of cases) {
      const result = await confirm(alice.token, await withPlan(id, extra));
      expect(result.status, JSON.stringify(extra)).toBe(200);
      expect(result.body.ret, JSON.stringify(extra)).toBe(ret);
      if (msg) expect(result.body.msg).toBe(msg);
    }
    const after = await orderRow(id);
    expect(after).toMatchObject({ status: 'draft', version: before.version, insurance_snapshot: null, return_address: null, confirmed_at: null });
    expect(await confirmEvents(id)).toHaveLength(0);
  });

  it('refuses a withdrawn plan', async () => {
    const id = await draft(alice);
    const withdrawn = plans[3]!;
    await ctx.t.db.updateTable('insurance_plan').set({ status: 1 }).where('insurance_plan_id', '=', withdrawn.insurance_plan_id).execute();
    try {
      const result = await confirm(alice.token, await withPlan(id, { insurance_plan_id: withdrawn.insurance_plan_id, insurance_days: 40 }));
      expect(result.body.ret).toBe(ErrorCode.INSURANCE_PLAN_NOT_FOUND);
      const listed = await ctx.t.call('/www/order/insurance_plan_list', { user_order_id: id }, { token: alice.token });
      expect(listed.body.body.plans.map((plan: { insurance_plan_id: number }) => plan.insurance_plan_id)).not.toContain(withdrawn.insurance_plan_id);
    } finally {
      await ctx.t.db.updateTable('insurance_plan').set({ status: 0 }).where('insurance_plan_id', '=', withdrawn.insurance_plan_id).execute();
    }
  });

  it('keeps its snapshots when the address is edited or deleted and the plan repriced or withdrawn', async () => {
    const addressId = await addAddress(alice.token, { name: '快照', detail: '原来的地址 1 号' });
    const plan = plans[2]!;
    const id = await draft(alice);
    expect(
      (await confirm(alice.token, await withPlan(id, { address_id: addressId, insurance_plan_id: plan.insurance_plan_id, insurance_days: 5 }))).body.ret,
    ).toBe(0);
    const kept = await orderRow(id);

    await ctx.t.call(
      '/www/address/address_save',
      {
        address_id: addressId,
        kind: 'return',
        name: '改过',
        mobile_phone: '13900139000',
        province_code: '110000',
        city_code: '110100',
        county_code: '110101',
        detail: '新地址 2 号',
      },
      { token: alice.token },
    );
    await ctx.t.db
      .updateTable('insurance_plan')
      .set({ price_per_day: 99_999, name: '改名', items: toJson([]) })
      .where('insurance_plan_id', '=', plan.insurance_plan_id)
      .execute();
    try {
      const detail = await ctx.t.call('/www/order/order_detail_get', { user_order_id: id }, { token: alice.token });
      expect(detail.body.body.return_address).toMatchObject({ name: '快照', city_name: '深圳市', detail: '原来的地址 1 号' });
      expect(detail.body.body.insurance).toMatchObject({ name: plan.name, price_per_day: plan.price_per_day, days: 5 });
      expect(detail.body.body.insurance.items.length).toBeGreaterThan(0);
      await ctx.t.call('/www/address/address_delete', { address_id: addressId }, { token: alice.token });
      await ctx.t.db.updateTable('insurance_plan').set({ status: 1 }).where('insurance_plan_id', '=', plan.insurance_plan_id).execute();
      const after = await orderRow(id);
      expect(after.return_address).toBe(kept.return_address);
      expect(after.insurance_snapshot).toBe(kept.insurance_snapshot);
      expect(after.total_amount).toBe(kept.total_amount);
    } finally {
      await ctx.t.db
        .updateTable('insurance_plan')
        .set({ status: 0, price_per_day: plan.price_per_day, name: plan.name, items: toJson(JSON.parse(kept.insurance_snapshot!).items) })
        .where('insurance_plan_id', '=', plan.insurance_plan_id)
        .execute();
    }
  });

  it('lets exactly one of two concurrent confirms win', async () => {
    const id = await draft(alice);
    const payloadA = await withPlan(id);
    const payloadB = await withPlan(id, { insurance_plan_id: plans[1]!.insurance_plan_id });
    const results = await Promise.all([confirm(alice.token, payloadA), confirm(alice.token, payloadB)]);
    const rets = results.map((result) => result.body.ret).sort();
    expect(rets).toEqual([0, ErrorCode.ORDER_ALREADY_CONFIRMED]);
    const winner = results.find((result) => result.body.ret === 0)!;
    const after = await orderRow(id);
    expect(after.total_amount).toBe(winner.body.body.total_amount);
    expect(await confirmEvents(id)).toHaveLength(1);
  });

  it('needs a session', async () => {
    const result = await ctx.t.call('/www/order/order_confirm', { user_order_id: 1, address_id: 1, insurance_plan_id: null });
    expect(result.status).toBe(401);
  });
});
