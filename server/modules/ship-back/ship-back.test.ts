// Ship back and completion through the real app (/admin-api and /www,
// signed) on SQLite or PostgreSQL: ship back refused while an applicant has
// no result; the passports shipped with the sandbox courier to the return
// (or peer) address snapshot, the delivered push finishing the order
// (completed; refunded when everyone was refused with 拒签退全款); complete
// only when everyone is done and nothing is held; the customer following the
// parcel; the order under the right list tab and never asked for a new
// departure date; bad input never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderDetailGet, orderList } from '../../../common/contracts/order.ts';
import {
  adminOrderComplete,
  adminReturnTracking,
  adminShipBackGet,
  adminShipBackSend,
  returnParcel,
  returnTracking,
} from '../../../common/contracts/ship-back.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { isDeparturePast, orderActions } from '../../../common/order.ts';
import type { Customer } from '../../test-support/fixtures/material.ts';
import { type Op, RETURN_ADDRESS, shipBackTestContext, type ShipBackTestContext } from '../../test-support/fixtures/ship-back.ts';

let ctx: ShipBackTestContext;
let alice: Customer;
let bob: Customer;

beforeAll(async () => {
  ctx = await shipBackTestContext();
  alice = await ctx.customer();
  bob = await ctx.customer();
});
afterAll(async () => {
  await ctx?.close();
});

async function allResults(op: Op, id: number, statuses: Array<'issued' | 'rejected'>) {
  const ids = await ctx.applicantIds(id);
  for (const [index, applicantId] of ids.entries()) await ctx.result(op, id, applicantId, statuses[index] ?? statuses[0]!);
}

/** The sandbox pushes every event due by then: picked up … delivered. */
async function deliverAll() {
  ctx.t.clock.now += 30 * 60_000;
  await ctx.t.app.courier.sandbox.pusher.runDue();
}

async function events(id: number) {
  return (await ctx.events(id)).map((e) => e.event);
}

describe(`ship back and completion (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('refuses to ship back while an applicant has no result; wrong step, not the assignee and a stale version are refused', async () => {
    const op = await ctx.t.operator();
    const id = await ctx.submittedOrder(alice, op);
    const [first] = await ctx.applicantIds(id);
    await ctx.result(op, id, first!, 'issued');
    const panel = await op.callContract(adminShipBackGet, { user_order_id: id });
    expect(panel.result).toMatchObject({
      results_done: false,
      holds_passports: true,
      can_ship_back: false,
      can_complete: false,
      blocked_reason: '仍有申请人没有签证结果',
    });
    const version = panel.result!.order.version;
    const send = (v: number, who: Op = op) => who.callContract(adminShipBackSend, { user_order_id: id, version: v, pickup_window: ctx.window() });
    expect((await send(version)).body.ret).toBe(ErrorCode.SHIP_BACK_RESULTS_PENDING);
    expect((await op.callContract(adminOrderComplete, { user_order_id: id, version })).body.ret).toBe(ErrorCode.SHIP_BACK_RESULTS_PENDING);
    // Nothing was booked with the courier, nothing stored.
    expect((await ctx.t.app.courier.service.orderShipments(id)).filter((s) => s.direction === 'to_customer')).toEqual([]);

    await allResults(op, id, ['issued']);
    const now = (await op.callContract(adminShipBackGet, { user_order_id: id })).result!.order.version;
    expect((await send(now - 1)).body.ret).toBe(ErrorCode.SHIP_BACK_ORDER_STALE);
    const other = await ctx.t.operator();
    expect((await send(now, other)).body.ret).toBe(ErrorCode.REVIEW_NOT_ASSIGNEE);
    // Passports held: complete is refused, ship back is the way.
    expect((await op.callContract(adminOrderComplete, { user_order_id: id, version: now })).body.ret).toBe(ErrorCode.SHIP_BACK_PASSPORTS_HELD);
    expect((await ctx.orderRow(id)).step).toBe('submitted');

    // The order moves on between the booking and the storing: the booking is called off, nothing is stored.
    const sandbox = ctx.t.app.courier.sandbox;
    const realCreate = sandbox.provider.createWaybill.bind(sandbox.provider);
    let waybill = '';
    sandbox.provider.createWaybill = async (request) => {
      const created = await realCreate(request);
      waybill = created.waybill_no;
      await ctx.t.db
        .updateTable('user_order')
        .set((eb) => ({ version: eb('version', '+', 1) }))
        .where('user_order_id', '=', id)
        .execute();
      return created;
    };
    try {
      expect((await send(now)).body.ret).toBe(ErrorCode.SHIP_BACK_ORDER_STALE);
    } finally {
      sandbox.provider.createWaybill = realCreate;
    }
    expect((await ctx.t.app.courier.service.orderShipments(id)).filter((s) => s.direction === 'to_customer')).toEqual([]);
    expect((await sandbox.ledger.find(waybill))?.cancelled_at).not.toBeNull();
    expect(await ctx.orderRow(id)).toMatchObject({ status: 'processing', step: 'submitted' });
  });

  it('ships back to the return address; the delivered push completes the order; the customer follows the parcel', async () => {
    const op = await ctx.t.operator();
    const id = await ctx.submittedOrder(alice, op);
    await allResults(op, id, ['issued', 'rejected']);
    const panel = (await op.callContract(adminShipBackGet, { user_order_id: id })).result!;
    expect(panel).toMatchObject({ results_done: true, holds_passports: true, can_ship_back: true, can_complete: false, outcome: 'completed' });
    expect(panel.return_address).toMatchObject({ kind: 'return', name: RETURN_ADDRESS.name, city_name: '深圳市' });
    expect(panel.sender).not.toBeNull();

    const sent = await op.callContract(adminShipBackSend, { user_order_id: id, version: panel.order.version, pickup_window: ctx.window() });
    expect(sent.body.ret).toBe(0);
    expect(sent.result).toMatchObject({ step: 'returning', shipment: { direction: 'to_customer', arrangement: 'pickup', status: 'booked' } });
    expect(sent.result!.shipment.receiver).toMatchObject({ name: RETURN_ADDRESS.name, detail: RETURN_ADDRESS.detail });
    expect(sent.result!.shipment.waybill_no).toMatch(/^SF\d{13}$/);
    expect(await ctx.orderRow(id)).toMatchObject({ status: 'processing', step: 'returning' });
    // The customer is told, with the waybill.
    const shipped = await ctx.t.db.selectFrom('notice').select(['kind', 'body']).where('user_order_id', '=', id).where('kind', '=', 'ship_back').execute();
    expect(shipped).toHaveLength(1);
    expect(shipped[0]!.body).toContain(sent.result!.shipment.waybill_no);
    // Shipping twice is refused by the state.
    expect((await op.callContract(adminShipBackSend, { user_order_id: id, version: sent.result!.version, pickup_window: ctx.window() })).body.ret).toBe(
      ErrorCode.ORDER_STATE_INVALID,
    );

    // The customer sees the parcel; another enterprise does not.
    const seen = await ctx.t.callContract(returnParcel, { user_order_id: id }, { token: alice.token });
    expect(seen.result!.shipments).toHaveLength(1);
    expect(seen.result!.return_address).toMatchObject({ kind_label: '回寄地址' });
    expect((await ctx.t.callContract(returnParcel, { user_order_id: id }, { token: bob.token })).body.ret).toBe(ErrorCode.ORDER_NOT_FOUND);

    await deliverAll();
    expect(await ctx.orderRow(id)).toMatchObject({ status: 'completed', step: null });
    expect(await events(id)).toContain('return_delivered');
    const tracked = await ctx.t.callContract(returnTracking, { user_order_id: id }, { token: alice.token });
    expect(tracked.result!.order.status).toBe('completed');
    expect(tracked.result!.shipments[0]!.status).toBe('delivered');
    expect(tracked.result!.shipments[0]!.routes.length).toBeGreaterThan(1);
    const told = await ctx.t.db.selectFrom('notice').select(['kind', 'title']).where('user_order_id', '=', id).where('kind', '=', 'return_delivered').execute();
    expect(told).toEqual([{ kind: 'return_delivered', title: '护照已签收，订单已完成' }]);

    // Under 已完成; not under 办理中 nor 需要处理.
    const tab = async (key: 'completed' | 'processing' | 'action' | 'closed') =>
      (await ctx.t.callContract(orderList, { tab: key, page: 1 }, { token: alice.token })).result!.page_data.map((o) => o.user_order_id);
    expect(await tab('completed')).toContain(id);
    expect(await tab('processing')).not.toContain(id);
    expect(await tab('action')).not.toContain(id);

    // The announcement told again (a second instance, a retry) changes nothing.
    await ctx.t.app.courier.service.announceDue();
    expect((await events(id)).filter((e) => e === 'return_delivered')).toHaveLength(1);
  });

  it('ships back to a peer address snapshot; delivery learnt by the query fallback (刷新物流) completes the order', async () => {
    const op = await ctx.t.operator();
    const id = await ctx.submittedOrder(alice, op, { returnAddress: { ...RETURN_ADDRESS, kind: 'peer', company_name: '深圳同行旅行社', name: '陈同行' } });
    await allResults(op, id, ['issued']);
    const panel = (await op.callContract(adminShipBackGet, { user_order_id: id })).result!;
    expect(panel.return_address).toMatchObject({ kind: 'peer', kind_label: '同行地址', company_name: '深圳同行旅行社' });
    const sent = await op.callContract(adminShipBackSend, { user_order_id: id, version: panel.order.version, pickup_window: ctx.window() });
    expect(sent.body.ret).toBe(0);
    expect(sent.result!.shipment.receiver).toMatchObject({ name: '陈同行', company_name: '深圳同行旅行社' });
    // No push arrives (lost): the operator's 刷新物流 asks the sandbox, which knows it delivered.
    ctx.t.clock.now += 30 * 60_000;
    const refreshed = await op.callContract(adminReturnTracking, { user_order_id: id });
    expect(refreshed.body.ret).toBe(0);
    expect(refreshed.result!.shipments[0]!.status).toBe('delivered');
    expect(refreshed.result!.order.status).toBe('completed');
  });

  it('every applicant refused with 拒签退全款: delivered → refunded, under 已取消/已退款', async () => {
    const op = await ctx.t.operator();
    const id = await ctx.submittedOrder(alice, op, { rejectRefund: 1 });
    await allResults(op, id, ['rejected']);
    const panel = (await op.callContract(adminShipBackGet, { user_order_id: id })).result!;
    expect(panel.outcome).toBe('refunded');
    expect((await op.callContract(adminShipBackSend, { user_order_id: id, version: panel.order.version, pickup_window: ctx.window() })).body.ret).toBe(0);
    await deliverAll();
    expect(await ctx.orderRow(id)).toMatchObject({ status: 'refunded', step: null });
    const closed = (await ctx.t.callContract(orderList, { tab: 'closed', page: 1 }, { token: alice.token })).result!.page_data.map((o) => o.user_order_id);
    expect(closed).toContain(id);
    const told = await ctx.t.db.selectFrom('notice').select('title').where('user_order_id', '=', id).where('kind', '=', 'return_delivered').execute();
    expect(told).toEqual([{ title: '护照已签收，订单已退款' }]);
  });

  it('every applicant refused without 拒签退全款: completed', async () => {
    const op = await ctx.t.operator();
    const id = await ctx.submittedOrder(alice, op, { rejectRefund: 0 });
    await allResults(op, id, ['rejected']);
    const panel = (await op.callContract(adminShipBackGet, { user_order_id: id })).result!;
    expect(panel.outcome).toBe('completed');
    expect((await op.callContract(adminShipBackSend, { user_order_id: id, version: panel.order.version, pickup_window: ctx.window() })).body.ret).toBe(0);
    await deliverAll();
    expect((await ctx.orderRow(id)).status).toBe('completed');
  });

  it('complete: only when everyone is done and no passports are held (e-visa product)', async () => {
    const op = await ctx.t.operator();
    const product = await ctx.t.insertProduct({ mailed: false });
    await ctx.tagEvisa(product.visa_product_id);
    const id = await ctx.submittedOrder(alice, op, { mailed: false, visaProductId: product.visa_product_id, returnAddress: null });
    const [first, ...rest] = await ctx.applicantIds(id);
    await ctx.result(op, id, first!, 'issued');
    let panel = (await op.callContract(adminShipBackGet, { user_order_id: id })).result!;
    expect(panel).toMatchObject({ evisa: true, holds_passports: false, can_complete: false, can_ship_back: false });
    if (rest.length > 0) {
      expect((await op.callContract(adminOrderComplete, { user_order_id: id, version: panel.order.version })).body.ret).toBe(
        ErrorCode.SHIP_BACK_RESULTS_PENDING,
      );
      for (const applicantId of rest) await ctx.result(op, id, applicantId, 'issued');
    }
    panel = (await op.callContract(adminShipBackGet, { user_order_id: id })).result!;
    expect(panel.can_complete).toBe(true);
    // Nothing to send back: ship back is refused.
    expect((await op.callContract(adminShipBackSend, { user_order_id: id, version: panel.order.version, pickup_window: ctx.window() })).body.ret).toBe(
      ErrorCode.SHIP_BACK_NOTHING_TO_RETURN,
    );
    expect((await op.callContract(adminOrderComplete, { user_order_id: id, version: panel.order.version - 1 })).body.ret).toBe(ErrorCode.SHIP_BACK_ORDER_STALE);
    const done = await op.callContract(adminOrderComplete, { user_order_id: id, version: panel.order.version });
    expect(done.body.ret).toBe(0);
    expect(done.result).toMatchObject({ status: 'completed', status_label: '已完成' });
    expect(await events(id)).toContain('complete');
    expect(await ctx.t.db.selectFrom('notice').select('title').where('user_order_id', '=', id).where('kind', '=', 'complete').execute()).toEqual([
      { title: '订单已完成' },
    ]);
    // Twice: refused by the state.
    expect((await op.callContract(adminOrderComplete, { user_order_id: id, version: done.result!.version })).body.ret).toBe(ErrorCode.ORDER_STATE_INVALID);
  });

  it('complete with every applicant refused and 拒签退全款 → refunded', async () => {
    const op = await ctx.t.operator();
    const id = await ctx.submittedOrder(alice, op, { mailed: false, rejectRefund: 1 });
    await allResults(op, id, ['rejected']);
    const panel = (await op.callContract(adminShipBackGet, { user_order_id: id })).result!;
    const done = await op.callContract(adminOrderComplete, { user_order_id: id, version: panel.order.version });
    expect(done.result).toMatchObject({ status: 'refunded' });
  });

  it('a submitted-or-later, completed or refunded order never asks for a new departure date', async () => {
    const op = await ctx.t.operator();
    const returning = await ctx.submittedOrder(alice, op);
    await allResults(op, returning, ['issued']);
    const v = (await op.callContract(adminShipBackGet, { user_order_id: returning })).result!.order.version;
    expect((await op.callContract(adminShipBackSend, { user_order_id: returning, version: v, pickup_window: ctx.window() })).body.ret).toBe(0);
    const submitted = await ctx.submittedOrder(alice, op);
    const refunded = await ctx.submittedOrder(alice, op, { mailed: false, rejectRefund: 1 });
    await allResults(op, refunded, ['rejected']);
    await op.callContract(adminOrderComplete, { user_order_id: refunded, version: (await ctx.orderRow(refunded)).version });
    const completed = await ctx.submittedOrder(alice, op, { mailed: false });
    await allResults(op, completed, ['issued']);
    await op.callContract(adminOrderComplete, { user_order_id: completed, version: (await ctx.orderRow(completed)).version });
    const ids = [returning, submitted, refunded, completed];
    // The control: an order still in the review (before submission) is asked.
    const inReview = await ctx.paidOrder(alice);
    // Their departure dates are long past.
    await ctx.t.db
      .updateTable('user_order')
      .set({ departure_date: '2026-01-05' })
      .where('user_order_id', 'in', [...ids, inReview])
      .execute();
    expect((await ctx.t.callContract(orderDetailGet, { user_order_id: inReview }, { token: alice.token })).result!.departure_date_past).toBe(true);
    expect((await ctx.t.callContract(orderList, { tab: 'action', page: 1 }, { token: alice.token })).result!.page_data.map((o) => o.user_order_id)).toContain(
      inReview,
    );
    const action = (await ctx.t.callContract(orderList, { tab: 'action', page: 1 }, { token: alice.token })).result!.page_data;
    for (const id of ids) expect(action.map((o) => o.user_order_id)).not.toContain(id);
    const all = (await ctx.t.callContract(orderList, { tab: 'all', page: 1 }, { token: alice.token })).result!.page_data.filter((o) =>
      ids.includes(o.user_order_id),
    );
    expect(all).toHaveLength(4);
    for (const order of all) {
      expect(order.actions).not.toContain('choose_departure_date');
      expect(isDeparturePast(order, '2026-12-31')).toBe(false);
      expect(orderActions(order, '2026-12-31')).not.toContain('choose_departure_date');
    }
    expect(new Set(all.map((o) => o.status))).toEqual(new Set(['processing', 'refunded', 'completed']));
    // The detail page's departure-date-past dialog opens on departure_date_past: never for these.
    for (const id of ids) {
      const detail = await ctx.t.callContract(orderDetailGet, { user_order_id: id }, { token: alice.token });
      expect(detail.result!.departure_date_past, `order ${id}`).toBe(false);
    }
  });

  it('bad input is refused with an error code, never a 500', async () => {
    const op = await ctx.t.operator();
    const id = await ctx.submittedOrder(alice, op);
    await allResults(op, id, ['issued']);
    const version = (await ctx.orderRow(id)).version;
    const bad: Array<[string, unknown]> = [
      ['/admin-api/order/ship_back_send', { user_order_id: id, version, pickup_window: { start: 'x', end: 1 } }],
      ['/admin-api/order/ship_back_send', { user_order_id: id, version, pickup_window: { start: 1, end: 2 } }],
      ['/admin-api/order/ship_back_send', { user_order_id: -1, version, pickup_window: ctx.window() }],
      ['/admin-api/order/ship_back_send', { user_order_id: 999_999_999, version: 0, pickup_window: ctx.window() }],
      ['/admin-api/order/ship_back_send', {}],
      ['/admin-api/order/complete', { user_order_id: 'abc', version: 1 }],
      ['/admin-api/order/complete', { user_order_id: id, version: -5 }],
      ['/admin-api/order/ship_back', { user_order_id: 0 }],
      ['/admin-api/order/return_tracking', { user_order_id: null }],
    ];
    for (const [path, payload] of bad) {
      const answer = await op.call(path, payload);
      expect(answer.status, path).toBeLessThan(500);
      expect(answer.body.ret, `${path} ${JSON.stringify(payload)}`).not.toBe(0);
    }
    for (const path of ['/www/order/return_parcel', '/www/order/return_tracking']) {
      const answer = await ctx.t.call(path, { user_order_id: 'x' }, { token: alice.token });
      expect(answer.status).toBeLessThan(500);
      expect(answer.body.ret).toBe(ErrorCode.INVALID_PARAMS);
    }
    // A customer cannot reach the back office's calls.
    expect((await ctx.t.call('/admin-api/order/complete', { user_order_id: id, version }, { token: alice.token })).body.ret).not.toBe(0);
    // Nothing happened to the order.
    expect(await ctx.orderRow(id)).toMatchObject({ status: 'processing', step: 'submitted', version });
  });
});
