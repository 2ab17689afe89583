// The text rule (issue 23, common/contracts/text.ts) through the real app, the
// same on SQLite and PostgreSQL (TEST_DATABASE_URL): a refused character is
// ret 1001 with the rule's msg and nothing is stored — not a 500 (PostgreSQL
// refuses a NUL) nor a silently stored string (SQLite keeps it). Line breaks
// pass only in the fields a contract declares multi-line. Multipart uploads
// apply the rule to their form fields and clean the file's name. The pages'
// in-process reads refuse the same way, and PostgreSQL's own refusal of a text
// is a 1001 too (the safety net), never a 500.
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPriceDifferenceList, adminPriceDifferenceRequest } from '../../common/contracts/price-difference.ts';
import { isAcceptableText, TEXT_REFUSED_MSG } from '../../common/contracts/text.ts';
import { ErrorCode } from '../../common/error-codes.ts';
import { addDays, chinaDate } from '../../common/order.ts';
import { fixture } from '../../tests/fixtures/index.ts';
import { multipart } from '../test-support/fixtures/material.ts';
import { type Customer, type PaymentTestContext, paymentTestContext } from '../test-support/fixtures/payment.ts';
import { operatorReads } from '../web/operator-reads.ts';
import { installErrorHandling } from './error-handler.ts';
import { signedHeaders } from '../test-support/test-app.ts';

const REFUSED = { ret: ErrorCode.INVALID_PARAMS, msg: TEXT_REFUSED_MSG, body: null };
const database = process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite';

let ctx: PaymentTestContext;
let alice: Customer;
let product: Awaited<ReturnType<PaymentTestContext['t']['insertProduct']>>;

beforeAll(async () => {
  ctx = await paymentTestContext();
  alice = await ctx.customer();
  product = await ctx.t.insertProduct();
});
afterAll(() => ctx.close());

function marker(): string {
  return Math.random().toString(36).slice(2, 10);
}

async function count(table: 'user_order' | 'address' | 'order_material_file', column: 'enterprise_id' | 'user_order_id', value: number): Promise<number> {
  const row = await ctx.t.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(column as never, '=', value as never)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function orderPayload(name: string) {
  return {
    visa_product_id: product.visa_product_id,
    departure_date: addDays(chinaDate(ctx.t.clock.now), 30),
    applicants: [{ name, identity_id: 0, mobile_phone: '13800138000' }],
  };
}

describe(`the text rule (${database})`, () => {
  it('answers account_login with a NUL, an override or a lone surrogate in the account with 1001 and stores nothing', async () => {
    for (const bad of ['\u0000', '\u202E', '\ud800']) {
      const tag = marker();
      for (const path of ['/www/account_login', '/admin-api/operator_login']) {
        const result = await ctx.t.call(path, { account: `user_${tag}${bad}x`, password: 'a'.repeat(64) });
        expect(result.status, `${path} ${JSON.stringify(bad)}`).toBe(200);
        expect(result.body).toEqual(REFUSED);
      }
      // No failure was counted against the account (nor any other row written for it).
      const rows = await ctx.t.db.selectFrom('login_throttle').select('throttle_key').where('throttle_key', 'like', `%${tag}%`).execute();
      expect(rows).toEqual([]);
    }
  });

  it('refuses an order whose applicant name holds U+202E or a lone surrogate, and makes no order', async () => {
    const customer = await ctx.customer();
    for (const name of ['张\u202E三', '张\ud800三', '\udc00', '李\u2066四\u2069', '王\u0085五']) {
      const result = await ctx.t.call('/www/order/order_create', orderPayload(name), { token: customer.token });
      expect(result.status).toBe(200);
      expect(result.body, JSON.stringify(name)).toEqual(REFUSED);
    }
    // The same body as raw JSON text with the escape a client would send.
    const raw = JSON.stringify(orderPayload('张三')).replace('张三', '张\\ud800三');
    expect((await ctx.t.call('/www/order/order_create', raw, { token: customer.token })).body).toEqual(REFUSED);
    expect(await count('user_order', 'enterprise_id', customer.enterpriseId)).toBe(0);

    // Chinese with an emoji (a surrogate pair) passes and is stored as sent.
    const good = await ctx.t.call('/www/order/order_create', orderPayload('张三😀'), { token: customer.token });
    expect(good.body.ret, good.body.msg).toBe(0);
    const stored = await ctx.t.db.selectFrom('order_applicant').select('name').where('user_order_id', '=', good.body.body.user_order_id).execute();
    expect(stored.map((row) => row.name)).toEqual(['张三😀']);
  });

  it('refuses a refused character in a nested key or an unknown field too', async () => {
    const customer = await ctx.customer();
    expect((await ctx.t.call('/www/order/order_create', { ...orderPayload('张三'), 'x\u0000': 1 }, { token: customer.token })).body).toEqual(REFUSED);
    expect((await ctx.t.call('/www/order/order_create', { ...orderPayload('张三'), extra: { deep: ['\u007F'] } }, { token: customer.token })).body).toEqual(
      REFUSED,
    );
    expect(await count('user_order', 'enterprise_id', customer.enterpriseId)).toBe(0);
  });

  it('lets line breaks through a multi-line field and refuses them in a single-line one', async () => {
    const op = await ctx.t.operator();
    const { userOrderId } = await ctx.pendingOrder(alice);
    const created = await ctx.call('/www/payment/payment_create', { user_order_id: userOrderId, channel: 'wechat' }, alice);
    expect(created.ret, created.msg).toBe(0);
    const outTradeNo = created.body.out_trade_no as string;
    await ctx.t.app.payments.sandbox.ledger.pay(outTradeNo, { at: ctx.t.clock.now, provider_trade_no: `4200${outTradeNo}`, notify_id: `N-${outTradeNo}` });
    const note = await ctx.signedNotification(outTradeNo);
    expect((await ctx.postNotification(note.body, note.headers)).status).toBe(200);
    await ctx.t.db.updateTable('user_order').set({ assignee_operator_id: op.operatorId }).where('user_order_id', '=', userOrderId).execute();
    const { version } = (await op.callContract(adminPriceDifferenceList, { user_order_id: userOrderId })).result!;

    // A multi-line field still refuses the other controls.
    for (const reason of ['使馆\u0000签证费上调', '使馆\u000B签证费上调', '使馆\u202E签证费上调']) {
      expect((await op.callContract(adminPriceDifferenceRequest, { user_order_id: userOrderId, version, amount: 5_000, reason })).body).toEqual(REFUSED);
    }
    const reason = '使馆签证费上调\r\n\t自 12 月起每人 50 元\n请于出发前支付';
    const requested = await op.callContract(adminPriceDifferenceRequest, { user_order_id: userOrderId, version, amount: 5_000, reason });
    expect(requested.body.ret, requested.body.msg).toBe(0);
    // Stored; the service then folds a reason's whitespace into single spaces (its own rule: one line in the panels).
    const stored = await ctx.t.db.selectFrom('price_difference').select('reason').where('user_order_id', '=', userOrderId).executeTakeFirstOrThrow();
    expect(stored.reason).toBe('使馆签证费上调 自 12 月起每人 50 元 请于出发前支付');

    // A single-line field: the address's detail and contact (inputs, not text areas) refuse them.
    const customer = await ctx.customer();
    const address = { kind: 'return', name: '王敏', mobile_phone: '13800138000', province_code: '440000', city_code: '440300', county_code: '440305' };
    for (const detail of ['科技园南区\n深南大道 10000 号', '科技园南区\t深南大道 10000 号', '科技园南区\r深南大道']) {
      expect((await ctx.t.call('/www/address/address_save', { ...address, detail }, { token: customer.token })).body).toEqual(REFUSED);
    }
    expect(await count('address', 'enterprise_id', customer.enterpriseId)).toBe(0);
    const saved = await ctx.t.call('/www/address/address_save', { ...address, detail: '科技园南区深南大道 10000 号' }, { token: customer.token });
    expect(saved.body.ret, saved.body.msg).toBe(0);
    // The decline reason of a date change is an input too (the request's reason is a text area).
    const decline = await op.call('/admin-api/order/interview_change_decline', {
      user_order_id: userOrderId,
      change_request_id: 1,
      version,
      reason: '时段\n已满',
    });
    expect(decline.body).toEqual(REFUSED);
    const request = await ctx.call(
      '/www/order/interview_change_request',
      { user_order_id: userOrderId, applicant_id: 1, interview_slot_id: 1, reason: '行程\n调整' },
      alice,
    );
    expect(request.msg).not.toBe(TEXT_REFUSED_MSG);
  });

  it('applies the rule to the form fields of a multipart upload and cleans the file name it stores', async () => {
    const customer = await ctx.customer();
    const order = await ctx.t.call('/www/order/order_create', orderPayload('赵六'), { token: customer.token });
    expect(order.body.ret, order.body.msg).toBe(0);
    const userOrderId = order.body.body.user_order_id as number;
    const applicant = await ctx.t.db.selectFrom('order_applicant').select('applicant_id').where('user_order_id', '=', userOrderId).executeTakeFirstOrThrow();
    const material = product.materials.find((m) => m.identity_id === 0 && m.attr === 0)!;
    const target = { user_order_id: userOrderId, applicant_id: applicant.applicant_id, material_id: material.material_id };
    const send = async (fields: Record<string, string | number>, name = 'scan.jpg') => {
      const { body, contentType } = multipart(fields, { name, content: fixture('jpeg') });
      const response = await ctx.t.app.inject({
        method: 'POST',
        url: '/www/order/material_upload',
        headers: signedHeaders(ctx.t.clock, { token: customer.token, headers: { 'content-type': contentType } }),
        payload: body,
      });
      return { status: response.statusCode, body: response.json() as { ret: number; msg: string; body: any } };
    };

    for (const fields of [
      { ...target, note: 'a\u0000b' },
      { ...target, user_order_id: `${userOrderId}\u202E` },
      { ...target, 'kind\u0001': 'photo' },
    ]) {
      const answer = await send(fields);
      expect(answer.status).toBe(200);
      expect(answer.body, JSON.stringify(fields)).toEqual(REFUSED);
    }
    expect(await count('order_material_file', 'user_order_id', userOrderId)).toBe(0);

    // The file's name is a label from the customer's disk: cleaned of what the rule refuses, not refused.
    const answer = await send(target, '护照\u0000首页\u202Egpj.jpg');
    expect(answer.body.ret, answer.body.msg).toBe(0);
    const stored = await ctx.t.db.selectFrom('order_material_file').select('file_name').where('user_order_id', '=', userOrderId).executeTakeFirstOrThrow();
    expect(stored.file_name).toBe('护照首页gpj.jpg');
    expect(isAcceptableText(stored.file_name)).toBe(true);
  });

  it("refuses the back office queue's search text in the page's in-process read (app/features/admin/orders/queue-params drops it from the URL)", async () => {
    const supervisor = await ctx.t.operator({ role: 'supervisor' });
    const reads = operatorReads(ctx.t.services, supervisor.principal, await ctx.t.services.operator.me(supervisor.principal));
    expect(await reads.orderQueue({ q: '张\u0000三' })).toEqual({ ok: false, ret: ErrorCode.INVALID_PARAMS, msg: TEXT_REFUSED_MSG });
    expect(await reads.orderQueue({ q: '张\u202E三' })).toEqual({ ok: false, ret: ErrorCode.INVALID_PARAMS, msg: TEXT_REFUSED_MSG });
    expect((await reads.orderQueue({ q: '张三' })).ok).toBe(true);
  });
});

describe('the safety net: a text the database refuses', () => {
  it("answers PostgreSQL's invalid byte sequence (22021) and untranslatable character (22P05) with 1001, not 500", async () => {
    const app = Fastify({ logger: false });
    installErrorHandling(app);
    for (const code of ['22021', '22P05']) {
      app.post(`/www/fails_${code}`, async () => {
        throw Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code, severity: 'ERROR' });
      });
    }
    app.post('/www/fails_other', async () => {
      throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
    });
    for (const code of ['22021', '22P05']) {
      const response = await app.inject({ method: 'POST', url: `/www/fails_${code}` });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ ret: ErrorCode.INVALID_PARAMS, msg: '参数错误', body: null });
    }
    // Any other database error stays a 500.
    expect((await app.inject({ method: 'POST', url: '/www/fails_other' })).statusCode).toBe(500);
    await app.close();
  });

  it.runIf(process.env.TEST_DATABASE_URL)('matches what PostgreSQL raises for a NUL', async () => {
    await expect(ctx.t.db.selectFrom('account').select('id').where('account', '=', 'a\u0000b').execute()).rejects.toMatchObject({ code: '22021' });
  });
});
