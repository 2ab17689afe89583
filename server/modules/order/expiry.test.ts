// Unpaid orders expire 24 h after creation: by the sweep (every minute, on
// every instance at once) and on read. Own database: the sweep is global.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '../../../common/error-codes.ts';
import { EXPIRE_REASON, EXPIRY_INTERVAL_MS, expireUnpaidOrders, startOrderExpiry } from './expiry.ts';
import { applicant, expectRefused, HOUR, newCustomer, type OrderTestContext, orderTestContext, T0 } from '../../test-support/fixtures/order.ts';
import type { Customer } from '../../platform/principal.ts';

const DAY = 24 * HOUR;
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

async function placeAt(at: number, customer = alice) {
  ctx.t.clock.now = at;
  const { user_order_id } = await ctx.service.create(customer, {
    visa_product_id: ctx.products.plain.visa_product_id,
    departure_date: '2027-01-20',
    applicants: [applicant(1)],
  });
  return user_order_id;
}

async function rowsOf(ids: number[]) {
  return ctx.t.db
    .selectFrom('user_order')
    .select(['user_order_id', 'status', 'version', 'cancel_reason', 'cancelled_at', 'expires_at'])
    .where('user_order_id', 'in', ids)
    .orderBy('user_order_id')
    .execute();
}

async function expireEvents(ids: number[]) {
  return ctx.t.db.selectFrom('order_event').selectAll().where('user_order_id', 'in', ids).where('event', '=', 'expire').execute();
}

describe(`unpaid order expiry (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('cancels draft and pending_payment orders 24 h after creation, with a system event, and nothing else', async () => {
    const start = T0;
    const draft = await placeAt(start);
    const pending = await placeAt(start + 1);
    const paid = await placeAt(start + 2);
    const cancelled = await placeAt(start + 3);
    await ctx.t.db.updateTable('user_order').set({ status: 'pending_payment' }).where('user_order_id', '=', pending).execute();
    await ctx.t.db.updateTable('user_order').set({ status: 'processing', step: 'material_review' }).where('user_order_id', '=', paid).execute();
    await ctx.service.cancel(alice, cancelled);

    expect(await expireUnpaidOrders(ctx.t.db, start + DAY - 1)).toBe(0);
    expect(await expireUnpaidOrders(ctx.t.db, start + DAY)).toBe(1);
    expect(await expireUnpaidOrders(ctx.t.db, start + DAY + 1)).toBe(1);
    expect(await expireUnpaidOrders(ctx.t.db, start + 2 * DAY)).toBe(0);

    const rows = await rowsOf([draft, pending, paid, cancelled]);
    expect(rows.map((r) => [r.status, r.version])).toEqual([
      ['cancelled', 1],
      ['cancelled', 1],
      ['processing', 0],
      ['cancelled', 1],
    ]);
    expect(rows[0]).toMatchObject({ cancel_reason: EXPIRE_REASON, cancelled_at: start + DAY, expires_at: null });
    const events = await expireEvents([draft, pending, paid, cancelled]);
    expect(events.map((e) => [e.user_order_id, e.actor, e.actor_id, e.from_status, e.to_status])).toEqual([
      [draft, 'system', null, 'draft', 'cancelled'],
      [pending, 'system', null, 'pending_payment', 'cancelled'],
    ]);
    expect(JSON.parse(events[0]!.detail!)).toEqual({ expires_at: start + DAY });

    ctx.t.clock.now = start + 2 * DAY;
    const detail = await ctx.service.detail(alice, draft);
    expect(detail).toMatchObject({ status: 'cancelled', cancel_reason: EXPIRE_REASON, actions: [] });
    expect(detail.events.map((e) => [e.event, e.event_label, e.actor])).toEqual([
      ['create', '创建订单', 'customer'],
      ['expire', '超时未支付，自动取消', 'system'],
    ]);
  });

  it('expires an overdue order on read, before any sweep, and then refuses to cancel it', async () => {
    const start = T0 + 10 * DAY;
    const id = await placeAt(start);
    ctx.t.clock.now = start + DAY + 5_000;
    expect((await ctx.service.detail(alice, id)).status).toBe('cancelled');
    await expectRefused(ctx.service.cancel(alice, id), ErrorCode.ORDER_ALREADY_CANCELLED, '订单已取消');

    const listed = await placeAt(start + DAY + 10_000);
    ctx.t.clock.now = start + 2 * DAY + 10_000;
    const list = await ctx.service.list(alice, 'unpaid', 1);
    expect(list.page_data.some((o) => o.user_order_id === listed)).toBe(false);
    expect((await rowsOf([listed]))[0]!.status).toBe('cancelled');
    expect(await expireEvents([id, listed])).toHaveLength(2);
  });

  it('changes each order once when several instances sweep at the same time', async () => {
    const start = T0 + 20 * DAY;
    const ids: number[] = [];
    for (let i = 0; i < 24; i += 1) ids.push(await placeAt(start + i, i % 2 ? alice : bob));
    // Two connection pools on PostgreSQL; SQLite has one writer per process, so its sweeps interleave on one handle.
    const second = ctx.database.kind === 'postgres' ? ctx.database.open() : null;
    try {
      const other = second?.db ?? ctx.t.db;
      const at = start + DAY + 100;
      const counts = await Promise.all([
        expireUnpaidOrders(ctx.t.db, at),
        expireUnpaidOrders(other, at),
        expireUnpaidOrders(ctx.t.db, at),
        expireUnpaidOrders(other, at),
      ]);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(24);
      const rows = await rowsOf(ids);
      expect(rows.every((r) => r.status === 'cancelled' && r.version === 1)).toBe(true);
      const events = await expireEvents(ids);
      expect(events).toHaveLength(24);
      expect(new Set(events.map((e) => e.user_order_id)).size).toBe(24);
    } finally {
      await second?.destroy();
    }
  });

  it('sweeps every minute once started, and stops', async () => {
    const start = T0 + 30 * DAY;
    const id = await placeAt(start);
    ctx.t.clock.now = start + DAY;
    const log = { info: vi.fn(), warn: vi.fn() };
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const stop = startOrderExpiry(ctx.t.db, () => ctx.t.clock.now, log as never);
      vi.advanceTimersByTime(EXPIRY_INTERVAL_MS);
      // stop() waits for the sweep under way (graceful stop): it has finished when stop resolves.
      await stop();
      expect(log.info).toHaveBeenCalledWith({ expired: 1 }, 'unpaid orders expired');
      expect((await rowsOf([id]))[0]!.status).toBe('cancelled');
      expect(vi.getTimerCount()).toBe(0);
      expect(log.warn).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });
});
