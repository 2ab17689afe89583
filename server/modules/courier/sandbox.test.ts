// The sandbox courier on its own: SF's digest signature, acceptTime, its
// ledger (one waybill per order id, cancelling only before the first event),
// the timeline a query answers, and its pusher running on real timers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../test-support/fixtures/payment.ts';
import { type CourierTestContext, STEP_MS, T0, courierTestContext, injectPushTransport } from '../../test-support/fixtures/courier.ts';
import { fetchPushTransport } from './sandbox-pusher.ts';
import { SF_SIGNATURE_MAX_SKEW_MS, javaUrlEncode, sfDigest, signedSfForm, verifySfForm } from './sandbox-signature.ts';
import { sandboxEventsSoFar, sandboxTimeline } from './sandbox-tracking.ts';
import { SF_ROUTE_PUSH_SERVICE, formatAcceptTime, parseAcceptTime, sfOpCodeStatus } from './sf-format.ts';

const signer = { partnerId: 'YQT_TEST', checkWord: 'fjcg5PGKaNpPSHFAZ4QsCOkV71R3zVci' };

describe("SF's digest signature", () => {
  it("URL-encodes like Java's URLEncoder (UTF-8, space as +, * kept, ~ encoded)", () => {
    expect(javaUrlEncode("a b*c~d!e'f(g)h.i-j_k")).toBe('a+b*c%7Ed%21e%27f%28g%29h.i-j_k');
    expect(javaUrlEncode('{"城市":"上海"}')).toBe('%7B%22%E5%9F%8E%E5%B8%82%22%3A%22%E4%B8%8A%E6%B5%B7%22%7D');
  });

  it('is Base64(MD5(URLEncode(msgData + timestamp + checkWord)))', () => {
    // Fixed vectors computed with Python's urllib.parse.quote_plus + hashlib.md5 (which agree with
    // Java's URLEncoder for these characters), so a real SF SDK can check itself against them.
    expect(sfDigest('{"language":"zh-CN","orderId":"QIAO-20200618-004"}', '1592448000000', signer.checkWord)).toBe('ao482YlYZswgT1xTVhuUKw==');
    expect(sfDigest('{"Body":{"WaybillRoute":[{"remark":"快件到达 【上海集散中心】","opCode":"31"}]}}', '1592448000000', signer.checkWord)).toBe(
      'TeZzEPG6yzdZCZBkDl86JQ==',
    );
  });

  it('verifies what it signed, and nothing else', () => {
    const msgData = '{"Body":{"WaybillRoute":[]}}';
    const form = signedSfForm(signer, SF_ROUTE_PUSH_SERVICE, msgData, T0);
    expect(Object.fromEntries(new URLSearchParams(form))).toMatchObject({
      partnerID: 'YQT_TEST',
      serviceCode: 'RoutePushService',
      timestamp: String(T0),
      msgData,
    });
    expect(verifySfForm(signer, SF_ROUTE_PUSH_SERVICE, form, T0)).toMatchObject({ ok: true, msgData });
    expect(verifySfForm(signer, SF_ROUTE_PUSH_SERVICE, form, T0 + SF_SIGNATURE_MAX_SKEW_MS).ok).toBe(true);
    expect(verifySfForm(signer, SF_ROUTE_PUSH_SERVICE, form, T0 + SF_SIGNATURE_MAX_SKEW_MS + 1).ok).toBe(false);
    expect(verifySfForm(signer, SF_ROUTE_PUSH_SERVICE, form, T0 - SF_SIGNATURE_MAX_SKEW_MS - 1).ok).toBe(false);
    expect(verifySfForm({ ...signer, checkWord: 'another-check-word-0123' }, SF_ROUTE_PUSH_SERVICE, form, T0).ok).toBe(false);
    expect(verifySfForm({ ...signer, partnerId: 'OTHER' }, SF_ROUTE_PUSH_SERVICE, form, T0).ok).toBe(false);
    expect(verifySfForm(signer, 'EXP_RECE_CREATE_ORDER', form, T0).ok).toBe(false);
    const changed = new URLSearchParams(form);
    changed.set('msgData', `${msgData} `);
    expect(verifySfForm(signer, SF_ROUTE_PUSH_SERVICE, changed.toString(), T0)).toMatchObject({ ok: false, msgData: `${msgData} ` });
    // Every sending has its own request id.
    expect(new URLSearchParams(signedSfForm(signer, SF_ROUTE_PUSH_SERVICE, msgData, T0)).get('requestID')).not.toBe(new URLSearchParams(form).get('requestID'));
  });
});

describe("SF's acceptTime and opCodes", () => {
  it('is China time, whole seconds, and only real times parse', () => {
    expect(formatAcceptTime(T0)).toBe('2026-12-01 10:00:00');
    expect(formatAcceptTime(Date.parse('2026-12-31T16:30:05Z'))).toBe('2027-01-01 00:30:05');
    expect(parseAcceptTime('2027-01-01 00:30:05')).toBe(Date.parse('2026-12-31T16:30:05Z'));
    for (const bad of [
      '2026-02-30 10:00:00',
      '2026-12-01 24:00:00',
      '2026-12-01 10:60:00',
      '2026-12-01T10:00:00',
      '2026-12-01 10:00',
      ' 2026-12-01 10:00:00',
    ]) {
      expect(parseAcceptTime(bad), bad).toBeNull();
    }
  });

  it('maps the opCodes it knows to a status, and others to none', () => {
    expect(['50', '30', '31', '44', '80'].map(sfOpCodeStatus)).toEqual(['picked_up', 'in_transit', 'in_transit', 'out_for_delivery', 'delivered']);
    expect(sfOpCodeStatus('70')).toBeNull();
    expect(sfOpCodeStatus('648')).toBeNull();
    expect(sfOpCodeStatus('constructor')).toBeNull();
  });
});

describe('the sandbox ledger and timeline', () => {
  let ctx: CourierTestContext;
  beforeAll(async () => {
    ctx = await courierTestContext();
  });
  afterAll(() => ctx.close());

  it('answers a query with the events so far, and only those', () => {
    const journey = {
      waybill_no: 'SF1234567890123',
      origin_city: '上海市',
      destination_city: '北京市',
      created_at: T0 + 400,
      step_ms: STEP_MS,
      cancelled_at: null,
    };
    const timeline = sandboxTimeline(journey);
    expect(timeline.map((e) => [e.opCode, e.at - T0, e.acceptAddress])).toEqual([
      ['50', 60_000, '上海市'],
      ['30', 120_000, '上海市'],
      ['31', 180_000, '北京市'],
      ['44', 240_000, '北京市'],
      ['80', 300_000, '北京市'],
    ]);
    expect(timeline[1]!.remark).toBe('快件在【上海集散中心】完成分拣，准备发往【北京集散中心】');
    expect(timeline[3]!.remark).toMatch(/^快件交给.师傅，正在派送途中（联系电话：1391\d{7}）$/);
    expect(sandboxEventsSoFar(journey, T0 + 59_999)).toEqual([]);
    expect(sandboxEventsSoFar(journey, T0 + 180_000).map((e) => e.opCode)).toEqual(['50', '30', '31']);
    expect(sandboxEventsSoFar({ ...journey, cancelled_at: T0 }, T0 + 10 * STEP_MS)).toEqual([]);
  });

  it('opens one waybill per order id (a retried booking gets the same number)', async () => {
    const { provider, ledger } = ctx.t.app.courier.sandbox;
    const input = {
      shipment_no: 'YQS-LEDGER-1',
      sender: (await ctx.courier.receivingAddress(null))!,
      receiver: (await ctx.courier.receivingAddress(null))!,
      parcel: '文件',
      pickup_window: ctx.window(),
    };
    const first = await provider.createWaybill(input);
    const again = await provider.createWaybill(input);
    expect(again).toEqual(first);
    expect(await ledger.byOrderId('YQS-LEDGER-1')).toMatchObject({ waybill_no: first.waybill_no, next_event: 0, next_push_at: T0 + STEP_MS });
    expect(await provider.queryRoutes('SF0000000000000')).toBeNull();
    expect(await provider.queryRoutes(first.waybill_no)).toEqual([]);
  });

  it('cancels only before the first event, and cancelling twice is fine', async () => {
    const { provider, ledger } = ctx.t.app.courier.sandbox;
    const receiver = (await ctx.courier.receivingAddress(null))!;
    const input = (no: string) => ({ shipment_no: no, sender: receiver, receiver, parcel: '文件', pickup_window: ctx.window() });
    await provider.createWaybill(input('YQS-CANCEL-1'));
    expect(await provider.cancelWaybill('YQS-CANCEL-1')).toBe(true);
    expect(await provider.cancelWaybill('YQS-CANCEL-1')).toBe(true);
    expect(await ledger.byOrderId('YQS-CANCEL-1')).toMatchObject({ cancelled_at: T0, next_push_at: null });
    await provider.createWaybill(input('YQS-CANCEL-2'));
    ctx.t.clock.now = T0 + STEP_MS;
    expect(await provider.cancelWaybill('YQS-CANCEL-2')).toBe(false);
    expect(await provider.cancelWaybill('YQS-NO-SUCH')).toBe(false);
    ctx.t.clock.now = T0;
  });

  it('pushes over real HTTP: a form the app parses and answers as SF expects', async () => {
    const sandbox = ctx.t.app.courier.sandbox;
    const alice = await ctx.customer();
    const { userOrderId, applicantIds } = await ctx.order(alice);
    const shipment = await ctx.pickup(userOrderId, applicantIds, alice);
    const origin = await ctx.t.app.listen({ host: '127.0.0.1', port: 0 });
    try {
      // The push goes to PUBLIC_SITE_URL; here the app listens on a port of its own.
      sandbox.pusher.setTransport((url, body, headers) => fetchPushTransport(url.replace(/^https?:\/\/[^/]+/, origin), body, headers));
      ctx.t.clock.now = T0 + 10 * STEP_MS;
      await sandbox.pusher.runDue();
      expect((await ctx.courier.shipment(shipment.shipment_id)).status).toBe('delivered');
      expect(await sandbox.ledger.find(shipment.waybill_no)).toMatchObject({ next_event: 5, push_attempts: 0, pushes_sent: 5 });
    } finally {
      sandbox.pusher.setTransport(injectPushTransport(ctx.t.app));
      ctx.t.clock.now = T0;
    }
  });

  it('pushes on its own timers once started (every event due at once with a step of 0)', async () => {
    const sandbox = ctx.t.app.courier.sandbox;
    const alice = await ctx.customer();
    const { userOrderId, applicantIds } = await ctx.order(alice);
    sandbox.setStepMs(0);
    // The pusher runs on real timers, so the app's clock runs too during this test: a push that
    // overtakes the storing of the shipment (PostgreSQL commits later than the courier books) is
    // refused and must come due again 2 s later, which a frozen clock would never reach.
    const frozenAt = ctx.t.clock.now;
    const startedAt = Date.now();
    Object.defineProperty(ctx.t.clock, 'now', { get: () => frozenAt + (Date.now() - startedAt), configurable: true });
    try {
      sandbox.start();
      const shipment = await ctx.pickup(userOrderId, applicantIds, alice);
      // (A push that overtook the storing of the shipment is refused and retried 2 s later.)
      await eventually(async () => expect((await ctx.courier.shipment(shipment.shipment_id)).status).toBe('delivered'), 10_000);
      expect((await ctx.courier.shipment(shipment.shipment_id)).routes).toHaveLength(5);
    } finally {
      sandbox.close();
      Object.defineProperty(ctx.t.clock, 'now', { value: frozenAt, writable: true, configurable: true });
      sandbox.setStepMs(STEP_MS);
    }
  });
});
