// Invoices through the real app on SQLite or PostgreSQL (TEST_DATABASE_URL):
// the request (details checked, the tax id's check character, kept as the
// enterprise's default), the amount rule — never more than paid − refunded −
// what is already invoiced, server-enforced per order and again when issuing —
// another enterprise's order refused like a missing one, the operator's list,
// the PDF upload (checked by content and size: not a PDF refused), the
// customer's notice and e-mail and the download (the owner's only), the
// rejection, and a refund after issuing flagging the invoice for reversal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminInvoiceIssue,
  adminInvoiceList,
  adminInvoiceReject,
  adminInvoiceReversed,
  invoiceableOrders,
  invoiceList,
  invoiceRequest,
} from '../../../common/contracts/invoice.ts';
import { adminRefundCreate } from '../../../common/contracts/refund.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { creditCodeCheckChar, isCreditCode } from '../../../common/invoice.ts';
import { fixture } from '../../../tests/fixtures/index.ts';
import { multipart } from '../../test-support/fixtures/material.ts';
import { type Customer, eventually, type PaymentTestContext, paymentTestContext } from '../../test-support/fixtures/payment.ts';
import { signedHeaders } from '../../test-support/test-app.ts';

let ctx: PaymentTestContext;
let alice: Customer;
let bob: Customer;
let op: Awaited<ReturnType<PaymentTestContext['t']['operator']>>;
let boss: Awaited<ReturnType<PaymentTestContext['t']['operator']>>;

const code = (first17: string) => `${first17}${creditCodeCheckChar(first17)}`;
const TAX_ID = code('91110108MA01ABCD1');

const DETAILS = {
  title: '北京示例科技有限公司',
  tax_id: TAX_ID,
  address_phone: '北京市海淀区示例路 1 号 010-12345678',
  bank_account: '招商银行北京分行 110912345678901',
  email: 'finance@example.com',
};

beforeAll(async () => {
  ctx = await paymentTestContext();
  alice = await ctx.customer();
  bob = await ctx.customer();
  op = await ctx.t.operator();
  boss = await ctx.t.operator({ role: 'supervisor' });
});
afterAll(() => ctx.close());

async function paidOrder(customer: Customer): Promise<{ id: number; total: number }> {
  const { userOrderId, total } = await ctx.pendingOrder(customer);
  const created = await ctx.call('/www/payment/payment_create', { user_order_id: userOrderId, channel: 'wechat' }, customer);
  expect(created.ret, created.msg).toBe(0);
  const outTradeNo = created.body.out_trade_no as string;
  expect(
    await ctx.t.app.payments.sandbox.ledger.pay(outTradeNo, { at: ctx.t.clock.now, provider_trade_no: `4200${outTradeNo}`, notify_id: `N-${outTradeNo}` }),
  ).toBe(true);
  const note = await ctx.signedNotification(outTradeNo);
  expect((await ctx.postNotification(note.body, note.headers)).status).toBe(200);
  return { id: userOrderId, total };
}

async function refund(userOrderId: number, amount: number) {
  const version = (await ctx.order(userOrderId)).version;
  const made = await boss.callContract(adminRefundCreate, { user_order_id: userOrderId, version, amount, reason: '部分退款' });
  expect(made.body.ret, made.body.msg).toBe(0);
}

const request = (customer: Customer, orders: Array<{ user_order_id: number; amount?: number }>, details: Partial<typeof DETAILS> = {}) =>
  ctx.t.callContract(invoiceRequest, { ...DETAILS, ...details, orders }, { token: customer.token });

async function issue(invoiceId: number | string, content: Buffer, name = 'invoice.pdf', token = op.token) {
  const { body, contentType } = multipart({ invoice_id: invoiceId }, { content, name, type: 'application/pdf' });
  const response = await ctx.t.app.inject({
    method: 'POST',
    url: adminInvoiceIssue.path,
    headers: signedHeaders(ctx.t.clock, { token, headers: { 'content-type': contentType } }),
    payload: body,
  });
  const answer = response.json() as { ret: number; msg: string; body: any };
  if (answer.ret === 0) adminInvoiceIssue.result.parse(answer.body);
  return answer;
}

describe(`invoices (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('checks the unified social credit code by its check character', () => {
    expect(isCreditCode(TAX_ID)).toBe(true);
    expect(isCreditCode('91350100M000100Y43')).toBe(true);
    const wrong = TAX_ID.slice(0, 17) + (TAX_ID[17] === '0' ? '1' : '0');
    expect(isCreditCode(wrong)).toBe(false);
    expect(isCreditCode('91110108MA01ABCDI' + '0')).toBe(false);
    expect(isCreditCode('123')).toBe(false);
  });

  it('never invoices more than paid − refunded − already invoiced, per order (server-enforced)', async () => {
    const a = await paidOrder(alice);
    const b = await paidOrder(alice);
    const pending = (await ctx.pendingOrder(alice)).userOrderId;
    expect((await request(alice, [{ user_order_id: pending }])).body.ret).toBe(ErrorCode.INVOICE_ORDER_NOT_PAID);
    expect((await request(alice, [{ user_order_id: a.id, amount: a.total + 1 }])).body.ret).toBe(ErrorCode.INVOICE_AMOUNT_EXCEEDED);
    expect((await request(alice, [{ user_order_id: a.id, amount: 0 }])).body.ret).toBe(ErrorCode.INVOICE_AMOUNT_INVALID);
    // Part of a, then the rest of a and all of b in one invoice.
    const part = await request(alice, [{ user_order_id: a.id, amount: 5000 }]);
    expect(part.body.ret, part.body.msg).toBe(0);
    expect(part.result!.amount).toBe(5000);
    expect((await request(alice, [{ user_order_id: a.id, amount: a.total - 5000 + 1 }])).body.ret).toBe(ErrorCode.INVOICE_AMOUNT_EXCEEDED);
    // A refund lowers what can be invoiced.
    await refund(b.id, 1000);
    const free = (await ctx.t.callContract(invoiceableOrders, { user_order_ids: [a.id, b.id] }, { token: alice.token })).result!;
    expect(free.orders.map((o) => o.invoiceable)).toEqual([a.total - 5000, b.total - 1000]);
    expect(free.profile).toMatchObject({ title: DETAILS.title, tax_id: TAX_ID });
    expect((await request(alice, [{ user_order_id: b.id, amount: b.total }])).body.ret).toBe(ErrorCode.INVOICE_AMOUNT_EXCEEDED);
    const rest = await request(alice, [{ user_order_id: a.id }, { user_order_id: b.id }]);
    expect(rest.body.ret, rest.body.msg).toBe(0);
    expect(rest.result!.amount).toBe(a.total - 5000 + b.total - 1000);
    expect(rest.result!.orders.map((o) => o.amount)).toEqual([a.total - 5000, b.total - 1000]);
    expect((await request(alice, [{ user_order_id: a.id }])).body.ret).toBe(ErrorCode.INVOICE_AMOUNT_EXCEEDED);
  });

  it("refuses bad details, empty or repeated selections and another enterprise's order like a missing one", async () => {
    const a = await paidOrder(alice);
    const other = await paidOrder(bob);
    const missing = await request(alice, [{ user_order_id: a.id }, { user_order_id: 999_999 }]);
    const foreign = await request(alice, [{ user_order_id: a.id }, { user_order_id: other.id }]);
    expect(missing.body.ret).toBe(ErrorCode.ORDER_NOT_FOUND);
    expect(foreign.body).toEqual(missing.body);
    expect((await ctx.t.callContract(invoiceableOrders, { user_order_ids: [other.id] }, { token: alice.token })).body.ret).toBe(ErrorCode.ORDER_NOT_FOUND);
    expect((await request(alice, [])).body.ret).toBe(ErrorCode.INVOICE_ORDERS_EMPTY);
    expect((await request(alice, [{ user_order_id: a.id }, { user_order_id: a.id }])).body.ret).toBe(ErrorCode.INVOICE_ORDERS_EMPTY);
    const order = [{ user_order_id: a.id }];
    expect((await request(alice, order, { title: '甲' })).body.ret).toBe(ErrorCode.INVOICE_TITLE_INVALID);
    expect((await request(alice, order, { tax_id: '91110108MA01ABCD1X' })).body.ret).toBe(ErrorCode.INVOICE_TAX_ID_INVALID);
    expect((await request(alice, order, { tax_id: '12345' })).body.ret).toBe(ErrorCode.INVOICE_TAX_ID_INVALID);
    expect((await request(alice, order, { address_phone: '长'.repeat(201) })).body.ret).toBe(ErrorCode.INVOICE_ADDRESS_PHONE_INVALID);
    expect((await request(alice, order, { bank_account: '长'.repeat(201) })).body.ret).toBe(ErrorCode.INVOICE_BANK_INVALID);
    expect((await request(alice, order, { email: 'not-an-email' })).body.ret).toBe(ErrorCode.INVOICE_EMAIL_INVALID);
    // Lower case and spaces in the tax id are normalized.
    const ok = await request(alice, order, { tax_id: ` ${TAX_ID.slice(0, 9).toLowerCase()} ${TAX_ID.slice(9)}` });
    expect(ok.body.ret, ok.body.msg).toBe(0);
    expect(ok.result!.tax_id).toBe(TAX_ID);
    // Bob sees none of alice's invoices.
    const bobs = (await ctx.t.callContract(invoiceList, { page: 1 }, { token: bob.token })).result!;
    expect(bobs.total_count).toBe(0);
  });

  it('issues with a PDF only (content and size checked), tells the customer, serves the file to its enterprise only', async () => {
    const a = await paidOrder(alice);
    const asked = await request(alice, [{ user_order_id: a.id }], { email: 'tax-desk@example.com' });
    expect(asked.body.ret, asked.body.msg).toBe(0);
    const id = asked.result!.invoice_id;
    const listed = (await op.callContract(adminInvoiceList, { filter: 'requested', page: 1 })).result!;
    expect(listed.page_data.map((i) => i.invoice_id)).toContain(id);
    expect(listed.requested_count).toBeGreaterThan(0);

    expect((await issue(id, fixture('png'), 'invoice.pdf')).ret).toBe(ErrorCode.INVOICE_FILE_NOT_PDF);
    expect((await issue(id, fixture('renamedText'), 'invoice.pdf')).ret).toBe(ErrorCode.INVOICE_FILE_NOT_PDF);
    const big = Buffer.concat([fixture('pdf').subarray(0, 64), Buffer.alloc(5 * 1024 * 1024 + 10)]);
    expect((await issue(id, big)).ret).toBe(ErrorCode.MATERIAL_FILE_TOO_LARGE);
    expect((await issue(id, Buffer.alloc(0))).ret).toBe(ErrorCode.MATERIAL_FILE_EMPTY);
    expect((await issue(999_999, fixture('pdf'))).ret).toBe(ErrorCode.INVOICE_NOT_FOUND);
    expect((await issue('x', fixture('pdf'))).ret).toBe(ErrorCode.INVALID_PARAMS);
    // Nothing was kept of the refused uploads.
    expect(await ctx.t.db.selectFrom('invoice_file').selectAll().where('invoice_id', '=', id).execute()).toEqual([]);

    const issued = await issue(id, fixture('pdf'), '发票.pdf');
    expect(issued.ret, issued.msg).toBe(0);
    expect(issued.body.status).toBe('issued');
    expect((await issue(id, fixture('pdf'))).ret).toBe(ErrorCode.INVOICE_NOT_REQUESTED);

    const mine = (await ctx.t.callContract(invoiceList, { page: 1 }, { token: alice.token })).result!;
    const view = mine.page_data.find((i) => i.invoice_id === id)!;
    expect(view.status_label).toBe('已开票');
    expect(view.file?.url).toMatch(/^\/files\/invoice\/\d+\?v=/);
    const download = await ctx.t.app.inject({ method: 'GET', url: view.file!.url, headers: { 'x-token': alice.token } });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.rawPayload.equals(fixture('pdf'))).toBe(true);
    const foreign = await ctx.t.app.inject({ method: 'GET', url: view.file!.url, headers: { 'x-token': bob.token } });
    expect(foreign.statusCode).toBe(404);

    const notice = await ctx.t.db
      .selectFrom('notice')
      .selectAll()
      .where('recipient_id', '=', alice.accountId)
      .where('kind', '=', 'invoice')
      .orderBy('notice_id', 'desc')
      .executeTakeFirstOrThrow();
    expect(notice.title).toBe('电子发票已开具');
    await eventually(async () => {
      const mail = await ctx.t.db.selectFrom('notice_email').selectAll().where('notice_id', '=', notice.notice_id).executeTakeFirstOrThrow();
      expect(mail.to_address).toBe('tax-desk@example.com');
      expect(mail.status).toBe('sent');
    });
  });

  it('rejects a request with a reason; a refund after issuing flags the invoice for reversal until recorded', async () => {
    const a = await paidOrder(alice);
    const first = (await request(alice, [{ user_order_id: a.id, amount: 100 }])).result!;
    expect((await op.callContract(adminInvoiceReject, { invoice_id: first.invoice_id, reason: '1' })).body.ret).toBe(ErrorCode.INVOICE_REJECT_REASON_INVALID);
    const rejected = await op.callContract(adminInvoiceReject, { invoice_id: first.invoice_id, reason: '抬头与纳税人识别号不符' });
    expect(rejected.body.ret, rejected.body.msg).toBe(0);
    expect(rejected.result!.status).toBe('rejected');
    // A rejected invoice frees its amount.
    const second = await request(alice, [{ user_order_id: a.id }]);
    expect(second.body.ret, second.body.msg).toBe(0);
    expect(second.result!.amount).toBe(a.total);

    // A refund between the request and the issue: the issue is refused, the operator rejects it.
    ctx.t.clock.now += 60_000;
    await refund(a.id, 500);
    expect((await issue(second.result!.invoice_id, fixture('pdf'))).ret).toBe(ErrorCode.INVOICE_EXCEEDS_NOW);
    await op.callContract(adminInvoiceReject, { invoice_id: second.result!.invoice_id, reason: '订单已部分退款，请重新申请' });

    const third = (await request(alice, [{ user_order_id: a.id }])).result!;
    expect(third.amount).toBe(a.total - 500);
    expect((await issue(third.invoice_id, fixture('pdf'))).ret).toBe(0);
    expect((await op.callContract(adminInvoiceReversed, { invoice_id: third.invoice_id })).body.ret).toBe(ErrorCode.INVOICE_NOT_TO_REVERSE);
    // A refund after the invoice was issued.
    ctx.t.clock.now += 60_000;
    await refund(a.id, 300);
    const mine = (await ctx.t.callContract(invoiceList, { page: 1 }, { token: alice.token })).result!;
    expect(mine.page_data.find((i) => i.invoice_id === third.invoice_id)).toMatchObject({ reversal: 'due', reversal_label: '待红冲' });
    const queue = (await op.callContract(adminInvoiceList, { filter: 'reversal', page: 1 })).result!;
    expect(queue.page_data.map((i) => i.invoice_id)).toEqual([third.invoice_id]);
    expect(queue.reversal_count).toBe(1);
    const done = await op.callContract(adminInvoiceReversed, { invoice_id: third.invoice_id });
    expect(done.body.ret, done.body.msg).toBe(0);
    expect(done.result!.reversal).toBe('done');
    expect((await op.callContract(adminInvoiceReversed, { invoice_id: third.invoice_id })).body.ret).toBe(ErrorCode.INVOICE_NOT_TO_REVERSE);
    expect((await op.callContract(adminInvoiceList, { filter: 'reversal', page: 1 })).result!.reversal_count).toBe(0);
  });
});
