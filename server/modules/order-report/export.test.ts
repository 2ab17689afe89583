// The order export through the real app on SQLite or PostgreSQL
// (TEST_DATABASE_URL): the numbers of each order's first row equal the order
// detail's (paid_total, the refunds that arrived and those under way, the
// total), the applicant rows and visa details, the Chinese headers of both
// formats (CSV with a BOM), a selection, a 出行团组 and a date range, and bad
// input — an empty selection, another enterprise's order (the same 1801 as a
// missing one), a reversed range, no session.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderDetailGet } from '../../../common/contracts/order.ts';
import { orderGroupList, orderGroupSet } from '../../../common/contracts/report.ts';
import { adminRefundCreate } from '../../../common/contracts/refund.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { ORDER_EXPORT_COLUMNS } from '../../../common/report.ts';
import { EXPORTS_PER_MINUTE } from './report.module.ts';
import { type Customer, eventually, type PaymentTestContext, paymentTestContext } from '../../test-support/fixtures/payment.ts';

let ctx: PaymentTestContext;
let alice: Customer;
let bob: Customer;
let boss: Awaited<ReturnType<PaymentTestContext['t']['operator']>>;

beforeAll(async () => {
  ctx = await paymentTestContext();
  alice = await ctx.customer();
  bob = await ctx.customer();
  boss = await ctx.t.operator({ role: 'supervisor' });
});
afterAll(() => ctx.close());

async function paidOrder(customer: Customer): Promise<number> {
  const { userOrderId } = await ctx.pendingOrder(customer);
  const created = await ctx.call('/www/payment/payment_create', { user_order_id: userOrderId, channel: 'wechat' }, customer);
  expect(created.ret, created.msg).toBe(0);
  const outTradeNo = created.body.out_trade_no as string;
  expect(
    await ctx.t.app.payments.sandbox.ledger.pay(outTradeNo, { at: ctx.t.clock.now, provider_trade_no: `4200${outTradeNo}`, notify_id: `N-${outTradeNo}` }),
  ).toBe(true);
  const note = await ctx.signedNotification(outTradeNo);
  expect((await ctx.postNotification(note.body, note.headers)).status).toBe(200);
  return userOrderId;
}

async function download(query: string, customer: Customer | null = alice, format = 'xlsx') {
  return ctx.t.app.inject({ method: 'GET', url: `/files/export/orders.${format}?${query}`, headers: customer ? { 'x-token': customer.token } : {} });
}

async function workbookRows(query: string): Promise<Array<Array<string | number | null>>> {
  const response = await download(query);
  expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
  expect(response.headers['content-type']).toContain('spreadsheetml');
  expect(String(response.headers['content-disposition'])).toMatch(/^attachment;/);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
  const sheet = book.worksheets[0]!;
  const rows: Array<Array<string | number | null>> = [];
  sheet.eachRow((row) => {
    const values = row.values as Array<string | number | null | undefined>;
    rows.push(ORDER_EXPORT_COLUMNS.map((_, index) => values[index + 1] ?? null));
  });
  return rows;
}

const col = (name: (typeof ORDER_EXPORT_COLUMNS)[number]) => ORDER_EXPORT_COLUMNS.indexOf(name);

describe(`order export (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  let paid: number;
  let refunded: number;
  let unpaid: number;

  beforeAll(async () => {
    paid = await paidOrder(alice);
    refunded = await paidOrder(alice);
    unpaid = (await ctx.pendingOrder(alice)).userOrderId;
    // A refund by hand of part of the second order (supervisor).
    const version = (await ctx.order(refunded)).version;
    const made = await boss.callContract(adminRefundCreate, { user_order_id: refunded, version, amount: 1234, reason: '部分退款测试' });
    expect(made.body.ret, made.body.msg).toBe(0);
    // The sandbox pays it back at once: wait for it, so the file and the detail read the same state.
    await eventually(async () => {
      const row = await ctx.t.db.selectFrom('refund').select('status').where('user_order_id', '=', refunded).executeTakeFirstOrThrow();
      expect(row.status).toBe('succeeded');
    });
    // Test set-up: a visa result for the first applicant of the first order (the result module's business).
    const first = await ctx.t.db
      .selectFrom('order_applicant')
      .select(['applicant_id'])
      .where('user_order_id', '=', paid)
      .orderBy('sort')
      .executeTakeFirstOrThrow();
    const op = await ctx.t.operator();
    await ctx.t.db
      .insertInto('visa_result')
      .values({
        user_order_id: paid,
        applicant_id: first.applicant_id,
        result: 'issued',
        visa_no: 'V12345678',
        valid_from: '2026-12-20',
        valid_to: '2027-06-19',
        entries: '多次',
        stay_days: 30,
        reject_reasons: null,
        reject_note: null,
        file_id: null,
        operator_id: op.principal.operatorId,
        created_at: ctx.t.clock.now,
      })
      .execute();
  });

  it("puts each applicant on a row, with the order detail's numbers on the order's first row", async () => {
    const ids = [paid, refunded, unpaid];
    const rows = await workbookRows(`ids=${ids.join(',')}`);
    expect(rows[0]).toEqual([...ORDER_EXPORT_COLUMNS]);
    const body = rows.slice(1);
    expect(body).toHaveLength(6);
    for (const id of ids) {
      const detail = (await ctx.t.callContract(orderDetailGet, { user_order_id: id }, { token: alice.token })).result!;
      const mine = body.filter((row) => row[col('订单号')] === detail.order_no);
      expect(mine.map((row) => row[col('申请人')])).toEqual(detail.applicants.map((a) => a.name));
      const [first, second] = mine;
      const yuan = (cents: number) => Math.round(cents) / 100;
      const arrived = detail.refunds.filter((r) => r.status === 'succeeded').reduce((s, r) => s + r.amount, 0);
      const underway = detail.refunds.filter((r) => r.status === 'pending' || r.status === 'processing').reduce((s, r) => s + r.amount, 0);
      expect(first![col('订单金额（元）')]).toBe(yuan(detail.total_amount));
      expect(first![col('实付（元）')]).toBe(yuan(detail.paid_total));
      expect(first![col('已退款（元）')]).toBe(yuan(arrived));
      expect(first![col('退款中（元）')]).toBe(yuan(underway));
      const outstanding = (detail.paid_at === null && detail.status === 'pending_payment' ? detail.total_amount : 0) + detail.price_difference_due;
      expect(first![col('待支付（元）')]).toBe(yuan(outstanding));
      expect(first![col('订单状态')]).toBe(detail.status_label);
      expect(first![col('办理步骤')] ?? '').toBe(detail.step_label ?? '');
      expect(first![col('产品')]).toBe(detail.product_title);
      // Amounts once per order: the column's sum is the orders' sum.
      expect(second![col('实付（元）')]).toBeNull();
      const visa = detail.visa_results.find((v) => v.applicant_name === first![col('申请人')]);
      expect(first![col('签证号码')] ?? '').toBe(visa?.visa_no ?? '');
    }
    const refundedRow = body.find((row) => row[col('已退款（元）')] === 12.34);
    expect(refundedRow).toBeDefined();
    const issued = body.find((row) => row[col('签证号码')] === 'V12345678')!;
    expect(issued.slice(col('有效期起'), col('停留天数') + 1)).toEqual(['2026-12-20', '2027-06-19', '多次', 30]);
    expect(String(issued[col('下单时间')])).toMatch(/^2026-12-01 10:00$/);
  });

  it('writes CSV in UTF-8 with a BOM, Chinese headers and amounts with two decimals', async () => {
    const response = await download(`ids=${paid}`, alice, 'csv');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    const bytes = response.rawPayload;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').split('\r\n');
    expect(lines[0]).toBe(ORDER_EXPORT_COLUMNS.join(','));
    const detail = (await ctx.t.callContract(orderDetailGet, { user_order_id: paid }, { token: alice.token })).result!;
    const first = lines[1]!.split(',');
    expect(first[col('实付（元）')]).toBe((detail.paid_total / 100).toFixed(2));
    expect(first[col('已退款（元）')]).toBe('0.00');
    expect(lines).toHaveLength(4); // header, two applicants, the last CRLF
  });

  it('exports a 出行团组 and a date range of the enterprise', async () => {
    const set = await ctx.t.callContract(orderGroupSet, { user_order_ids: [paid, unpaid], group_name: ' 欧洲考察团 ' }, { token: alice.token });
    expect(set.body.ret, set.body.msg).toBe(0);
    expect(set.result).toEqual({ updated: 2, group_name: '欧洲考察团' });
    const groups = (await ctx.t.callContract(orderGroupList, {}, { token: alice.token })).result!;
    expect(groups.groups).toEqual([{ group_name: '欧洲考察团', order_count: 2 }]);
    const rows = await workbookRows(`group=${encodeURIComponent('欧洲考察团')}`);
    expect(rows).toHaveLength(5);
    expect(new Set(rows.slice(1).map((row) => row[col('出行团组')]))).toEqual(new Set(['欧洲考察团']));
    // Every order of alice was made on 2026-12-01 (China time).
    expect(await workbookRows('from=2026-12-01&to=2026-12-01')).toHaveLength(7);
    expect((await download('from=2026-12-02&to=2026-12-31')).json().ret).toBe(ErrorCode.EXPORT_NOTHING);
  });

  it('refuses bad input in the envelope before any byte of a file', async () => {
    const other = await paidOrder(bob);
    const missing = await download(`ids=${paid},999999`);
    const foreign = await download(`ids=${paid},${other}`);
    expect(missing.json()).toEqual({ ret: ErrorCode.ORDER_NOT_FOUND, msg: '订单不存在', body: null });
    // Another enterprise's order is refused exactly like a missing one.
    expect(foreign.json()).toEqual(missing.json());
    expect(foreign.statusCode).toBe(missing.statusCode);
    expect((await download('')).json().ret).toBe(ErrorCode.EXPORT_SELECTION_EMPTY);
    expect((await download('ids=')).json().ret).toBe(ErrorCode.EXPORT_SELECTION_EMPTY);
    expect((await download('from=2026-12-31&to=2026-12-01')).json().ret).toBe(ErrorCode.EXPORT_RANGE_INVALID);
    expect((await download('from=2026-02-30&to=2026-03-01')).json().ret).toBe(ErrorCode.EXPORT_RANGE_INVALID);
    expect((await download('from=2026-12-01')).json().ret).toBe(ErrorCode.EXPORT_RANGE_INVALID);
    expect((await download('ids=1;drop')).json().ret).toBe(ErrorCode.INVALID_PARAMS);
    expect((await download(`ids=${paid}`, alice, 'pdf')).json().ret).toBe(ErrorCode.EXPORT_FORMAT_INVALID);
    const anonymous = await download(`ids=${paid}`, null);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().ret).toBe(ErrorCode.NOT_LOGGED_IN);
    // Bob's own group is not alice's: his group name finds none of her orders.
    expect((await ctx.t.callContract(orderGroupSet, { user_order_ids: [paid], group_name: 'x' }, { token: bob.token })).body.ret).toBe(
      ErrorCode.ORDER_NOT_FOUND,
    );
    expect((await ctx.t.callContract(orderGroupSet, { user_order_ids: [other], group_name: '' }, { token: bob.token })).body.ret).toBe(
      ErrorCode.ORDER_GROUP_NAME_INVALID,
    );
    expect((await ctx.t.callContract(orderGroupSet, { user_order_ids: [], group_name: 'a' }, { token: bob.token })).body.ret).toBe(
      ErrorCode.EXPORT_SELECTION_EMPTY,
    );
    expect((await download(`group=${encodeURIComponent('欧洲考察团')}`, bob)).json().ret).toBe(ErrorCode.EXPORT_NOTHING);
  });

  it('throttles an account to EXPORTS_PER_MINUTE exports a minute', async () => {
    const carol = await ctx.customer();
    const order = await paidOrder(carol);
    for (let i = 0; i < EXPORTS_PER_MINUTE; i += 1) expect((await download(`ids=${order}`, carol, 'csv')).statusCode).toBe(200);
    const refused = await download(`ids=${order}`, carol, 'csv');
    expect(refused.json().ret).toBe(ErrorCode.TOO_MANY_REQUESTS);
    ctx.t.clock.now += 61_000;
    expect((await download(`ids=${order}`, carol, 'csv')).statusCode).toBe(200);
  });
});
