// 物流异常 (issue 25, decision 0039): a return parcel whose tracking stopped
// (not delivered COURIER_ATTENTION_DAYS after it was booked) or whose last
// event is a failed delivery or a return shows in the ship-back panel, and
// the operator records by hand — with a note — that it was delivered
// (return_confirm: the order completes) or came back (return_back: the order
// is submitted again and the passports can be shipped anew), each through
// the lifecycle, offered only when allowed_events says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminOrderQueue, adminOrderWorkbench } from '../../../common/contracts/admin-order.ts';
import { adminReturnRecord, adminShipBackGet, adminShipBackSend } from '../../../common/contracts/ship-back.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { DEV_COURIER_SANDBOX_CHECK_WORD } from '../../config.ts';
import { formatAcceptTime } from '../courier/sf-format.ts';
import { signedSfForm } from '../courier/sandbox-signature.ts';
import type { Customer } from '../../test-support/fixtures/material.ts';
import { type Op, shipBackTestContext, type ShipBackTestContext } from '../../test-support/fixtures/ship-back.ts';

let ctx: ShipBackTestContext;
let alice: Customer;
const DAY = 86_400_000;

beforeAll(async () => {
  ctx = await shipBackTestContext();
  alice = await ctx.customer();
});
afterAll(async () => {
  await ctx?.close();
});

/** An order in 护照寄回中 with its return parcel booked; returns the order, the parcel and the version. */
async function returning(op: Op) {
  const id = await ctx.submittedOrder(alice, op);
  for (const applicantId of await ctx.applicantIds(id)) await ctx.result(op, id, applicantId, 'issued');
  const panel = (await op.callContract(adminShipBackGet, { user_order_id: id })).result!;
  const sent = await op.callContract(adminShipBackSend, { user_order_id: id, version: panel.order.version, pickup_window: ctx.window() });
  expect(sent.body.ret).toBe(0);
  return { id, shipment: sent.result!.shipment, version: sent.result!.version };
}

/** The work queue's 物流异常 filter: the orders it lists, and whether the row carries the tag. */
async function attentionQueue(op: Op) {
  const page = (await op.callContract(adminOrderQueue, { assignee: 'all', courier: 'attention', page: 1, page_size: 100 })).result!;
  expect(page.list.every((row) => row.courier_attention)).toBe(true);
  return page.list.map((row) => row.user_order_id);
}

async function allowed(op: Op, id: number) {
  return (await op.callContract(adminOrderWorkbench, { user_order_id: id })).result!.order.allowed_events;
}

/** The courier's signed route push of one event (the sandbox's account, as SF signs). */
async function push(waybillNo: string, shipmentNo: string, opCode: string, at: number, remark: string) {
  // The test app runs the sandbox on its development account.
  const body = signedSfForm(
    { partnerId: 'YQT_SANDBOX', checkWord: DEV_COURIER_SANDBOX_CHECK_WORD },
    'RoutePushService',
    JSON.stringify({ Body: { WaybillRoute: [{ id: `${at}`, mailno: waybillNo, orderid: shipmentNo, acceptTime: formatAcceptTime(at), remark, opCode }] } }),
    ctx.t.clock.now,
  );
  const response = await ctx.t.app.inject({
    method: 'POST',
    url: '/courier/notify/sandbox',
    payload: body,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(response.json()).toMatchObject({ return_code: '0000' });
}

describe(`物流异常: return parcels needing a person (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('tracking stopped: listed after COURIER_ATTENTION_DAYS; 登记已签收 with a note completes the order through return_confirm', async () => {
    const op = await ctx.t.operator();
    const { id, shipment, version } = await returning(op);
    expect((await op.callContract(adminShipBackGet, { user_order_id: id })).result!.attention).toEqual([]);
    expect(await allowed(op, id)).toEqual(expect.arrayContaining(['return_confirm', 'return_back']));

    // No push for six days (the default limit is five): the parcel was booked six days ago
    // (moving the clock instead would end the test's sessions).
    await ctx.t.db
      .updateTable('shipment')
      .set((eb) => ({ created_at: eb('created_at', '-', 6 * DAY) }))
      .where('shipment_id', '=', shipment.shipment_id)
      .execute();
    const panel = (await op.callContract(adminShipBackGet, { user_order_id: id })).result!;
    expect(panel.attention).toEqual([
      {
        shipment_id: shipment.shipment_id,
        waybill_no: shipment.waybill_no,
        reason: 'no_delivery',
        reason_label: '超过时限仍未签收',
        since: expect.any(Number),
        remark: null,
      },
    ]);

    expect(await attentionQueue(op)).toContain(id);

    // Refused: no note, a stale version, a parcel that is not this order's return parcel, another operator.
    const record = (change: Partial<{ version: number; shipment_id: number; note: string }>, who: Op = op) =>
      who.callContract(adminReturnRecord, {
        user_order_id: id,
        version,
        shipment_id: shipment.shipment_id,
        outcome: 'delivered',
        note: '客户来电确认已收到护照',
        ...change,
      });
    expect((await record({ note: ' 好' })).body.ret).toBe(ErrorCode.INVALID_PARAMS);
    expect((await record({ version: version - 1 })).body.ret).toBe(ErrorCode.SHIP_BACK_ORDER_STALE);
    expect((await record({ shipment_id: 999_999 })).body.ret).toBe(ErrorCode.COURIER_SHIPMENT_NOT_FOUND);
    expect((await record({}, await ctx.t.operator())).body.ret).toBe(ErrorCode.REVIEW_NOT_ASSIGNEE);
    expect(await ctx.orderRow(id)).toMatchObject({ status: 'processing', step: 'returning' });

    const done = await record({});
    expect(done.body.ret).toBe(0);
    expect(done.result).toMatchObject({ status: 'completed', step: null });
    const audit = await ctx.t.db
      .selectFrom('order_event')
      .select(['event', 'actor', 'detail'])
      .where('user_order_id', '=', id)
      .orderBy('event_id', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ event: 'return_confirm', actor: 'operator' });
    expect(String(audit.detail)).toContain('客户来电确认已收到护照');
    const parcel = await ctx.t.app.courier.service.shipment(shipment.shipment_id);
    expect(parcel.status).toBe('delivered');
    expect(parcel.routes.at(-1)).toMatchObject({ op_code: 'received', remark: '易签通登记已签收：客户来电确认已收到护照' });
    // The courier's announcement of that delivery finds the order done: no return_delivered on top.
    await ctx.t.app.courier.service.announceDue();
    expect((await ctx.events(id)).map((e) => e.event)).not.toContain('return_delivered');
    const told = await ctx.t.db.selectFrom('notice').select('title').where('user_order_id', '=', id).where('kind', '=', 'return_delivered').execute();
    expect(told).toEqual([{ title: '护照已签收，订单已完成' }]);
    expect(await attentionQueue(op)).not.toContain(id);
    // Nothing left to record: the lifecycle no longer offers it, the call is refused.
    expect(await allowed(op, id)).not.toContain('return_confirm');
    expect((await record({ version: done.result!.version })).body.ret).toBe(ErrorCode.ORDER_STATE_INVALID);
  });

  it('a failed delivery or return pushed by the courier is listed at once; 登记已退回 sends the order back to submitted, and a new parcel finishes it', async () => {
    const op = await ctx.t.operator();
    const { id, shipment, version } = await returning(op);
    await push(shipment.waybill_no, shipment.shipment_no, '50', ctx.t.clock.now - 60_000, '顺丰速运 已收取快件');
    await push(shipment.waybill_no, shipment.shipment_no, '70', ctx.t.clock.now, '收件人电话无人接听，派送不成功');
    let panel = (await op.callContract(adminShipBackGet, { user_order_id: id })).result!;
    expect(panel.attention).toMatchObject([{ reason: 'failed_delivery', remark: '收件人电话无人接听，派送不成功' }]);
    expect(await attentionQueue(op)).toContain(id);
    // A later scan that is not an exception clears it (on its way again) …
    await push(shipment.waybill_no, shipment.shipment_no, '44', ctx.t.clock.now + 60_000, '快件交给王师傅，正在派送途中');
    expect((await op.callContract(adminShipBackGet, { user_order_id: id })).result!.attention).toEqual([]);
    expect(await attentionQueue(op)).not.toContain(id);
    // … and a return brings it back.
    await push(shipment.waybill_no, shipment.shipment_no, '648', ctx.t.clock.now + 120_000, '快件已退回');
    panel = (await op.callContract(adminShipBackGet, { user_order_id: id })).result!;
    expect(panel.attention).toMatchObject([{ reason: 'returned', reason_label: '快件退回或转寄' }]);

    const back = await op.callContract(adminReturnRecord, {
      user_order_id: id,
      version: panel.order.version,
      shipment_id: shipment.shipment_id,
      outcome: 'returned',
      note: '快递退回服务中心，待与客户核对地址',
    });
    expect(back.body.ret).toBe(0);
    expect(back.result).toMatchObject({ status: 'processing', step: 'submitted' });
    expect((await ctx.events(id)).at(-1)).toMatchObject({ event: 'return_back', from_step: 'returning', to_step: 'submitted' });
    const row = await ctx.t.db.selectFrom('shipment').select(['next_query_at']).where('shipment_id', '=', shipment.shipment_id).executeTakeFirstOrThrow();
    expect(row.next_query_at).toBeNull();
    expect((await ctx.t.db.selectFrom('notice').select('kind').where('user_order_id', '=', id).where('kind', '=', 'return_back').execute()).length).toBe(1);

    // The passports are with us again: ship them anew; that parcel's delivery completes the order.
    panel = (await op.callContract(adminShipBackGet, { user_order_id: id })).result!;
    expect(panel).toMatchObject({ can_ship_back: true, attention: [] });
    expect(await attentionQueue(op)).not.toContain(id);
    const again = await op.callContract(adminShipBackSend, { user_order_id: id, version: panel.order.version, pickup_window: ctx.window() });
    expect(again.body.ret).toBe(0);
    ctx.t.clock.now += 30 * 60_000;
    await ctx.t.app.courier.sandbox.pusher.runDue();
    expect(await ctx.orderRow(id)).toMatchObject({ status: 'completed' });
    expect((await ctx.events(id)).map((e) => e.event).slice(-2)).toEqual(['ship_back', 'return_delivered']);
    expect(version).toBeGreaterThan(0);
  });
});
