// Insurance plans: the seed, and the plans offered for an order with the
// days suggested from the trip and the price for its applicants.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assumedTripDays,
  clampDays,
  DEFAULT_TRIP_DAYS,
  insuranceAmount,
  insuranceEndDate,
  insuranceTerms,
  returnDateProblem,
  SCHENGEN_COUNTRIES,
  tripDays,
  tripDaysUntil,
  tripReturnDate,
} from '../../../common/insurance.ts';
import { INSURANCE_PLANS, seedInsurancePlans } from '../../db/seed/insurance-plans.ts';
import { applicant, newCustomer, type OrderTestContext, orderTestContext } from '../../test-support/fixtures/order.ts';

let ctx: OrderTestContext;

beforeAll(async () => {
  ctx = await orderTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

describe('insurance arithmetic', () => {
  it('suggests the stay (a month when open-ended) within the plan, and prices per person per day', () => {
    expect(tripDays(90)).toBe(90);
    expect(tripDays(0)).toBe(DEFAULT_TRIP_DAYS);
    expect(clampDays(10, { min_days: 31, max_days: 365 })).toBe(31);
    expect(clampDays(400, { min_days: 1, max_days: 180 })).toBe(180);
    expect(insuranceAmount(450, 10, 3)).toBe(13_500);
    expect(insuranceEndDate('2026-12-28', 5)).toBe('2027-01-01');
    expect(insuranceEndDate('2026-12-28', 1)).toBe('2026-12-28');
  });

  it('takes a week until the customer gives a return date, and counts both the departure and the return day', () => {
    expect(assumedTripDays(180)).toBe(7);
    expect(assumedTripDays(5)).toBe(5);
    expect(assumedTripDays(0)).toBe(7);
    expect(tripDaysUntil('2026-12-28', '2026-12-28')).toBe(1);
    expect(tripDaysUntil('2026-12-28', '2027-01-03')).toBe(7);
    expect(tripReturnDate('2026-12-28', 7)).toBe('2027-01-03');
    expect(returnDateProblem('2026-12-28', '2027-01-03')).toBeNull();
    expect(returnDateProblem('2026-12-28', '2026-12-27')).toBe('回程日期不能早于出发日期 2026-12-28');
    expect(returnDateProblem('2026-12-28', tripReturnDate('2026-12-28', 366))).toContain('行程最长 365 天');
    expect(returnDateProblem('2026-12-28', '2026-02-30')).toBe('回程日期格式应为 YYYY-MM-DD');
  });

  it('knows the 29 Schengen states by their catalogue names', () => {
    expect(SCHENGEN_COUNTRIES.size).toBe(29);
    for (const name of ['法国', '德国', '瑞士', '克罗地亚', '罗马尼亚']) expect(SCHENGEN_COUNTRIES.has(name)).toBe(true);
    for (const name of ['英国', '爱尔兰', '日本', '塞浦路斯']) expect(SCHENGEN_COUNTRIES.has(name)).toBe(false);
  });

  it('states the plan’s own figures in its terms', () => {
    const terms = insuranceTerms({ ...INSURANCE_PLANS[0]!, items: INSURANCE_PLANS[0]!.items }).join('\n');
    expect(terms).toContain(INSURANCE_PLANS[0]!.company);
    expect(terms).toContain('境外意外及疾病医疗 30万');
  });
});

describe(`insurance plans (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('are seeded once, Schengen-style (medical cover of at least 30万), and never seeded again', async () => {
    expect(await seedInsurancePlans(ctx.t.db)).toBe(0);
    const rows = await ctx.t.db.selectFrom('insurance_plan').selectAll().orderBy('sort').execute();
    expect(rows.map((row) => row.name)).toEqual(INSURANCE_PLANS.map((plan) => plan.name));
    for (const row of rows) {
      const items = JSON.parse(row.items) as Array<{ name: string; amount: string }>;
      const medical = items.find((item) => item.name.includes('医疗') && !item.name.includes('转运'));
      expect(medical, row.name).toBeDefined();
      expect(Number.parseInt(medical!.amount, 10), row.name).toBeGreaterThanOrEqual(30);
      expect(row.min_days).toBeLessThanOrEqual(row.max_days);
    }
  });

  it('are offered for an order with the suggested days and the price for all its applicants', async () => {
    const customer = await newCustomer(ctx.t);
    const token = await ctx.t.login(customer.account, customer.password);
    const product = ctx.products.plain;
    const { user_order_id } = await ctx.service.create(customer, {
      visa_product_id: product.visa_product_id,
      departure_date: '2026-12-28',
      applicants: [applicant(1), applicant(2), applicant(3)],
    });
    const result = await ctx.t.call('/www/order/insurance_plan_list', { user_order_id }, { token });
    expect(result.body.ret).toBe(0);
    const body = result.body.body;
    // Nothing said of the trip yet: an assumed week (the product's 30-day stay is what the visa allows, not the trip).
    expect(product.stay_days).toBeGreaterThan(7);
    expect(body).toMatchObject({ start_date: '2026-12-28', return_date: '2027-01-03', trip_days: 7, trip_assumed: true, applicant_count: 3 });
    expect(body.plans).toHaveLength(INSURANCE_PLANS.length);
    for (const plan of body.plans) {
      const days = clampDays(body.trip_days, plan);
      expect(plan.suggested_days).toBe(days);
      expect(plan.per_person_amount).toBe(plan.price_per_day * days);
      expect(plan.amount).toBe(plan.price_per_day * days * 3);
      expect(plan.items.length).toBeGreaterThan(0);
    }
    // Withdrawn plans are not offered.
    const [first] = body.plans;
    await ctx.t.db.updateTable('insurance_plan').set({ status: 1 }).where('insurance_plan_id', '=', first.insurance_plan_id).execute();
    const again = await ctx.t.call('/www/order/insurance_plan_list', { user_order_id }, { token });
    expect(again.body.body.plans).toHaveLength(INSURANCE_PLANS.length - 1);
    await ctx.t.db.updateTable('insurance_plan').set({ status: 0 }).where('insurance_plan_id', '=', first.insurance_plan_id).execute();

    expect((await ctx.t.call('/www/order/insurance_plan_list', { user_order_id: 'x' }, { token })).body.ret).toBe(1001);
    expect((await ctx.t.call('/www/order/insurance_plan_list', { user_order_id, return_date: 20270103 }, { token })).body.ret).toBe(1001);
  });

  it('are priced for the trip the customer gives (a return date first, else a length), within 1–365 days', async () => {
    const customer = await newCustomer(ctx.t);
    const token = await ctx.t.login(customer.account, customer.password);
    const { user_order_id } = await ctx.service.create(customer, {
      visa_product_id: ctx.products.plain.visa_product_id,
      departure_date: '2026-12-28',
      applicants: [applicant(1), applicant(2)],
    });
    const list = (payload: object) => ctx.t.call('/www/order/insurance_plan_list', { user_order_id, ...payload }, { token });

    const tenDays = (await list({ return_date: '2027-01-06' })).body;
    expect(tenDays.ret).toBe(0);
    expect(tenDays.body).toMatchObject({ return_date: '2027-01-06', trip_days: 10, trip_assumed: false });
    const basic = tenDays.body.plans.find((plan: { name: string }) => plan.name === '基础款');
    expect(basic).toMatchObject({ suggested_days: 10, per_person_amount: 450 * 10, amount: 450 * 10 * 2 });
    // The long-term plan starts at 31 days: a short trip is brought up to its minimum.
    expect(tenDays.body.plans.find((plan: { name: string }) => plan.name === '长期多次款')).toMatchObject({ suggested_days: 31 });

    const byLength = (await list({ trip_days: 200 })).body;
    expect(byLength.body).toMatchObject({ return_date: tripReturnDate('2026-12-28', 200), trip_days: 200, trip_assumed: false });
    // The return date wins over a length given with it.
    expect((await list({ return_date: '2026-12-28', trip_days: 99 })).body.body.trip_days).toBe(1);

    for (const [payload, msg] of [
      [{ return_date: '2026-12-27' }, '回程日期不能早于出发日期 2026-12-28'],
      [{ return_date: tripReturnDate('2026-12-28', 366) }, '行程最长 365 天'],
      [{ return_date: '2027-13-01' }, '回程日期格式应为 YYYY-MM-DD'],
      [{ trip_days: 0 }, '行程天数须为 1–365 的整数'],
      [{ trip_days: -3 }, '行程天数须为 1–365 的整数'],
      [{ trip_days: 366 }, '行程天数须为 1–365 的整数'],
      [{ trip_days: 2.5 }, '行程天数须为 1–365 的整数'],
    ] as const) {
      const answer = (await list(payload)).body;
      expect(answer.ret, JSON.stringify(payload)).toBe(1876);
      expect(answer.msg).toContain(msg);
    }
    expect((await ctx.t.call('/www/order/insurance_plan_list', { user_order_id })).status).toBe(401);
  });
});
