// The order detail's later-step fields (where a draft resumes, the snapshots,
// payments, interview times, files) and changing the departure date, on
// SQLite or PostgreSQL (TEST_DATABASE_URL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InsuranceSnapshot } from '../../../common/contracts/order.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { applicant, expectRefused, newCustomer, type OrderTestContext, orderTestContext, T0 } from '../../test-support/fixtures/order.ts';
import type { Customer } from '../../platform/principal.ts';
import { toJson } from '../../db/json.ts';

let ctx: OrderTestContext;
let alice: Customer;
let bob: Customer;

beforeAll(async () => {
  ctx = await orderTestContext();
  alice = await newCustomer(ctx.t);
  bob = await newCustomer(ctx.t);
});
afterAll(async () => {
  await ctx?.close();
});

async function draft(customer: Customer, productId = ctx.products.plain.visa_product_id, departure = '2026-12-28') {
  const { user_order_id } = await ctx.service.create(customer, {
    visa_product_id: productId,
    departure_date: departure,
    applicants: [applicant(0), applicant(1)],
  });
  return user_order_id;
}

/** Stores a file row for every missing material and photo, as the upload call would. */
async function completeMaterials(userOrderId: number, customer: Customer) {
  const detail = await ctx.service.detail(customer, userOrderId);
  let n = 0;
  for (const missing of detail.missing_materials) {
    n += 1;
    await ctx.t.db
      .insertInto('order_material_file')
      .values({
        user_order_id: userOrderId,
        applicant_id: missing.applicant_id,
        material_id: missing.material_id,
        kind: missing.material_id === null ? 'photo' : 'material',
        storage_key: `test/${userOrderId}/${n}`,
        file_name: 'scan.pdf',
        content_type: 'application/pdf',
        size_bytes: 1000,
        sha256: '0'.repeat(64),
        account_id: customer.accountId,
        created_at: T0,
      })
      .execute();
  }
}

describe(`order detail, later steps (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('a new draft resumes at the upload step and names every missing material per applicant', async () => {
    const id = await draft(alice);
    const detail = await ctx.service.detail(alice, id);
    expect(detail.ordering_step).toBe('upload');
    expect(detail.missing_materials.length).toBeGreaterThan(0);
    const applicantIds = new Set(detail.applicants.map((a) => a.applicant_id));
    for (const missing of detail.missing_materials) expect(applicantIds.has(missing.applicant_id)).toBe(true);
    expect(detail).toMatchObject({
      product_amount: detail.unit_price * 2,
      insurance_amount: 0,
      discount_amount: 0,
      insurance: null,
      return_address: null,
      payments: [],
      effect_date: null,
    });
    for (const a of detail.applicants) expect(a).toMatchObject({ insured: false, interview: null, material_file_count: 0 });
    // What the customer may do now, by the lifecycle's table: the page shows these actions only.
    expect(detail.allowed_events).toEqual(expect.arrayContaining(['material_upload', 'confirm', 'cancel', 'departure_date_update']));
    expect(detail.allowed_events).not.toContain('payment_create');
    expect(detail.allowed_events).not.toContain('material_review');
  });

  it('with materials complete it resumes at the interview step when the product needs one, and at confirm otherwise', async () => {
    const plainId = await draft(alice);
    await completeMaterials(plainId, alice);
    const plain = await ctx.service.detail(alice, plainId);
    expect(plain.missing_materials).toEqual([]);
    expect(plain.applicants.every((a) => a.material_file_count > 0)).toBe(true);
    expect(plain.ordering_step).toBe(plain.need_interview ? 'interview' : 'confirm');

    const interviewProduct = ctx.products.interview;
    const id = await draft(alice, interviewProduct.visa_product_id);
    await completeMaterials(id, alice);
    expect((await ctx.service.detail(alice, id)).ordering_step).toBe('interview');

    // A chosen slot shows on the applicant with its consulate.
    const order = await ctx.t.db.selectFrom('user_order').select('consular_district_id').where('user_order_id', '=', id).executeTakeFirstOrThrow();
    const slot = await ctx.t.db
      .insertInto('interview_slot')
      .values({ consular_district_id: order.consular_district_id!, slot_date: '2026-12-10', start_time: '09:00', end_time: '09:30', capacity: 5, booked: 2 })
      .returning('interview_slot_id')
      .executeTakeFirstOrThrow();
    await ctx.t.db.updateTable('order_applicant').set({ interview_slot_id: slot.interview_slot_id }).where('user_order_id', '=', id).execute();
    const detail = await ctx.service.detail(alice, id);
    expect(detail.ordering_step).toBe('confirm');
    expect(detail.applicants[0]!.interview).toMatchObject({ slot_date: '2026-12-10', start_time: '09:00', end_time: '09:30' });
    expect(detail.applicants[0]!.interview!.consulate_name.length).toBeGreaterThan(0);
  });

  it('a confirmed order shows its snapshots and payments, and resumes at paying', async () => {
    const id = await draft(alice);
    const insurance: InsuranceSnapshot = {
      insurance_plan_id: 1,
      name: '标准款',
      company: '某保险',
      items: [{ name: '境外医疗', amount: '30万' }],
      price_per_day: 500,
      days: 10,
      start_date: '2026-12-28',
      end_date: '2027-01-06',
      insured_count: 2,
      amount: 10_000,
    };
    await ctx.t.db
      .updateTable('user_order')
      .set({ status: 'pending_payment', insurance_snapshot: toJson(insurance), insurance_amount: 10_000, confirmed_at: T0 })
      .where('user_order_id', '=', id)
      .execute();
    await ctx.t.db
      .insertInto('payment')
      .values({
        user_order_id: id,
        out_trade_no: `T${id}`,
        provider: 'sandbox',
        channel: 'wechat',
        amount: 1,
        status: 'pending',
        code_url: 'http://x',
        account_id: alice.accountId,
        created_at: T0,
        expires_at: T0 + 900_000,
      })
      .execute();
    const detail = await ctx.service.detail(alice, id);
    expect(detail.ordering_step).toBe('pay');
    expect(detail.missing_materials).toEqual([]);
    expect(detail.insurance).toEqual(insurance);
    expect(detail.payments).toEqual([
      expect.objectContaining({ out_trade_no: `T${id}`, channel: 'wechat', channel_label: '微信支付', status: 'pending', status_label: '待支付' }),
    ]);
  });

  it('another enterprise reads nothing', async () => {
    const id = await draft(alice);
    await expectRefused(ctx.service.detail(bob, id), ErrorCode.ORDER_NOT_FOUND);
  });
});

describe('changing the departure date', () => {
  it('moves an unpaid order, shifts its insurance dates, and writes the audit row', async () => {
    const id = await draft(alice);
    const insurance = {
      insurance_plan_id: 1,
      name: 'x',
      company: 'y',
      items: [],
      price_per_day: 100,
      days: 5,
      start_date: '2026-12-28',
      end_date: '2027-01-01',
      insured_count: 1,
      amount: 500,
    };
    await ctx.t.db
      .updateTable('user_order')
      .set({ insurance_snapshot: toJson(insurance) })
      .where('user_order_id', '=', id)
      .execute();
    const result = await ctx.service.changeDepartureDate(alice, id, '2027-01-20');
    expect(result).toMatchObject({ user_order_id: id, departure_date: '2027-01-20' });
    const detail = await ctx.service.detail(alice, id);
    expect(detail.departure_date).toBe('2027-01-20');
    expect(detail.insurance).toMatchObject({ start_date: '2027-01-20', end_date: '2027-01-24', days: 5, amount: 500 });
    expect(detail.events.at(-1)).toMatchObject({ event: 'departure_date_update', event_label: '修改出发日期', actor: 'customer' });
  });

  it('drops an effect date that would fall after the new departure date', async () => {
    const id = await draft(alice);
    await ctx.t.db.updateTable('user_order').set({ effect_date: '2026-12-20' }).where('user_order_id', '=', id).execute();
    await ctx.service.changeDepartureDate(alice, id, '2026-12-25');
    expect((await ctx.service.detail(alice, id)).effect_date).toBe('2026-12-20');
    await ctx.service.changeDepartureDate(alice, id, '2026-12-15');
    expect((await ctx.service.detail(alice, id)).effect_date).toBeNull();
  });

  it('clears "departure date past" once a new date is chosen', async () => {
    const id = await draft(alice);
    // Paid and in review (an unpaid order would have expired by then).
    await ctx.t.db.updateTable('user_order').set({ status: 'processing', step: 'material_review', expires_at: null }).where('user_order_id', '=', id).execute();
    ctx.t.clock.now = Date.parse('2026-12-30T02:00:00Z');
    try {
      expect((await ctx.service.detail(alice, id)).departure_date_past).toBe(true);
      await ctx.service.changeDepartureDate(alice, id, '2027-01-15');
      expect((await ctx.service.detail(alice, id)).departure_date_past).toBe(false);
    } finally {
      ctx.t.clock.now = T0;
    }
  });

  it('refuses bad dates, other enterprises, cancelled orders and orders at the embassy, changing nothing', async () => {
    const id = await draft(alice);
    await expectRefused(ctx.service.changeDepartureDate(alice, id, '2026-02-30'), ErrorCode.ORDER_DEPARTURE_DATE_INVALID);
    await expectRefused(ctx.service.changeDepartureDate(alice, id, '2026-11-30'), ErrorCode.ORDER_DEPARTURE_DATE_PAST);
    await expectRefused(ctx.service.changeDepartureDate(alice, id, '2028-01-01'), ErrorCode.ORDER_DEPARTURE_DATE_TOO_FAR);
    await expectRefused(ctx.service.changeDepartureDate(bob, id, '2027-01-20'), ErrorCode.ORDER_NOT_FOUND);
    const future = await ctx.service.create(alice, {
      visa_product_id: ctx.products.plain.visa_product_id,
      departure_date: '2027-02-10',
      order_date: '2027-01-10',
      applicants: [applicant(3)],
    });
    await expectRefused(ctx.service.changeDepartureDate(alice, future.user_order_id, '2027-01-05'), ErrorCode.ORDER_DATE_INVALID, '出发日期不能早于办理日期');

    await ctx.t.db.updateTable('user_order').set({ status: 'processing', step: 'submitted' }).where('user_order_id', '=', id).execute();
    await expectRefused(ctx.service.changeDepartureDate(alice, id, '2027-01-20'), ErrorCode.ORDER_DEPARTURE_NOT_CHANGEABLE);
    await ctx.t.db.updateTable('user_order').set({ status: 'cancelled', step: null }).where('user_order_id', '=', id).execute();
    await expectRefused(ctx.service.changeDepartureDate(alice, id, '2027-01-20'), ErrorCode.ORDER_ALREADY_CANCELLED);
    expect((await ctx.service.detail(alice, id)).departure_date).toBe('2026-12-28');
  });
});

describe('interview places go back when an unpaid order ends', () => {
  async function orderHoldingPlaces(customer: Customer) {
    const id = await draft(customer);
    const district = await ctx.t.db.selectFrom('consular_district').select('consular_district_id').orderBy('consular_district_id').executeTakeFirstOrThrow();
    const slot = await ctx.t.db
      .insertInto('interview_slot')
      .values({
        consular_district_id: district.consular_district_id,
        slot_date: '2026-12-1' + String(id % 10),
        start_time: `1${id % 10}:00`,
        end_time: `1${id % 10}:30`,
        capacity: 4,
        booked: 2,
      })
      .returning('interview_slot_id')
      .executeTakeFirstOrThrow();
    await ctx.t.db.updateTable('order_applicant').set({ interview_slot_id: slot.interview_slot_id }).where('user_order_id', '=', id).execute();
    return { id, slotId: slot.interview_slot_id };
  }
  const booked = async (slotId: number) =>
    (await ctx.t.db.selectFrom('interview_slot').select('booked').where('interview_slot_id', '=', slotId).executeTakeFirstOrThrow()).booked;

  it('on cancel', async () => {
    const { id, slotId } = await orderHoldingPlaces(alice);
    await ctx.service.cancel(alice, id);
    expect(await booked(slotId)).toBe(0);
    const applicants = await ctx.t.db.selectFrom('order_applicant').select('interview_slot_id').where('user_order_id', '=', id).execute();
    expect(applicants.every((a) => a.interview_slot_id === null)).toBe(true);
  });

  it('on expiry', async () => {
    const { id, slotId } = await orderHoldingPlaces(bob);
    ctx.t.clock.now = T0 + 25 * 3_600_000;
    try {
      expect((await ctx.service.detail(bob, id)).status).toBe('cancelled');
    } finally {
      ctx.t.clock.now = T0;
    }
    expect(await booked(slotId)).toBe(0);
  });
});

describe('the departure warning counts China working days', () => {
  it('leaves out public holidays (New Year 2027) when counting the days before departure', async () => {
    const productId = ctx.products.plain.visa_product_id;
    const before = await ctx.t.db.selectFrom('visa_product').select('need_days').where('visa_product_id', '=', productId).executeTakeFirstOrThrow();
    await ctx.t.db.updateTable('visa_product').set({ need_days: 6 }).where('visa_product_id', '=', productId).execute();
    try {
      // Mon 28 Dec – Mon 4 Jan: six weekdays, but 1 January is a holiday.
      const result = await ctx.service.create(alice, {
        visa_product_id: productId,
        order_date: '2026-12-28',
        departure_date: '2027-01-05',
        applicants: [applicant(7)],
      });
      expect(result.departure_warning).toMatchObject({ working_days: 5, need_days: 6, earliest_departure_date: '2027-01-06' });
    } finally {
      await ctx.t.db.updateTable('visa_product').set({ need_days: before.need_days }).where('visa_product_id', '=', productId).execute();
    }
  });
});

describe('expiry waits for a pending payment to be settled', () => {
  it('does not cancel an order whose payment may still have been paid in time; does once the payment is closed', async () => {
    const id = await draft(alice);
    await ctx.t.db.updateTable('user_order').set({ status: 'pending_payment' }).where('user_order_id', '=', id).execute();
    await ctx.t.db
      .insertInto('payment')
      .values({
        user_order_id: id,
        out_trade_no: `E${id}`,
        provider: 'sandbox',
        channel: 'alipay',
        amount: 100,
        status: 'pending',
        code_url: 'http://x',
        account_id: alice.accountId,
        created_at: T0,
        expires_at: T0 + 900_000,
      })
      .execute();
    ctx.t.clock.now = T0 + 25 * 3_600_000;
    try {
      expect((await ctx.service.detail(alice, id)).status).toBe('pending_payment');
      await ctx.t.db.updateTable('payment').set({ status: 'closed' }).where('out_trade_no', '=', `E${id}`).execute();
      expect((await ctx.service.detail(alice, id)).status).toBe('cancelled');
    } finally {
      ctx.t.clock.now = T0;
    }
  });
});
