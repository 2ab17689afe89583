// Orders on a seeded catalogue, on SQLite or PostgreSQL (TEST_DATABASE_URL):
// the service against a real database, and the calls' auth and ownership
// mapping on a bare Fastify with the same operation layer as app.ts.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productTitle } from '../../../common/catalogue.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import {
  addDays,
  chinaDate,
  earliestDepartureDate,
  isCalendarDate,
  ORDER_LIST_TABS,
  type OrderStatus,
  type OrderStep,
  workingDaysBetween,
} from '../../../common/order.ts';
import { installErrorHandling, installJsonParser } from '../../platform/error-handler.ts';
import { AppError } from '../../platform/errors.ts';
import { registerOperation } from '../../platform/operation.ts';
import { applicant, expectRefused, HOUR, newCustomer, type OrderTestContext, orderTestContext, T0, TODAY } from '../../test-support/fixtures/order.ts';
import { createOrderLifecycle, LifecycleConflict } from './lifecycle.ts';
import { orderOperations } from './order.routes.ts';
import { createOrderService } from './order.service.ts';
import type { Customer } from '../../platform/principal.ts';

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

const DEPARTURE = '2026-12-28';

function orderOf(customer: Customer, extra: Record<string, unknown> = {}) {
  return ctx.service.create(customer, {
    visa_product_id: ctx.products.plain.visa_product_id,
    departure_date: DEPARTURE,
    applicants: [applicant(1)],
    ...extra,
  });
}

async function orderCount(): Promise<number> {
  const row = await ctx.t.db
    .selectFrom('user_order')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('China-time calendar helpers', () => {
  it('reads the date in China, checks real dates and counts working days', () => {
    expect(chinaDate(Date.parse('2026-12-01T15:59:59Z'))).toBe('2026-12-01');
    expect(chinaDate(Date.parse('2026-12-01T16:00:00Z'))).toBe('2026-12-02');
    expect(isCalendarDate('2028-02-29')).toBe(true);
    for (const bad of ['2026-02-29', '2026-13-01', '2026-1-1', '20261201', '2026-12-01T00:00', '']) expect(isCalendarDate(bad)).toBe(false);
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    // Monday 30 November → Monday 7 December: five working days.
    expect(workingDaysBetween('2026-11-30', '2026-12-07')).toBe(5);
    expect(workingDaysBetween('2026-12-05', '2026-12-07')).toBe(0);
    expect(earliestDepartureDate('2026-12-04', 2)).toBe('2026-12-08');
  });
});

describe(`orders (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('creates a draft with two applicants, the price and title snapshot and a create event, in one go', async () => {
    const { discounted } = ctx.products;
    const result = await ctx.service.create(alice, {
      visa_product_id: discounted.visa_product_id,
      departure_date: DEPARTURE,
      applicants: [applicant(1, { name: '\u3000王小明 ', email: ' wang@example.com ' }), applicant(2, { mobile_phone: '139 0013 9000', identity_id: 3 })],
    });
    expect(result.expires_at).toBe(T0 + 24 * HOUR);

    const order = await ctx.t.db.selectFrom('user_order').selectAll().where('user_order_id', '=', result.user_order_id).executeTakeFirstOrThrow();
    const names = await ctx.t.db
      .selectFrom('visa_product')
      .innerJoin('visa_country', 'visa_country.visa_country_id', 'visa_product.visa_country_id')
      .innerJoin('visa_type', 'visa_type.visa_type_id', 'visa_product.visa_type_id')
      .select(['visa_country.name as country', 'visa_type.name as visa_type'])
      .where('visa_product_id', '=', discounted.visa_product_id)
      .executeTakeFirstOrThrow();
    expect(order).toMatchObject({
      enterprise_id: alice.enterpriseId,
      account_id: alice.accountId,
      status: 'draft',
      step: null,
      consular_district_id: discounted.consular_district_id,
      departure_date: DEPARTURE,
      order_date: TODAY,
      product_title: productTitle({ ...names, entry_times: discounted.entry_times, product_special_desc: discounted.product_special_desc }),
      country: names.country,
      unit_price: discounted.distributor_discount_price,
      applicant_count: 2,
      total_amount: discounted.distributor_discount_price! * 2,
      created_at: T0,
      expires_at: T0 + 24 * HOUR,
      version: 0,
    });
    expect(discounted.distributor_discount_price).toBeLessThan(discounted.sell_price);

    const applicants = await ctx.t.db.selectFrom('order_applicant').selectAll().where('user_order_id', '=', result.user_order_id).orderBy('sort').execute();
    expect(applicants.map(({ name, identity_id, mobile_phone, email, status, sort }) => ({ name, identity_id, mobile_phone, email, status, sort }))).toEqual([
      { name: '王小明', identity_id: 1, mobile_phone: '13800138001', email: 'wang@example.com', status: 'pending', sort: 0 },
      { name: '申请人2', identity_id: 3, mobile_phone: '13900139000', email: null, status: 'pending', sort: 1 },
    ]);
    // The checklist snapshot holds the applicants' identities' lists, whole, and no other identity's.
    const snapshot = await ctx.t.db
      .selectFrom('order_checklist_item')
      .select(['material_id', 'identity_id'])
      .where('user_order_id', '=', result.user_order_id)
      .orderBy('material_id')
      .execute();
    const listed = await ctx.t.db
      .selectFrom('visa_product_material')
      .select(['material_id', 'identity_id'])
      .where('visa_product_id', '=', discounted.visa_product_id)
      .where('retired', '=', 0)
      .orderBy('material_id')
      .execute();
    expect(snapshot.length).toBeGreaterThan(0);
    expect(snapshot).toEqual(listed.filter((row) => row.identity_id === 1 || row.identity_id === 3));
    expect(listed.some((row) => row.identity_id !== 1 && row.identity_id !== 3)).toBe(true);
    const events = await ctx.t.db.selectFrom('order_event').selectAll().where('user_order_id', '=', result.user_order_id).execute();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actor: 'customer', actor_id: alice.accountId, event: 'create', from_status: null, to_status: 'draft', created_at: T0 });
    expect(JSON.parse(events[0]!.detail!)).toEqual({
      unit_price: discounted.distributor_discount_price,
      applicant_count: 2,
      total_amount: discounted.distributor_discount_price! * 2,
    });

    // A later catalogue edit never changes the placed order.
    await ctx.t.db
      .updateTable('visa_product')
      .set({ distributor_discount_price: 1, sell_price: 2 })
      .where('visa_product_id', '=', discounted.visa_product_id)
      .execute();
    const detail = await ctx.service.detail(alice, result.user_order_id);
    await ctx.t.db
      .updateTable('visa_product')
      .set({ distributor_discount_price: discounted.distributor_discount_price, sell_price: discounted.sell_price })
      .where('visa_product_id', '=', discounted.visa_product_id)
      .execute();
    expect(detail).toMatchObject({
      status: 'draft',
      status_label: '草稿',
      step_label: null,
      unit_price: discounted.distributor_discount_price,
      total_amount: discounted.distributor_discount_price! * 2,
      visa_country_id: discounted.visa_country_id,
      consular_district: { consular_district_id: discounted.consular_district_id },
      departure_date_past: false,
      actions: ['continue', 'cancel'],
      version: 0,
    });
    expect(detail.applicants.map((a) => [a.name, a.identity_label, a.status_label])).toEqual([
      ['王小明', '自由职业者', '办理中'],
      ['申请人2', '在校学生', '办理中'],
    ]);
    expect(detail.events).toEqual([
      { event: 'create', event_label: '创建订单', actor: 'customer', actor_name: expect.any(String), from_status: null, to_status: 'draft', created_at: T0 },
    ]);
  });

  it('charges sell_price without a distributor price, and takes a district of the product’s country', async () => {
    const { plain, plainDistrict } = ctx.products;
    const { user_order_id } = await ctx.service.create(alice, {
      visa_product_id: plain.visa_product_id,
      consular_district_id: plainDistrict.consular_district_id,
      departure_date: DEPARTURE,
      order_date: '2026-12-03',
      applicants: [applicant(1), applicant(2), applicant(3)],
    });
    const detail = await ctx.service.detail(alice, user_order_id);
    expect(detail).toMatchObject({ unit_price: plain.sell_price, applicant_count: 3, total_amount: plain.sell_price * 3, order_date: '2026-12-03' });
    expect(detail.consular_district).toEqual({ consular_district_id: plainDistrict.consular_district_id, name: plainDistrict.name });
  });

  it('refuses delisted, mini-program-only and unknown products, each with its own message, and writes nothing', async () => {
    const { delistedByStatus, delistedByChannel, notOffline } = ctx.products;
    const before = await orderCount();
    await expectRefused(orderOf(alice, { visa_product_id: delistedByStatus.visa_product_id }), ErrorCode.ORDER_PRODUCT_DELISTED, '该商品已下架');
    await expectRefused(orderOf(alice, { visa_product_id: delistedByChannel.visa_product_id }), ErrorCode.ORDER_PRODUCT_DELISTED, '该商品已下架');
    await expectRefused(orderOf(alice, { visa_product_id: notOffline.visa_product_id }), ErrorCode.ORDER_PRODUCT_NOT_OFFLINE, '该商品不支持线下办理');
    await expectRefused(orderOf(alice, { visa_product_id: 9_999_999 }), ErrorCode.VISA_PRODUCT_NOT_FOUND, '该签证产品不存在');
    expect(await orderCount()).toBe(before);
  });

  it('checks the dates in China time', async () => {
    await expectRefused(orderOf(alice, { departure_date: '2026-11-30' }), ErrorCode.ORDER_DEPARTURE_DATE_PAST, '出发日期不能早于今天');
    await expectRefused(orderOf(alice, { departure_date: '2026-02-30' }), ErrorCode.ORDER_DEPARTURE_DATE_INVALID, '请选择正确的出发日期');
    await expectRefused(orderOf(alice, { departure_date: 'next week' }), ErrorCode.ORDER_DEPARTURE_DATE_INVALID);
    await expectRefused(orderOf(alice, { departure_date: '2028-12-01' }), ErrorCode.ORDER_DEPARTURE_DATE_TOO_FAR, '出发日期不能晚于一年后');
    await expectRefused(orderOf(alice, { order_date: '2026-11-30' }), ErrorCode.ORDER_DATE_INVALID, '办理日期不能早于今天');
    await expectRefused(orderOf(alice, { order_date: '2026-12-29' }), ErrorCode.ORDER_DATE_INVALID, '办理日期不能晚于出发日期');
    await expectRefused(orderOf(alice, { order_date: '2026-12-32' }), ErrorCode.ORDER_DATE_INVALID, '请选择正确的办理日期');
    // Today is allowed.
    expect((await orderOf(alice, { departure_date: TODAY })).user_order_id).toBeGreaterThan(0);

    // 00:30 on 2 December in Beijing is still 1 December in UTC: 1 December has passed.
    const saved = ctx.t.clock.now;
    ctx.t.clock.now = Date.parse('2026-12-01T16:30:00Z');
    try {
      await expectRefused(orderOf(alice, { departure_date: '2026-12-01' }), ErrorCode.ORDER_DEPARTURE_DATE_PAST);
      const { user_order_id } = await orderOf(alice, { departure_date: '2026-12-02' });
      expect((await ctx.service.detail(alice, user_order_id)).order_date).toBe('2026-12-02');
    } finally {
      ctx.t.clock.now = saved;
    }
  });

  it('warns (without refusing) when the departure leaves fewer working days than the product needs', async () => {
    const { plain } = ctx.products;
    const earliest = earliestDepartureDate(TODAY, plain.need_days);
    const tight = await orderOf(alice, { departure_date: addDays(earliest, -1) });
    expect(tight.departure_warning).toMatchObject({ need_days: plain.need_days, earliest_departure_date: earliest });
    expect(tight.departure_warning!.working_days).toBeLessThan(plain.need_days);
    expect(tight.departure_warning!.message).toContain('个工作日');
    expect((await orderOf(alice, { departure_date: earliest })).departure_warning).toBeNull();
  });

  it('takes only a district of the product’s country, and the product’s own district when it has one', async () => {
    const { discounted, discountedOtherDistrict, foreignDistrict } = ctx.products;
    await expectRefused(
      orderOf(alice, { consular_district_id: foreignDistrict.consular_district_id }),
      ErrorCode.ORDER_DISTRICT_INVALID,
      '所选领区不受理该签证产品',
    );
    await expectRefused(orderOf(alice, { consular_district_id: 9_999_999 }), ErrorCode.ORDER_DISTRICT_INVALID);
    await expectRefused(
      orderOf(alice, { visa_product_id: discounted.visa_product_id, consular_district_id: discountedOtherDistrict.consular_district_id }),
      ErrorCode.ORDER_DISTRICT_INVALID,
    );
    const { user_order_id } = await orderOf(alice, { visa_product_id: discounted.visa_product_id, consular_district_id: discounted.consular_district_id });
    expect((await ctx.service.detail(alice, user_order_id)).consular_district?.consular_district_id).toBe(discounted.consular_district_id);
  });

  it('checks the applicants: 1–20, names of 1–30 characters, mainland mobile numbers, e-mails, no duplicates', async () => {
    const before = await orderCount();
    await expectRefused(orderOf(alice, { applicants: [] }), ErrorCode.ORDER_APPLICANTS_REQUIRED, '请至少添加一位申请人');
    await expectRefused(orderOf(alice, { applicants: Array.from({ length: 21 }, (_, i) => applicant(i)) }), ErrorCode.ORDER_TOO_MANY_APPLICANTS);
    await expectRefused(
      orderOf(alice, { applicants: [applicant(1, { name: ' \u3000 ' })] }),
      ErrorCode.ORDER_APPLICANT_NAME_INVALID,
      '请输入申请人姓名（1–30 个字）',
    );
    await expectRefused(orderOf(alice, { applicants: [applicant(1, { name: '张'.repeat(31) })] }), ErrorCode.ORDER_APPLICANT_NAME_INVALID);
    await expectRefused(
      orderOf(alice, { applicants: [applicant(1), applicant(2, { mobile_phone: '12800138000' })] }),
      ErrorCode.ORDER_APPLICANT_MOBILE_INVALID,
      '第2位申请人：请输入正确的手机号',
    );
    await expectRefused(
      orderOf(alice, { applicants: [applicant(1, { mobile_phone: '1380013800' })] }),
      ErrorCode.ORDER_APPLICANT_MOBILE_INVALID,
      '请输入正确的手机号',
    );
    await expectRefused(orderOf(alice, { applicants: [applicant(1, { email: 'not-an-email' })] }), ErrorCode.ORDER_APPLICANT_EMAIL_INVALID, '请输入正确的邮箱');
    await expectRefused(orderOf(alice, { applicants: [applicant(1), applicant(1)] }), ErrorCode.ORDER_APPLICANT_DUPLICATE, /申请人重复/);
    expect(await orderCount()).toBe(before);
    // 30 characters, one of them outside the BMP, is fine; 20 applicants too.
    const name = `𠮷${'张'.repeat(29)}`;
    const { user_order_id } = await orderOf(alice, { applicants: [applicant(0, { name }), ...Array.from({ length: 19 }, (_, i) => applicant(i + 1))] });
    const detail = await ctx.service.detail(alice, user_order_id);
    expect(detail.applicant_count).toBe(20);
    expect(detail.applicants[0]!.name).toBe(name);
  });

  it('keeps a passport number given with an applicant (upper case, no spaces) and refuses a malformed one', async () => {
    await expectRefused(orderOf(alice, { applicants: [applicant(1, { passport_no: 'E12-345' })] }), ErrorCode.INVALID_PARAMS, '护照号码应为 5–20 位字母或数字');
    const { user_order_id } = await orderOf(alice, { applicants: [applicant(1, { passport_no: ' e1234 5678 ' }), applicant(2)] });
    const rows = await ctx.t.db.selectFrom('order_applicant').select(['passport_no']).where('user_order_id', '=', user_order_id).orderBy('sort').execute();
    expect(rows).toEqual([{ passport_no: 'E12345678' }, { passport_no: null }]);
  });

  it('keeps orders inside the enterprise: another one sees “订单不存在”, exactly like a missing order', async () => {
    const { user_order_id } = await orderOf(alice);
    const missing = await expectRefused(ctx.service.detail(bob, 9_999_999), ErrorCode.ORDER_NOT_FOUND, '订单不存在');
    const foreign = await expectRefused(ctx.service.detail(bob, user_order_id), ErrorCode.ORDER_NOT_FOUND);
    expect([foreign.ret, foreign.message, foreign.httpStatus]).toEqual([missing.ret, missing.message, missing.httpStatus]);
    await expectRefused(ctx.service.cancel(bob, user_order_id), ErrorCode.ORDER_NOT_FOUND, '订单不存在');
    expect((await ctx.service.list(bob, 'all', 1)).page_data.some((o) => o.user_order_id === user_order_id)).toBe(false);
    expect((await ctx.service.detail(alice, user_order_id)).status).toBe('draft');

    // Another account of the same enterprise sees it.
    const colleague = await ctx.t.db
      .insertInto('account')
      .values({
        enterprise_id: alice.enterpriseId,
        account: `colleague_${user_order_id}`,
        password_hash: 'x',
        name: '同事',
        mobile_phone: null,
        email: null,
        role: 'admin',
        status: 0,
        created_at: T0,
        last_login_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await ctx.service.detail({ kind: 'customer', accountId: colleague.id, enterpriseId: alice.enterpriseId }, user_order_id)).user_order_id).toBe(
      user_order_id,
    );
  });

  it('cancels a draft once; a second cancel answers 订单已取消 and changes nothing; paid orders cannot be cancelled', async () => {
    const { user_order_id } = await orderOf(alice);
    ctx.t.clock.now = T0 + 60_000;
    try {
      expect(await ctx.service.cancel(alice, user_order_id, '  行程有变  ')).toEqual({ user_order_id, status: 'cancelled' });
      const cancelled = await ctx.service.detail(alice, user_order_id);
      expect(cancelled).toMatchObject({
        status: 'cancelled',
        status_label: '已取消',
        cancel_reason: '行程有变',
        cancelled_at: T0 + 60_000,
        expires_at: null,
        version: 1,
        actions: [],
      });
      expect(cancelled.events.map((e) => [e.event, e.actor, e.from_status, e.to_status])).toEqual([
        ['create', 'customer', null, 'draft'],
        ['cancel', 'customer', 'draft', 'cancelled'],
      ]);

      await expectRefused(ctx.service.cancel(alice, user_order_id), ErrorCode.ORDER_ALREADY_CANCELLED, '订单已取消');
      const again = await ctx.service.detail(alice, user_order_id);
      expect(again.version).toBe(1);
      expect(again.events).toHaveLength(2);
    } finally {
      ctx.t.clock.now = T0;
    }

    const pending = await orderOf(alice);
    await ctx.t.db.updateTable('user_order').set({ status: 'pending_payment' }).where('user_order_id', '=', pending.user_order_id).execute();
    await ctx.service.cancel(alice, pending.user_order_id);
    expect((await ctx.service.detail(alice, pending.user_order_id)).events.at(-1)).toMatchObject({ from_status: 'pending_payment', to_status: 'cancelled' });

    const paid = await orderOf(alice);
    for (const [status, message] of [
      ['processing', '订单已支付，无法取消'],
      ['completed', '订单已支付，无法取消'],
      ['refunded', '订单已退款，无法取消'],
    ] as const) {
      await ctx.t.db
        .updateTable('user_order')
        .set({ status, step: status === 'processing' ? 'material_review' : null, expires_at: null })
        .where('user_order_id', '=', paid.user_order_id)
        .execute();
      await expectRefused(ctx.service.cancel(alice, paid.user_order_id), ErrorCode.ORDER_NOT_CANCELLABLE, message);
    }
    expect((await ctx.service.detail(alice, paid.user_order_id)).events).toHaveLength(1);
  });

  it('lets exactly one of several concurrent cancels win (two app instances on PostgreSQL)', async () => {
    const { user_order_id } = await orderOf(alice);
    // SQLite has one writer per process; a second handle in this process would only wait on the first.
    const second = ctx.database.kind === 'postgres' ? ctx.database.open() : null;
    try {
      const services = [ctx.service, second ? createOrderService(second.db, { now: () => ctx.t.clock.now }) : ctx.service];
      const outcomes = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => services[i % 2]!.cancel(alice, user_order_id, `第${i}次`)));
      const won = outcomes.filter((o) => o.status === 'fulfilled');
      const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      expect(won).toHaveLength(1);
      for (const outcome of lost) {
        expect(outcome.reason).toBeInstanceOf(AppError);
        expect((outcome.reason as AppError).ret).toBe(ErrorCode.ORDER_ALREADY_CANCELLED);
      }
      const detail = await ctx.service.detail(alice, user_order_id);
      expect(detail.version).toBe(1);
      expect(detail.events.filter((e) => e.event === 'cancel')).toHaveLength(1);
    } finally {
      await second?.destroy();
    }
  });

  it('never applies a change decided on a stale version', async () => {
    const { user_order_id } = await orderOf(alice);
    const decidedOn = {
      user_order_id,
      status: 'draft' as const,
      step: null,
      version: 0,
      expires_at: T0 + 24 * HOUR,
      departure_date: DEPARTURE,
      need_interview: false,
    };
    const change = () => createOrderLifecycle(ctx.t.db, { now: () => T0 }).transaction((tx) => tx.change(decidedOn, { event: 'confirm' }, alice));
    await expect(change()).resolves.toMatchObject({ status: 'pending_payment', version: 1 });
    await expect(change()).rejects.toBeInstanceOf(LifecycleConflict);
    const detail = await ctx.service.detail(alice, user_order_id);
    expect(detail).toMatchObject({ status: 'pending_payment', version: 1, actions: ['pay', 'cancel'] });
    expect(detail.events).toHaveLength(2);
  });

  it('lists by tab, newest first, 10 a page, with the applicants', async () => {
    const carol = await newCustomer(ctx.t);
    const ids: number[] = [];
    for (let i = 0; i < 13; i += 1) {
      ctx.t.clock.now = T0 + i * 1000;
      ids.push((await orderOf(carol, { applicants: [applicant(1), applicant(2)] })).user_order_id);
    }
    ctx.t.clock.now = T0 + 60_000;
    const set = (index: number, values: { status: OrderStatus; step?: OrderStep | null; departure_date?: string }) =>
      ctx.t.db
        .updateTable('user_order')
        .set({ step: null, ...values, expires_at: values.status === 'draft' || values.status === 'pending_payment' ? T0 + 24 * HOUR : null })
        .where('user_order_id', '=', ids[index]!)
        .execute();
    await set(0, { status: 'pending_payment' });
    await set(1, { status: 'processing', step: 'material_review' });
    await set(2, { status: 'processing', step: 'reupload_needed' });
    await set(3, { status: 'processing', step: 'awaiting_mail' });
    await set(4, { status: 'processing', step: 'page_check' });
    await set(5, { status: 'processing', step: 'interview', departure_date: '2026-11-20' });
    await set(6, { status: 'processing', step: 'submitted', departure_date: '2026-11-20' });
    await set(7, { status: 'completed' });
    await set(8, { status: 'refunded' });
    await ctx.service.cancel(carol, ids[9]!);
    await set(10, { status: 'draft', departure_date: '2026-11-25' });
    // 11 and 12 stay plain drafts.

    const tab = async (key: (typeof ORDER_LIST_TABS)[number]['key']) => {
      const result = await ctx.service.list(carol, key, 1);
      return { ids: result.page_data.map((o) => ids.indexOf(o.user_order_id)), total: result.total_count };
    };
    expect(await tab('unpaid')).toEqual({ ids: [12, 11, 10, 0], total: 4 });
    expect(await tab('action')).toEqual({ ids: [10, 5, 4, 3, 2], total: 5 });
    expect(await tab('processing')).toEqual({ ids: [6, 5, 4, 3, 2, 1], total: 6 });
    expect(await tab('completed')).toEqual({ ids: [7], total: 1 });
    expect(await tab('closed')).toEqual({ ids: [9, 8], total: 2 });

    const first = await ctx.service.list(carol, 'all', 1);
    const second = await ctx.service.list(carol, 'all', 2);
    expect(first.total_count).toBe(13);
    expect(first.page_data.map((o) => ids.indexOf(o.user_order_id))).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3]);
    expect(second.page_data.map((o) => ids.indexOf(o.user_order_id))).toEqual([2, 1, 0]);
    expect(await ctx.service.list(carol, 'all', 3)).toEqual({ page_data: [], total_count: 13 });

    const card = first.page_data.find((o) => o.user_order_id === ids[10])!;
    expect(card).toMatchObject({ status: 'draft', departure_date_past: true, needs_action: true, actions: ['choose_departure_date', 'continue', 'cancel'] });
    expect(card.applicants.map((a) => a.name)).toEqual(['申请人1', '申请人2']);
    const reupload = second.page_data.find((o) => o.user_order_id === ids[2])!;
    expect(reupload).toMatchObject({ status_label: '办理中', step_label: '待重新上传资料', needs_action: true, actions: ['reupload'] });
    const submitted = first.page_data.find((o) => o.user_order_id === ids[6])!;
    expect(submitted).toMatchObject({ departure_date_past: false, needs_action: false, actions: [] });
    ctx.t.clock.now = T0;
  });
});

describe('order calls (auth and ownership over HTTP)', () => {
  let api: FastifyInstance;
  let aliceToken: string;
  let bobToken: string;

  beforeAll(async () => {
    // The same operation layer, error handling and session check as app.ts (signatures aside).
    api = Fastify({ logger: false });
    installErrorHandling(api);
    installJsonParser(api);
    api.setValidatorCompiler(() => () => true);
    api.setSerializerCompiler(() => (data) => JSON.stringify(data));
    await api.register(async (scope) => {
      scope.addHook('onRequest', async (request) => {
        if (request.routeOptions.config.auth === 'customer') {
          const token = request.headers['x-token'];
          const account = await ctx.t.services.account.authenticate(typeof token === 'string' ? token : undefined);
          if (!account) throw new AppError(ErrorCode.NOT_LOGGED_IN);
          request.account = account;
        }
      });
      for (const operation of orderOperations(ctx.service)) registerOperation(scope, operation);
    });
    await api.ready();
    const a = await ctx.t.db.selectFrom('account').select('account').where('id', '=', alice.accountId).executeTakeFirstOrThrow();
    const b = await ctx.t.db.selectFrom('account').select('account').where('id', '=', bob.accountId).executeTakeFirstOrThrow();
    aliceToken = await ctx.t.login(a.account, 'Passw0rd!');
    bobToken = await ctx.t.login(b.account, 'Passw0rd!');
  });
  afterAll(async () => {
    await api?.close();
  });

  async function call(path: string, payload: unknown, token?: string) {
    const response = await api.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/json', ...(token ? { 'x-token': token } : {}) },
      payload: JSON.stringify(payload),
    });
    return { status: response.statusCode, body: response.json() as { ret: number; msg: string; body: any } };
  }

  it('needs a session for every call', async () => {
    for (const path of ['/www/order/order_create', '/www/order/order_detail_get', '/www/order/order_list', '/www/order/order_cancel']) {
      expect(await call(path, {})).toEqual({ status: 401, body: { ret: 1201, msg: '登录已过期，请重新登录', body: null } });
      expect((await call(path, {}, 'not-a-token')).status).toBe(401);
    }
  });

  it('creates, reads, lists and cancels; another enterprise gets the very answer of a missing order', async () => {
    const created = await call(
      '/www/order/order_create',
      { visa_product_id: String(ctx.products.plain.visa_product_id), departure_date: DEPARTURE, applicants: [applicant(1), applicant(2)] },
      aliceToken,
    );
    expect(created.body.ret).toBe(0);
    const id = created.body.body.user_order_id as number;

    const detail = await call('/www/order/order_detail_get', { user_order_id: id }, aliceToken);
    expect(detail.body.body).toMatchObject({ user_order_id: id, status: 'draft', applicant_count: 2, total_amount: ctx.products.plain.sell_price * 2 });

    const foreign = await call('/www/order/order_detail_get', { user_order_id: id }, bobToken);
    const missing = await call('/www/order/order_detail_get', { user_order_id: 9_999_999 }, bobToken);
    expect(foreign).toEqual({ status: 200, body: { ret: 1801, msg: '订单不存在', body: null } });
    expect(foreign).toEqual(missing);
    expect(await call('/www/order/order_cancel', { user_order_id: id }, bobToken)).toEqual(missing);

    const list = await call('/www/order/order_list', { tab: 'unpaid' }, aliceToken);
    expect(list.body.body.page_data.some((o: { user_order_id: number }) => o.user_order_id === id)).toBe(true);
    expect((await call('/www/order/order_list', {}, bobToken)).body.body.page_data.some((o: { user_order_id: number }) => o.user_order_id === id)).toBe(false);
    expect((await call('/www/order/order_list', { tab: 'nope' }, aliceToken)).body.ret).toBe(1001);

    expect((await call('/www/order/order_cancel', { user_order_id: id }, aliceToken)).body).toEqual({
      ret: 0,
      msg: 'ok',
      body: { user_order_id: id, status: 'cancelled' },
    });
    expect((await call('/www/order/order_cancel', { user_order_id: id }, aliceToken)).body).toEqual({ ret: 1815, msg: '订单已取消', body: null });
  });

  it('answers guard failures with their code and Chinese message, malformed payloads with 参数错误', async () => {
    const base = { visa_product_id: ctx.products.plain.visa_product_id, departure_date: DEPARTURE, applicants: [applicant(1)] };
    expect((await call('/www/order/order_create', { ...base, visa_product_id: ctx.products.notOffline.visa_product_id }, aliceToken)).body).toEqual({
      ret: 1803,
      msg: '该商品不支持线下办理',
      body: null,
    });
    expect((await call('/www/order/order_create', { ...base, applicants: [] }, aliceToken)).body).toMatchObject({ ret: 1809, msg: '请至少添加一位申请人' });
    expect((await call('/www/order/order_create', { ...base, applicants: [applicant(1, { identity_id: 5 })] }, aliceToken)).body.ret).toBe(1001);
    expect((await call('/www/order/order_create', { ...base, visa_product_id: 'abc' }, aliceToken)).body.ret).toBe(1001);
    expect((await call('/www/order/order_detail_get', {}, aliceToken)).body).toEqual({ ret: 1001, msg: '参数错误', body: null });
  });
});
