// The price difference (补差价) through the real app on SQLite or PostgreSQL
// (TEST_DATABASE_URL): the operator's calls and their guards (not processing,
// stale version, a second open one, bad amounts), the customer paying it
// through the payment module (duplicated and badly signed notifications),
// the order's totals, list tab and notices, and cancelling.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPriceDifferenceCancel, adminPriceDifferenceList, adminPriceDifferenceRequest } from '../../../common/contracts/price-difference.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { type Customer, type PaymentTestContext, paymentTestContext } from '../../test-support/fixtures/payment.ts';

let ctx: PaymentTestContext;
let alice: Customer;
let op: Awaited<ReturnType<PaymentTestContext['t']['operator']>>;

beforeAll(async () => {
  ctx = await paymentTestContext();
  alice = await ctx.customer();
  op = await ctx.t.operator();
});
afterAll(() => ctx.close());

/** Pays the order's own QR code at the sandbox and lets the signed notification through: processing · material_review. */
async function paidOrder(customer: Customer): Promise<number> {
  const { userOrderId } = await ctx.pendingOrder(customer);
  const outTradeNo = await payAtSandbox(customer, userOrderId);
  const note = await ctx.signedNotification(outTradeNo);
  expect((await ctx.postNotification(note.body, note.headers)).status).toBe(200);
  expect((await ctx.order(userOrderId)).status).toBe('processing');
  // Taken by the operator (the assignee is told when the difference is paid).
  await ctx.t.db.updateTable('user_order').set({ assignee_operator_id: op.operatorId }).where('user_order_id', '=', userOrderId).execute();
  return userOrderId;
}

async function payAtSandbox(customer: Customer, userOrderId: number, priceDifferenceId?: number): Promise<string> {
  const created = await ctx.call(
    '/www/payment/payment_create',
    { user_order_id: userOrderId, channel: 'wechat', ...(priceDifferenceId ? { price_difference_id: priceDifferenceId } : {}) },
    customer,
  );
  expect(created.ret, created.msg).toBe(0);
  const outTradeNo = created.body.out_trade_no as string;
  expect(
    await ctx.t.app.payments.sandbox.ledger.pay(outTradeNo, { at: ctx.t.clock.now, provider_trade_no: `4200${outTradeNo}`, notify_id: `N-${outTradeNo}` }),
  ).toBe(true);
  return outTradeNo;
}

async function panel(userOrderId: number) {
  return (await op.callContract(adminPriceDifferenceList, { user_order_id: userOrderId })).result!;
}

async function request(userOrderId: number, amount = 5_000, reason = '使馆签证费上调', version?: number) {
  return op.callContract(adminPriceDifferenceRequest, { user_order_id: userOrderId, version: version ?? (await panel(userOrderId)).version, amount, reason });
}

async function detail(customer: Customer, userOrderId: number) {
  return ctx.call('/www/order/order_detail_get', { user_order_id: userOrderId }, customer);
}

describe(`price difference (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('is refused before payment (not processing), with a stale version, a bad amount or reason, and a second open one', async () => {
    const { userOrderId: unpaid } = await ctx.pendingOrder(alice);
    expect((await request(unpaid)).body.ret).toBe(ErrorCode.PRICE_DIFFERENCE_ORDER_NOT_PROCESSING);

    const id = await paidOrder(alice);
    const { version } = await panel(id);
    expect((await request(id, 5_000, '使馆签证费上调', version - 1)).body.ret).toBe(ErrorCode.PRICE_DIFFERENCE_ORDER_STALE);
    expect((await request(id, 0)).body.ret).toBe(ErrorCode.PRICE_DIFFERENCE_AMOUNT_INVALID);
    expect((await request(id, -100)).body.ret).toBe(ErrorCode.PRICE_DIFFERENCE_AMOUNT_INVALID);
    expect((await request(id, 12.5)).body.ret).toBe(ErrorCode.PRICE_DIFFERENCE_AMOUNT_INVALID);
    expect((await request(id, 5_000, '  ')).body.ret).toBe(ErrorCode.PRICE_DIFFERENCE_REASON_INVALID);
    // Nothing was written by the refusals.
    expect(await panel(id)).toMatchObject({ version, price_difference_due: 0, list: [], can_request: true });

    const first = await request(id);
    expect(first.body.ret).toBe(0);
    expect(first.result).toMatchObject({ price_difference_due: 5_000, can_request: false, list: [{ amount: 5_000, status: 'open', requested_by: op.name }] });
    expect((await request(id, 800)).body.ret).toBe(ErrorCode.PRICE_DIFFERENCE_ALREADY_OPEN);
    // The database holds the rule too: a second open row is refused by its index.
    await expect(
      ctx.t.db
        .insertInto('price_difference')
        .values({ user_order_id: id, amount: 1, reason: 'x', status: 'open', requested_by: op.operatorId, created_at: 0, updated_at: 0 })
        .execute(),
    ).rejects.toThrow();
    // A customer token is refused on the back office's call.
    expect((await ctx.t.call(adminPriceDifferenceList.path, { user_order_id: id }, { token: alice.token })).body.ret).toBe(ErrorCode.NOT_LOGGED_IN);
  });

  it('is paid through the payment module: duplicated notification changes nothing, a bad signature is refused; totals, tab and notices', async () => {
    const id = await paidOrder(alice);
    const requested = (await request(id, 5_000)).result!;
    const differenceId = requested.list[0]!.price_difference_id;

    // The customer sees it: 需要处理 with 补差价, and the notice links to the detail's repay section.
    const listed = await ctx.call('/www/order/order_list', { tab: 'action' }, alice);
    expect(listed.body.page_data.find((row: { user_order_id: number }) => row.user_order_id === id)).toMatchObject({
      needs_action: true,
      actions: expect.arrayContaining(['pay_price_difference']),
    });
    const notice = await ctx.t.db
      .selectFrom('notice')
      .selectAll()
      .where('user_order_id', '=', id)
      .where('kind', '=', 'price_difference_request')
      .executeTakeFirstOrThrow();
    expect(notice).toMatchObject({ recipient_kind: 'customer', recipient_id: alice.accountId, link: `/order/order-detail/${id}#repay-price-difference` });

    // Another enterprise cannot pay it (1801, like a missing order); a wrong id is 2164.
    const bob = await ctx.customer();
    expect((await ctx.call('/www/payment/payment_create', { user_order_id: id, channel: 'wechat', price_difference_id: differenceId }, bob)).ret).toBe(
      ErrorCode.ORDER_NOT_FOUND,
    );
    expect((await ctx.call('/www/payment/payment_create', { user_order_id: id, channel: 'wechat', price_difference_id: differenceId + 999 }, alice)).ret).toBe(
      ErrorCode.PRICE_DIFFERENCE_NOT_FOUND,
    );

    const outTradeNo = await payAtSandbox(alice, id, differenceId);
    expect(await ctx.payment(outTradeNo)).toMatchObject({ amount: 5_000, status: 'pending' });
    const note = await ctx.signedNotification(outTradeNo);

    // A bad signature: refused, nothing booked.
    const forged = await ctx.postNotification(note.body, { ...note.headers, 'sandboxpay-signature': Buffer.alloc(32).toString('base64') });
    expect(forged.status).toBe(401);
    expect((await panel(id)).price_difference_due).toBe(5_000);

    const before = (await panel(id)).version;
    expect((await ctx.postNotification(note.body, note.headers)).status).toBe(200);
    const after = await panel(id);
    expect(after).toMatchObject({ price_difference_due: 0, price_difference_paid: 5_000, version: before + 1, list: [{ status: 'paid' }] });
    expect(await ctx.payment(outTradeNo)).toMatchObject({ status: 'paid' });

    // The same notification again: answered ok, nothing changes.
    expect((await ctx.postNotification(note.body, note.headers)).status).toBe(200);
    expect(await panel(id)).toMatchObject({ version: after.version, price_difference_paid: 5_000 });
    expect((await ctx.events(id, 'price_difference_pay')).length).toBe(1);
    expect((await ctx.notifications(outTradeNo)).map((row) => row.outcome)).toEqual(['bad_signature', 'paid', 'duplicate']);

    // The dialog's question answers by the price difference.
    const queried = await ctx.call('/www/payment/payment_query', { user_order_id: id, out_trade_no: outTradeNo }, alice);
    expect(queried.body).toMatchObject({ payment: { status: 'paid', price_difference_id: differenceId }, price_difference: { status: 'paid' } });

    // The order's totals and payments show both; the assignee is told.
    const shown = (await detail(alice, id)).body;
    expect(shown.payments).toHaveLength(2);
    expect(shown.payments.map((p: { price_difference_id: number | null }) => p.price_difference_id)).toEqual([null, differenceId]);
    expect(shown).toMatchObject({ price_difference_due: 0, price_difference_paid: 5_000, paid_total: shown.total_amount + 5_000, needs_action: false });
    expect(shown.actions).not.toContain('pay_price_difference');
    const told = await ctx.t.db.selectFrom('notice').selectAll().where('user_order_id', '=', id).where('kind', '=', 'price_difference_pay').execute();
    expect(told).toMatchObject([{ recipient_kind: 'operator', recipient_id: op.operatorId, link: `/admin/orders/${id}` }]);

    // Paid: no longer payable or cancellable; a new one may be asked.
    expect((await ctx.call('/www/payment/payment_create', { user_order_id: id, channel: 'alipay', price_difference_id: differenceId }, alice)).ret).toBe(
      ErrorCode.PRICE_DIFFERENCE_NOT_OPEN,
    );
    expect((await op.callContract(adminPriceDifferenceCancel, { user_order_id: id, price_difference_id: differenceId, version: after.version })).body.ret).toBe(
      ErrorCode.PRICE_DIFFERENCE_NOT_OPEN,
    );
  });

  it('cancels an unpaid one (stale version refused); money arriving for it afterwards is kept for a refund', async () => {
    const id = await paidOrder(alice);
    const differenceId = (await request(id, 1_200)).result!.list[0]!.price_difference_id;
    const outTradeNo = await payAtSandbox(alice, id, differenceId);
    const { version } = await panel(id);
    expect((await op.callContract(adminPriceDifferenceCancel, { user_order_id: id, price_difference_id: differenceId, version: version + 1 })).body.ret).toBe(
      ErrorCode.PRICE_DIFFERENCE_ORDER_STALE,
    );
    const cancelled = await op.callContract(adminPriceDifferenceCancel, { user_order_id: id, price_difference_id: differenceId, version });
    expect(cancelled.result).toMatchObject({ price_difference_due: 0, can_request: true, list: [{ status: 'cancelled' }] });
    // The customer who was asked to pay is told they need not (in-app; e-mailed when the account has an address).
    const told = await ctx.t.db.selectFrom('notice').selectAll().where('user_order_id', '=', id).where('kind', '=', 'price_difference_cancel').execute();
    expect(told).toMatchObject([{ recipient_kind: 'customer', recipient_id: alice.accountId, title: '补差价已取消', link: `/order/order-detail/${id}` }]);
    expect(
      (await ctx.call('/www/order/order_list', { tab: 'action' }, alice)).body.page_data.map((r: { user_order_id: number }) => r.user_order_id),
    ).not.toContain(id);

    // The customer had paid the QR code meanwhile: the notification books it for a refund, the order is untouched.
    const note = await ctx.signedNotification(outTradeNo);
    expect((await ctx.postNotification(note.body, note.headers)).status).toBe(200);
    expect(await ctx.payment(outTradeNo)).toMatchObject({ status: 'refund_pending' });
    expect(await panel(id)).toMatchObject({ price_difference_paid: 0, list: [{ status: 'cancelled' }] });
    expect((await ctx.events(id, 'payment_refund_due')).length).toBe(1);
  });
});
