// The SF Express provider against a local fake of SF's open platform
// (server/test-support/fakes/sf-fake.ts), which checks each call as SF's
// gateway does: booking a pickup (the monthly account, the contacts, one
// order per orderId), a timed-out booking asked again without a second
// order, SF unreachable, cancelling, the route query, SF's route push (once,
// twice, forged, stale), and the fake's own refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../common/error-codes.ts';
import { HOUR, MINUTE, T0 } from '../../test-support/fixtures/courier.ts';
import { sfTestContext, type SfTestContext } from '../../test-support/fixtures/courier-sf.ts';
import type { Customer } from '../../platform/principal.ts';
import { loadConfig } from '../../config.ts';
import { createSfApi, sfRequestForm } from './sf-api.ts';
import { createSfCourier } from './sf-provider.ts';
import { SF_CREATE_ORDER_SERVICE, SF_SEARCH_ROUTES_SERVICE } from './sf-format.ts';

let ctx: SfTestContext;
let customer: Customer;

beforeAll(async () => {
  ctx = await sfTestContext();
  customer = await ctx.customer();
});
afterAll(async () => ctx?.close());

async function booked() {
  const { userOrderId, applicantIds } = await ctx.order(customer);
  return ctx.pickup(userOrderId, applicantIds, customer);
}

describe('SF provider: booking', () => {
  it('books a pickup on the monthly account and stores the waybill SF gave', async () => {
    const shipment = await booked();
    expect(shipment).toMatchObject({ arrangement: 'pickup', courier_company: 'SF', status: 'booked' });
    const order = ctx.sf.order(shipment.waybill_no)!;
    expect(order.orderId).toBe(shipment.shipment_no);
    expect(order.msgData).toMatchObject({ monthlyCard: ctx.account.monthlyCard, payMethod: 1, isDocall: 1, expressTypeId: 1, language: 'zh-CN' });
    const row = await ctx.t.db
      .selectFrom('shipment')
      .select(['provider', 'waybill_no'])
      .where('shipment_id', '=', shipment.shipment_id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ provider: 'sf', waybill_no: shipment.waybill_no });
  });

  it('a create that times out is asked again with the same orderId: SF answers 重复下单 and the waybill is looked up — one order', async () => {
    const before = ctx.sf.orders.size;
    const calls = ctx.sf.calls.length;
    ctx.sf.stallNext(SF_CREATE_ORDER_SERVICE, 1_500);
    const shipment = await booked();
    expect(ctx.sf.orders.size).toBe(before + 1);
    expect(ctx.sf.order(shipment.waybill_no)!.orderId).toBe(shipment.shipment_no);
    expect(ctx.sf.calls.slice(calls).map((c) => [c.serviceCode, c.errorCode])).toEqual([
      ['EXP_RECE_CREATE_ORDER', 'S0000'],
      ['EXP_RECE_CREATE_ORDER', '8016'],
      ['EXP_RECE_SEARCH_ORDER_RESP', 'S0000'],
    ]);
  });

  it('SF unreachable: 2086 in our envelope, nothing stored', async () => {
    const { userOrderId, applicantIds } = await ctx.order(customer);
    ctx.sf.setDown(true);
    try {
      await expect(ctx.pickup(userOrderId, applicantIds, customer)).rejects.toMatchObject({ ret: ErrorCode.COURIER_PROVIDER_UNAVAILABLE });
    } finally {
      ctx.sf.setDown(false);
    }
    expect(await ctx.t.db.selectFrom('shipment').select('shipment_id').where('user_order_id', '=', userOrderId).execute()).toEqual([]);
  });

  it('the fake refuses what SF refuses: a missing receiver phone, a foreign monthly card', async () => {
    const { userOrderId, applicantIds } = await ctx.order(customer);
    const provider = ctx.t.app.courier.provider;
    const contact = (await ctx.courier.receivingAddress(null))!;
    const input = {
      shipment_no: `YQSTEST${userOrderId}`,
      sender: contact,
      receiver: { ...contact, mobile_phone: '' },
      parcel: '护照',
      pickup_window: { start: T0 + 3 * HOUR, end: T0 + 5 * HOUR },
    };
    await expect(provider.createWaybill(input)).rejects.toThrow(/1016 到件电话不能为空/);
    const otherCard = createSfCourier({
      api: createSfApi({ url: ctx.sf.url, partnerId: ctx.account.partnerId, checkWord: ctx.account.checkWord, timeoutMs: 2_000, now: () => ctx.t.clock.now }),
      ...ctx.account,
      monthlyCard: '7550000000',
      now: () => ctx.t.clock.now,
      log: { warn: () => {} },
    });
    await expect(otherCard.createWaybill({ ...input, receiver: contact })).rejects.toThrow(/6126 月结卡号不合法/);
    expect(ctx.sf.orders.has(input.shipment_no)).toBe(false);
    expect(applicantIds).toHaveLength(1);
  });
});

describe('SF gateway checks (the fake, as SF documents them)', () => {
  async function raw(form: URLSearchParams) {
    const response = await fetch(ctx.sf.url, { method: 'POST', body: form });
    return (await response.json()) as { apiResultCode: string; apiResultData: string | null };
  }
  const msg = { language: '0', trackingType: '1', trackingNumber: ['SF0000000000000'], methodType: '1' };

  it('accepts a well-signed call once, and refuses a repeated requestID, a bad digest, a stale timestamp, another partner', async () => {
    const form = sfRequestForm(ctx.account, SF_SEARCH_ROUTES_SERVICE, JSON.stringify(msg), ctx.t.clock.now);
    expect((await raw(form)).apiResultCode).toBe('A1000');
    expect((await raw(form)).apiResultCode).toBe('A1007');
    const forged = sfRequestForm({ ...ctx.account, checkWord: 'not-the-check-word-0000' }, SF_SEARCH_ROUTES_SERVICE, JSON.stringify(msg), ctx.t.clock.now);
    expect((await raw(forged)).apiResultCode).toBe('A1006');
    const stale = sfRequestForm(ctx.account, SF_SEARCH_ROUTES_SERVICE, JSON.stringify(msg), ctx.t.clock.now - 6 * MINUTE);
    expect((await raw(stale)).apiResultCode).toBe('A1002');
    const other = sfRequestForm({ ...ctx.account, partnerId: 'SOMEONE_ELSE' }, SF_SEARCH_ROUTES_SERVICE, JSON.stringify(msg), ctx.t.clock.now);
    expect((await raw(other)).apiResultCode).toBe('A1004');
    const missing = sfRequestForm(ctx.account, SF_SEARCH_ROUTES_SERVICE, JSON.stringify(msg), ctx.t.clock.now);
    missing.delete('msgDigest');
    expect((await raw(missing)).apiResultCode).toBe('A1001');
  });
});

describe('SF provider: cancel, route query, route push', () => {
  it('cancels a booking before pickup (dealType 2); twice is fine', async () => {
    const shipment = await booked();
    expect((await ctx.courier.cancelPickup(shipment.shipment_id)).status).toBe('cancelled');
    expect(ctx.sf.order(shipment.waybill_no)!.cancelled).toBe(true);
    expect(await ctx.t.app.courier.provider.cancelWaybill(shipment.shipment_no)).toBe(true);
  });

  it('after pickup SF refuses to cancel: 2088, and the pickup learned from the query', async () => {
    const shipment = await booked();
    ctx.sf.scan(shipment.waybill_no, '50', T0 + HOUR, '顺丰速运 已收取快件');
    await expect(ctx.courier.cancelPickup(shipment.shipment_id)).rejects.toMatchObject({ ret: ErrorCode.COURIER_NOT_CANCELLABLE });
    expect((await ctx.courier.shipment(shipment.shipment_id)).status).toBe('picked_up');
  });

  it('queries routes by waybill (EXP_RECE_SEARCH_ROUTES) and stores them once', async () => {
    const shipment = await booked();
    ctx.sf.scan(shipment.waybill_no, '50', T0 + HOUR, '顺丰速运 已收取快件');
    ctx.sf.scan(shipment.waybill_no, '31', T0 + 2 * HOUR, '快件到达【北京集散中心】', '北京市');
    const first = await ctx.courier.refreshShipment(shipment.shipment_id);
    expect(first.status).toBe('in_transit');
    expect(first.routes.map((r) => r.op_code)).toEqual(['50', '31']);
    const again = await ctx.courier.refreshShipment(shipment.shipment_id);
    expect(again.routes).toHaveLength(2);
  });

  it('a route push is verified and stored; its repeat changes nothing; a forged or stale one is refused', async () => {
    const shipment = await booked();
    const scan = ctx.sf.scan(shipment.waybill_no, '80', T0 + 5 * HOUR, '已签收，感谢使用顺丰');
    const pushed = await ctx.postPush(ctx.sf.pushForm(shipment.waybill_no, [scan]));
    expect(pushed).toEqual({ status: 200, json: { return_code: '0000', return_msg: '成功' } });
    expect((await ctx.courier.shipment(shipment.shipment_id)).status).toBe('delivered');
    const repeat = await ctx.postPush(ctx.sf.pushForm(shipment.waybill_no, [scan]));
    expect(repeat.json?.return_code).toBe('0000');
    expect((await ctx.courier.shipment(shipment.shipment_id)).routes).toHaveLength(1);

    const other = await booked();
    const fake = ctx.sf.scan(other.waybill_no, '80', T0 + 5 * HOUR, '已签收');
    const forged = await ctx.postPush(ctx.sf.pushForm(other.waybill_no, [fake], { checkWord: 'a-guess-at-the-check-word' }));
    expect(forged).toMatchObject({ status: 401, json: { return_code: '1000' } });
    const now = ctx.t.clock.now;
    const old = ctx.sf.pushForm(other.waybill_no, [fake]);
    ctx.t.clock.now = now + 6 * MINUTE;
    try {
      expect((await ctx.postPush(old)).status).toBe(401);
    } finally {
      ctx.t.clock.now = now;
    }
    expect((await ctx.courier.shipment(other.shipment_id)).status).toBe('booked');
    const outcomes = await ctx.t.db.selectFrom('courier_push').select(['provider', 'outcome']).orderBy('courier_push_id').execute();
    expect(outcomes).toEqual([
      { provider: 'sf', outcome: 'stored' },
      { provider: 'sf', outcome: 'duplicate' },
      { provider: 'sf', outcome: 'bad_signature' },
      { provider: 'sf', outcome: 'bad_signature' },
    ]);
  });

  it('a route query that cannot reach SF changes nothing', async () => {
    const shipment = await booked();
    ctx.sf.setDown(true);
    try {
      expect((await ctx.courier.refreshShipment(shipment.shipment_id)).status).toBe('booked');
    } finally {
      ctx.sf.setDown(false);
    }
  });
});

describe('SF configuration', () => {
  const base = { APP_ENV: 'test', COURIER_PROVIDER: 'sf' };
  const account = { SF_PARTNER_ID: 'YQT_ACCOUNT', SF_MONTHLY_CARD: '7551234567' };

  it('COURIER_PROVIDER=sf needs the partner id, the check word and the monthly card, named', () => {
    expect(() => loadConfig(base)).toThrow(/SF_PARTNER_ID, SF_CHECK_WORD \(or SF_CHECK_WORD_FILE\), SF_MONTHLY_CARD/);
    expect(() => loadConfig({ ...base, ...account, SF_CHECK_WORD: 'x'.repeat(24), SF_MONTHLY_CARD: 'card' })).toThrow(/SF_MONTHLY_CARD/);
    expect(loadConfig({ ...base, ...account, SF_CHECK_WORD: 'x'.repeat(24) }).SF_CHECK_WORD).toBe('x'.repeat(24));
  });

  it('reads the check word from SF_CHECK_WORD_FILE, and never both', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const file = join(mkdtempSync(join(tmpdir(), 'sf-')), 'check-word');
    writeFileSync(file, 'from-a-file-0123456789\n');
    expect(loadConfig({ ...base, ...account, SF_CHECK_WORD_FILE: file }).SF_CHECK_WORD).toBe('from-a-file-0123456789');
    expect(() => loadConfig({ ...base, ...account, SF_CHECK_WORD_FILE: file, SF_CHECK_WORD: 'y'.repeat(20) })).toThrow(/not both/);
    expect(() => loadConfig({ ...base, ...account, SF_CHECK_WORD_FILE: `${file}.missing` })).toThrow(/cannot read/);
  });
});
