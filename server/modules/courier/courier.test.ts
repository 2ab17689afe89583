// The courier module on the real app and database (SQLite, or PostgreSQL
// with TEST_DATABASE_URL): booking and storing shipments, the sandbox's
// signed route pushes (in order, repeated, reordered, forged, for unknown
// waybills, malformed), the query fallback, the status hook, cancelling and
// confirming by hand. Each test makes its own customer, order and shipments.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { shipmentReached } from '../../../common/courier.ts';
import type { Customer, Operator } from '../../platform/principal.ts';
import { createTestApp } from '../../test-support/test-app.ts';
import {
  type CourierTestContext,
  HOUR,
  MINUTE,
  QUERY_AFTER_MS,
  SENDER,
  STEP_MS,
  T0,
  courierTestContext,
  injectPushTransport,
} from '../../test-support/fixtures/courier.ts';
import { createCourierService } from './courier.service.ts';
import type { CourierProvider } from './provider.ts';
import { signedSfForm } from './sandbox-signature.ts';
import { sandboxTimeline } from './sandbox-tracking.ts';
import { formatAcceptTime } from './sf-format.ts';

let ctx: CourierTestContext;
let alice: Customer;
const operator: Operator = { kind: 'operator', operatorId: 7, role: 'operator' };

beforeAll(async () => {
  ctx = await courierTestContext();
  alice = await ctx.customer();
});
afterAll(() => ctx.close());
afterEach(() => {
  ctx.t.clock.now = T0;
  ctx.t.app.courier.sandbox.pusher.setDuplicateRate(0);
  ctx.t.app.courier.sandbox.pusher.setTransport(injectPushTransport(ctx.t.app));
});

/** Everything the database holds about one shipment. */
async function stored(shipmentId: number) {
  const shipment = await ctx.t.db.selectFrom('shipment').selectAll().where('shipment_id', '=', shipmentId).executeTakeFirstOrThrow();
  const routes = await ctx.t.db.selectFrom('shipment_route').selectAll().where('shipment_id', '=', shipmentId).orderBy('shipment_route_id').execute();
  return { shipment, routes };
}

function toldAbout(shipmentId: number) {
  return ctx.told.filter((event) => event.shipment_id === shipmentId).map((event) => `${event.from}→${event.to}`);
}

/** A route as SF pushes it, for a shipment of ours. */
function route(shipment: { waybill_no: string; shipment_no: string }, opCode: string, at: number, extra: Record<string, unknown> = {}) {
  return {
    id: `${opCode}${at}`,
    mailno: shipment.waybill_no,
    orderid: shipment.shipment_no,
    acceptTime: formatAcceptTime(at),
    acceptAddress: '上海市',
    remark: `事件 ${opCode}`,
    opCode,
    ...extra,
  };
}

describe('receiving addresses', () => {
  it("gives the district's own address, else the central one", async () => {
    const shanghai = await ctx.order(alice, '上海');
    const own = await ctx.courier.receivingAddress(shanghai.consularDistrictId);
    expect(own).toMatchObject({ consular_district_id: shanghai.consularDistrictId, city_name: '上海市', county_name: '静安区' });
    expect(own!.company_name).toMatch(/^易签通上海办事处（.+签证组）$/);

    const qingdao = await ctx.t.db.selectFrom('consular_district').select('consular_district_id').where('city', '=', '青岛').executeTakeFirstOrThrow();
    const central = await ctx.courier.receivingAddress(qingdao.consular_district_id);
    expect(central).toMatchObject({ consular_district_id: null, company_name: '易签通签证服务中心（北京）', city_name: '北京市' });
    expect(await ctx.courier.receivingAddress(null)).toEqual(central);
    expect(await ctx.courier.receivingAddress(999_999)).toEqual(central);
  });
});

describe('booking a pickup', () => {
  it('books a waybill with the provider, stores nothing until storeShipment, then keeps the snapshots and applicants', async () => {
    const { userOrderId, applicantIds } = await ctx.order(alice);
    const receiver = (await ctx.courier.receivingAddress(null))!;
    const draft = await ctx.courier.bookPickup({
      user_order_id: userOrderId,
      direction: 'to_service',
      applicant_ids: [applicantIds[1]!, applicantIds[0]!, applicantIds[1]!],
      sender: { ...SENDER, name: ' 张三 ', mobile_phone: '138-0013-8001', province_name: '伪造的省', detail: ' 南京西路1788号国际会所12楼 ' },
      receiver,
      pickup_window: ctx.window(),
      by: alice,
    });
    expect(draft.waybill_no).toMatch(/^SF\d{13}$/);
    expect(draft.shipment_no).toMatch(/^YQS\d{14}[0-9A-F]{8}$/);
    // Normalised like the address book, names from the library (never the caller's).
    expect(draft.sender).toMatchObject({ name: '张三', mobile_phone: '13800138001', province_name: '上海市', detail: '南京西路1788号国际会所12楼' });
    expect(draft.applicant_ids).toEqual(applicantIds);
    expect(await ctx.courier.orderShipments(userOrderId)).toEqual([]);

    // What "SF" received: an EXP_RECE_CREATE_ORDER msgData for a pickup.
    const ledger = (await ctx.t.app.courier.sandbox.ledger.find(draft.waybill_no))!;
    expect(ledger.order_id).toBe(draft.shipment_no);
    expect(JSON.parse(ledger.request)).toMatchObject({
      orderId: draft.shipment_no,
      isDocall: 1,
      sendStartTm: '2026-12-01 13:00:00',
      cargoDetails: [{ name: '签证申请纸质资料（文件）' }],
      contactInfoList: [
        { contactType: 1, contact: '张三', mobile: '13800138001', city: '上海市', county: '静安区' },
        { contactType: 2, contact: receiver.name, city: '北京市' },
      ],
    });

    const shipmentId = await ctx.t.db.transaction().execute((trx) => ctx.courier.storeShipment(trx, draft));
    const [view] = await ctx.courier.orderShipments(userOrderId);
    expect(view).toMatchObject({
      shipment_id: shipmentId,
      direction: 'to_service',
      direction_label: '寄送资料',
      arrangement: 'pickup',
      courier_company: 'SF',
      courier_company_name: '顺丰速运',
      waybill_no: draft.waybill_no,
      status: 'booked',
      status_label: '待揽收',
      pickup_window: ctx.window(),
      applicant_ids: applicantIds,
      receiver: { company_name: '易签通签证服务中心（北京）' },
      routes: [],
    });
    const row = (await stored(shipmentId)).shipment;
    expect(row).toMatchObject({
      provider: 'sandbox',
      created_by: 'customer',
      created_by_id: alice.accountId,
      announced_status: 'booked',
      next_query_at: T0 + QUERY_AFTER_MS,
    });
    // Creating is not a change the hook hears about.
    expect(toldAbout(shipmentId)).toEqual([]);
  });

  it('refuses bad input with a Chinese message and books nothing', async () => {
    const { userOrderId, applicantIds } = await ctx.order(alice);
    const receiver = (await ctx.courier.receivingAddress(null))!;
    const base = {
      user_order_id: userOrderId,
      direction: 'to_service' as const,
      applicant_ids: applicantIds,
      sender: SENDER,
      receiver,
      pickup_window: ctx.window(),
      by: alice,
    };
    const before = await ctx.t.db
      .selectFrom('courier_sandbox_waybill' as any)
      .select((eb: any) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    const cases: Array<[Partial<typeof base> & Record<string, unknown>, number, RegExp]> = [
      [{ pickup_window: { start: T0 - 21 * HOUR, end: T0 - 19 * HOUR } }, 2083, /已过/],
      [{ pickup_window: { start: T0 - 30 * MINUTE, end: T0 + 30 * MINUTE } }, 2083, /已过或即将结束/],
      [{ pickup_window: { start: T0 + 11 * HOUR, end: T0 + 13 * HOUR } }, 2083, /08:00–20:00/],
      [{ pickup_window: { start: T0 + 2 * HOUR, end: T0 + 8 * HOUR } }, 2083, /1–4 小时/],
      [{ pickup_window: { start: T0 + 3 * 24 * HOUR, end: T0 + 3 * 24 * HOUR + 2 * HOUR } }, 2083, /3 天内/],
      [{ pickup_window: { start: Number.NaN, end: 5 } }, 2083, /请选择上门取件时间/],
      [{ sender: { ...SENDER, mobile_phone: '12345' } }, 2084, /^寄件人：请输入正确的联系人手机号$/],
      [{ sender: { ...SENDER, county_code: '440106' } }, 2084, /^寄件人：请选择正确的省\/市\/区$/],
      [{ sender: { ...SENDER, name: '   ' } }, 2084, /联系人姓名/],
      [{ sender: { name: '张三' } as any }, 2084, /^寄件人信息不完整$/],
      [{ receiver: { ...receiver, detail: '一' } }, 2084, /^收件人：请输入详细地址/],
      [{ applicant_ids: [] }, 2085, /申请人/],
      [{ applicant_ids: [1.5] }, 2085, /申请人/],
      [{ parcel: '文'.repeat(51) }, 1001, /50 个字/],
      [{ direction: 'sideways' as any }, 1001, /方向/],
    ];
    for (const [change, ret, msg] of cases) {
      const error = await ctx.courier.bookPickup({ ...base, ...change }).catch((e: unknown) => e);
      expect(error, JSON.stringify(change)).toMatchObject({ ret, message: expect.stringMatching(msg) });
    }
    const after = await ctx.t.db
      .selectFrom('courier_sandbox_waybill' as any)
      .select((eb: any) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    expect(Number((after as any).n)).toBe(Number((before as any).n));
  });

  it("refuses another order's applicants when storing, and the transaction stores nothing", async () => {
    const mine = await ctx.order(alice);
    const theirs = await ctx.order(await ctx.customer());
    const draft = await ctx.courier.bookPickup({
      user_order_id: mine.userOrderId,
      direction: 'to_service',
      applicant_ids: [mine.applicantIds[0]!, theirs.applicantIds[0]!],
      sender: SENDER,
      receiver: (await ctx.courier.receivingAddress(null))!,
      pickup_window: ctx.window(),
      by: alice,
    });
    const error = await ctx.t.db
      .transaction()
      .execute((trx) => ctx.courier.storeShipment(trx, draft))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ ret: 2085 });
    expect(await ctx.courier.orderShipments(mine.userOrderId)).toEqual([]);
    // The order side calls the unstored booking off: the sandbox will never push it.
    await ctx.courier.cancelBooking(draft);
    expect((await ctx.t.app.courier.sandbox.ledger.find(draft.waybill_no))!.cancelled_at).toBe(T0);
  });

  it('answers 2086 and stores nothing when the provider cannot book', async () => {
    const failing: CourierProvider = {
      ...ctx.t.app.courier.sandbox.provider,
      name: 'sandbox',
      company: 'SF',
      createWaybill: async () => {
        throw new Error('connect ECONNREFUSED');
      },
    };
    const service = createCourierService(ctx.t.db, {
      provider: failing,
      now: () => ctx.t.clock.now,
      log: { info() {}, warn() {}, error() {} },
      queryAfterMs: QUERY_AFTER_MS,
    });
    const { userOrderId, applicantIds } = await ctx.order(alice);
    const error = await service
      .bookPickup({
        user_order_id: userOrderId,
        direction: 'to_service',
        applicant_ids: applicantIds,
        sender: SENDER,
        receiver: SENDER,
        pickup_window: ctx.window(),
        by: alice,
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ ret: 2086, message: '快递服务暂时不可用，请稍后再试' });
  });
});

describe('self-arranged parcels', () => {
  it('takes a company of the list (其他 with a name) and a waybill number, with a first "sent" event', async () => {
    const { userOrderId, applicantIds } = await ctx.order(alice);
    const receiver = (await ctx.courier.receivingAddress(null))!;
    const draft = ctx.courier.selfExpress({
      user_order_id: userOrderId,
      direction: 'to_service',
      applicant_ids: applicantIds,
      courier_company: 'SF',
      waybill_no: ' sf 1234-5678-90123 ',
      receiver,
      by: alice,
    });
    expect(draft).toMatchObject({ arrangement: 'self', provider: null, courier_company_name: '顺丰速运', waybill_no: 'SF1234567890123', sender: null });
    const shipmentId = await ctx.t.db.transaction().execute((trx) => ctx.courier.storeShipment(trx, draft));
    const view = await ctx.courier.shipment(shipmentId);
    expect(view).toMatchObject({ status: 'picked_up', arrangement_label: '自行寄送', pickup_window: null });
    expect(view.routes).toEqual([{ op_code: 'sent', status: 'picked_up', remark: '客户已自行寄出（顺丰速运 SF1234567890123）', location: '', event_time: T0 }]);
    // Not tracked by a provider: never asked about.
    expect((await stored(shipmentId)).shipment.next_query_at).toBeNull();

    const other = ctx.courier.selfExpress({ ...draft, courier_company: 'OTHER', courier_company_name: ' 安能物流 ', waybill_no: 'AN20261201001' });
    expect(other).toMatchObject({ courier_company: 'OTHER', courier_company_name: '安能物流' });
  });

  it('refuses companies off the list, 其他 without a name, and waybill numbers that cannot be', () => {
    const base = {
      user_order_id: 1,
      direction: 'to_service' as const,
      applicant_ids: [1],
      receiver: SENDER,
      by: alice,
      courier_company: 'ZTO',
      waybill_no: '78812345678901',
    };
    expect(ctx.courier.selfExpress(base).courier_company_name).toBe('中通快递');
    const cases: Array<[Record<string, unknown>, number, RegExp]> = [
      [{ courier_company: 'UPS' }, 2081, /请选择快递公司/],
      [{ courier_company: 'toString' }, 2081, /请选择快递公司/],
      [{ courier_company: 'OTHER', courier_company_name: '  ' }, 2081, /公司名称/],
      [{ courier_company: 'OTHER', courier_company_name: '名'.repeat(21) }, 2081, /公司名称/],
      [{ waybill_no: '' }, 2082, /请输入快递单号/],
      [{ waybill_no: '12345' }, 2082, /8–30 位/],
      [{ waybill_no: '7881234567890<script>' }, 2082, /8–30 位/],
      [{ courier_company: 'SF', waybill_no: 'SF12345678901' }, 2082, /顺丰单号/],
      [{ waybill_no: null }, 2082, /请输入快递单号/],
    ];
    for (const [change, ret, msg] of cases) {
      expect(() => ctx.courier.selfExpress({ ...base, ...change } as any), JSON.stringify(change)).toThrow(
        expect.objectContaining({ ret, message: expect.stringMatching(msg) }),
      );
    }
  });

  it('is delivered when a person confirms it, once; a cancelled pickup cannot be', async () => {
    const { userOrderId, applicantIds } = await ctx.order(alice);
    const draft = ctx.courier.selfExpress({
      user_order_id: userOrderId,
      direction: 'to_customer',
      applicant_ids: applicantIds,
      courier_company: 'EMS',
      waybill_no: 'EA123456789CN',
      sender: (await ctx.courier.receivingAddress(null))!,
      receiver: SENDER,
      by: operator,
    });
    const shipmentId = await ctx.t.db.transaction().execute((trx) => ctx.courier.storeShipment(trx, draft));
    expect((await ctx.courier.shipment(shipmentId)).routes[0]).toMatchObject({ remark: '易签通已自行寄出（中国邮政EMS EA123456789CN）', location: '北京市' });
    ctx.t.clock.now = T0 + 26 * HOUR;
    const delivered = await ctx.courier.confirmDelivered(shipmentId, alice);
    expect(delivered).toMatchObject({ status: 'delivered', status_at: T0 + 26 * HOUR });
    expect(delivered.routes.at(-1)).toEqual({
      op_code: 'received',
      status: 'delivered',
      remark: '客户已确认收到',
      location: '上海市',
      event_time: T0 + 26 * HOUR,
    });
    expect(toldAbout(shipmentId)).toEqual(['picked_up→delivered']);
    expect(ctx.told.find((e) => e.shipment_id === shipmentId)).toMatchObject({
      direction: 'to_customer',
      user_order_id: userOrderId,
      applicant_ids: applicantIds,
    });
    ctx.t.clock.now += HOUR;
    expect((await ctx.courier.confirmDelivered(shipmentId, operator)).routes).toHaveLength(2);
    expect(toldAbout(shipmentId)).toHaveLength(1);

    ctx.t.clock.now = T0;
    const pickup = await ctx.pickup(userOrderId, applicantIds, alice);
    await ctx.courier.cancelPickup(pickup.shipment_id);
    await expect(ctx.courier.confirmDelivered(pickup.shipment_id, operator)).rejects.toMatchObject({ ret: 2090 });
    await expect(ctx.courier.confirmDelivered(987_654, operator)).rejects.toMatchObject({ ret: 2087 });
  });
});

describe('the sandbox pushes each tracking event, signed, on its timer', () => {
  it('takes the parcel from 待揽收 to 已签收, telling the hook once per status, in order', async () => {
    const { userOrderId, applicantIds } = await ctx.order(alice);
    const shipment = await ctx.pickup(userOrderId, applicantIds, alice);
    const pusher = ctx.t.app.courier.sandbox.pusher;
    await pusher.runDue();
    expect((await stored(shipment.shipment_id)).routes).toEqual([]); // nothing has happened yet

    // (Other tests' parcels are pushed too: the ledger is shared, so counts are per waybill.)
    ctx.t.clock.now = T0 + STEP_MS + 1_000;
    await pusher.runDue();
    expect(await ctx.courier.shipment(shipment.shipment_id)).toMatchObject({
      status: 'picked_up',
      status_label: '已揽收',
      routes: [{ op_code: '50', remark: '顺丰速运 已收取快件', location: '上海市' }],
    });

    ctx.t.clock.now = T0 + 10 * STEP_MS;
    await pusher.runDue();
    const view = await ctx.courier.shipment(shipment.shipment_id);
    expect(view.status).toBe('delivered');
    expect(view.routes.map((r) => `${r.op_code}:${r.status}`)).toEqual([
      '50:picked_up',
      '30:in_transit',
      '31:in_transit',
      '44:out_for_delivery',
      '80:delivered',
    ]);
    const timeline = sandboxTimeline((await ctx.t.app.courier.sandbox.ledger.find(shipment.waybill_no))!);
    expect(view.routes.map((r) => r.event_time)).toEqual(timeline.map((e) => e.at));
    // The first 运输中 scan is when it started moving.
    expect(view.status_at).toBe(timeline[4]!.at);
    expect(toldAbout(shipment.shipment_id)).toEqual(['booked→picked_up', 'picked_up→in_transit', 'in_transit→out_for_delivery', 'out_for_delivery→delivered']);
    expect(ctx.told.filter((e) => e.shipment_id === shipment.shipment_id).map((e) => e.status_at)).toEqual([
      timeline[0]!.at,
      timeline[1]!.at,
      timeline[3]!.at,
      timeline[4]!.at,
    ]);

    const row = (await stored(shipment.shipment_id)).shipment;
    expect(row).toMatchObject({ announced_status: 'delivered', announce_until: null, next_query_at: null });
    const pushes = (await ctx.pushes()).filter((p) => p.waybill_nos === shipment.waybill_no);
    expect(pushes.map((p) => p.outcome)).toEqual(['stored', 'stored', 'stored', 'stored', 'stored']);
    expect(pushes.every((p) => p.signature_valid === 1 && p.new_routes === 1)).toBe(true);
    expect((await ctx.t.app.courier.sandbox.ledger.find(shipment.waybill_no))!).toMatchObject({ next_event: 5, next_push_at: null, pushes_sent: 5 });
  });

  it('sends some pushes twice: repeats store nothing and tell nobody', async () => {
    const { userOrderId, applicantIds } = await ctx.order(alice);
    const shipment = await ctx.pickup(userOrderId, applicantIds, alice);
    ctx.t.app.courier.sandbox.pusher.setDuplicateRate(1);
    ctx.t.clock.now = T0 + 10 * STEP_MS;
    await ctx.t.app.courier.sandbox.pusher.runDue();
    const pushes = (await ctx.pushes()).filter((p) => p.waybill_nos === shipment.waybill_no);
    expect(pushes.map((p) => p.outcome)).toEqual([
      'stored',
      'duplicate',
      'stored',
      'duplicate',
      'stored',
      'duplicate',
      'stored',
      'duplicate',
      'stored',
      'duplicate',
    ]);
    expect((await stored(shipment.shipment_id)).routes).toHaveLength(5);
    expect((await ctx.t.app.courier.sandbox.ledger.find(shipment.waybill_no))!.pushes_sent).toBe(10);
    expect(toldAbout(shipment.shipment_id)).toHaveLength(4);
  });

  it('retries a refused push with backoff, and gives an event up after five tries (the next is still pushed)', async () => {
    const { userOrderId, applicantIds } = await ctx.order(alice);
    const shipment = await ctx.pickup(userOrderId, applicantIds, alice);
    const sandbox = ctx.t.app.courier.sandbox;
    const inject = injectPushTransport(ctx.t.app);
    let refusals = 0;
    sandbox.pusher.setTransport(async (url, body, headers) => {
      // 揽收 never gets through; the rest does.
      if (decodeURIComponent(body).includes('"opCode":"50"')) {
        refusals += 1;
        return refusals % 2 ? { status: 502, body: 'Bad Gateway' } : Promise.reject(new Error('ECONNRESET'));
      }
      return inject(url, body, headers);
    });
    ctx.t.clock.now = T0 + STEP_MS;
    await sandbox.pusher.runDue();
    expect((await sandbox.ledger.find(shipment.waybill_no))!).toMatchObject({ next_event: 0, push_attempts: 1, next_push_at: ctx.t.clock.now + 2_000 });
    for (const wait of [2_000, 5_000, 15_000, 30_000]) {
      ctx.t.clock.now += wait;
      await sandbox.pusher.runDue();
    }
    expect(refusals).toBe(5);
    // Given up: on to 运输中, which is pushed when its time comes.
    expect((await sandbox.ledger.find(shipment.waybill_no))!).toMatchObject({ next_event: 1, push_attempts: 0, next_push_at: T0 + 2 * STEP_MS });
    ctx.t.clock.now = T0 + 2 * STEP_MS;
    await sandbox.pusher.runDue();
    const view = await ctx.courier.shipment(shipment.shipment_id);
    expect(view.routes.map((r) => r.op_code)).toEqual(['30']);
    expect(view.status).toBe('in_transit');
    expect(toldAbout(shipment.shipment_id)).toEqual(['booked→in_transit']);
  });
});

describe('pushes as they may arrive', () => {
  it('keeps the furthest status when events arrive out of order; late events are history only', async () => {
    const { userOrderId, applicantIds } = await ctx.order(alice);
    const shipment = await ctx.pickup(userOrderId, applicantIds, alice);
    const at = (minutes: number) => T0 + minutes * MINUTE;
    ctx.t.clock.now = at(30);
    const signed = await ctx.postPush(ctx.signedPush([route(shipment, '80', at(20)), route(shipment, '44', at(15))]));
    expect(signed).toMatchObject({ status: 200, json: { return_code: '0000', return_msg: '成功' } });
    let view = await ctx.courier.shipment(shipment.shipment_id);
    expect(view).toMatchObject({ status: 'delivered', status_at: at(20) });
    expect(toldAbout(shipment.shipment_id)).toEqual(['booked→delivered']);

    // 揽收 and 运输中 arrive late, one of them twice in one push: stored, nothing moves back.
    expect((await ctx.postPush(ctx.signedPush([route(shipment, '50', at(1)), route(shipment, '30', at(5)), route(shipment, '30', at(5))]))).status).toBe(200);
    view = await ctx.courier.shipment(shipment.shipment_id);
    expect(view).toMatchObject({ status: 'delivered', status_at: at(20) });
    expect(view.routes.map((r) => r.op_code)).toEqual(['50', '30', '44', '80']);
    // A failed attempt after delivery (an event that means no status) changes nothing either.
    await ctx.postPush(ctx.signedPush([route(shipment, '70', at(25))]));
    expect((await ctx.courier.shipment(shipment.shipment_id)).status).toBe('delivered');
    expect(toldAbout(shipment.shipment_id)).toEqual(['booked→delivered']);
    expect(shipmentReached(view.status, 'picked_up')).toBe(true);
  });

  it('stores an event once however often it is pushed, and the same event at another time as another event', async () => {
    const { userOrderId, applicantIds } = await ctx.order(alice);
    const shipment = await ctx.pickup(userOrderId, applicantIds, alice);
    const body = () => ctx.signedPush([route(shipment, '31', T0 + 5 * MINUTE)]);
    const answers = await Promise.all([ctx.postPush(body()), ctx.postPush(body()), ctx.postPush(body())]);
    expect(answers.map((a) => a.json?.return_code)).toEqual(['0000', '0000', '0000']);
    await ctx.postPush(ctx.signedPush([route(shipment, '31', T0 + 9 * MINUTE, { remark: '快件到达【北京顺义集散中心】' })]));
    const { routes, shipment: row } = await stored(shipment.shipment_id);
    expect(routes.map((r) => [r.op_code, r.event_time])).toEqual([
      ['31', T0 + 5 * MINUTE],
      ['31', T0 + 9 * MINUTE],
    ]);
    expect(row).toMatchObject({ status: 'in_transit', status_at: T0 + 5 * MINUTE });
    const outcomes = (await ctx.pushes()).filter((p) => p.waybill_nos === shipment.waybill_no).map((p) => p.outcome);
    expect(outcomes.filter((o) => o === 'stored')).toHaveLength(2);
    expect(outcomes.filter((o) => o === 'duplicate')).toHaveLength(2);
    expect(toldAbout(shipment.shipment_id)).toEqual(['booked→in_transit']);
  });

  it('refuses a push that is not signed right, logs it, and changes nothing', async () => {
    const { userOrderId, applicantIds } = await ctx.order(alice);
    const shipment = await ctx.pickup(userOrderId, applicantIds, alice);
    const before = (await ctx.pushes()).length;
    const routes = [route(shipment, '80', T0 + MINUTE)];
    const good = ctx.signedPush(routes);
    const tampered = new URLSearchParams(good);
    tampered.set('msgData', tampered.get('msgData')!.replace('"80"', '"50"'));
    const noDigest = new URLSearchParams(good);
    noDigest.delete('msgDigest');
    const twice = new URLSearchParams(good);
    twice.append('msgData', JSON.stringify({ Body: { WaybillRoute: [route(shipment, '50', T0)] } }));
    const forged = [
      ctx.signedPush(routes, { checkWord: 'not-the-check-word-0123456789' }),
      ctx.signedPush(routes, { partnerId: 'SOMEONE_ELSE' }),
      ctx.signedPush(routes, { at: T0 - 6 * MINUTE }),
      ctx.signedPush(routes, { at: T0 + 6 * MINUTE }),
      tampered.toString(),
      noDigest.toString(),
      twice.toString(),
      good.replace('serviceCode=RoutePushService', 'serviceCode=EXP_RECE_CREATE_ORDER'),
    ];
    for (const body of forged) {
      const answer = await ctx.postPush(body);
      expect(answer, body.slice(0, 80)).toMatchObject({ status: 401, json: { return_code: '1000', return_msg: '签名错误' } });
    }
    const logged = (await ctx.pushes()).slice(before);
    expect(logged).toHaveLength(forged.length);
    // What could be read is kept for the record (not when msgData came twice).
    expect(logged.filter((p) => p.waybill_nos === shipment.waybill_no)).toHaveLength(forged.length - 1);
    expect(logged.every((p) => p.outcome === 'bad_signature' && p.signature_valid === 0 && p.new_routes === 0)).toBe(true);
    expect(await stored(shipment.shipment_id)).toMatchObject({ shipment: { status: 'booked' }, routes: [] });
    expect(toldAbout(shipment.shipment_id)).toEqual([]);
  });

  it('answers FAIL 404 for a waybill it does not know (the provider sends it again), storing what it knows', async () => {
    const { userOrderId, applicantIds } = await ctx.order(alice);
    const shipment = await ctx.pickup(userOrderId, applicantIds, alice);
    const stranger = { waybill_no: 'SF9999999999999', shipment_no: 'YQS-NOT-OURS' };
    const answer = await ctx.postPush(ctx.signedPush([route(stranger, '50', T0), route(shipment, '50', T0)]));
    expect(answer).toMatchObject({ status: 404, json: { return_code: '1000', return_msg: '运单不存在' } });
    expect((await ctx.courier.shipment(shipment.shipment_id)).status).toBe('picked_up');
    // Our waybill with someone else's order id is not ours either.
    const mismatch = await ctx.postPush(ctx.signedPush([route({ waybill_no: shipment.waybill_no, shipment_no: 'YQS-OTHER' }, '30', T0 + MINUTE)]));
    expect(mismatch.status).toBe(404);
    expect((await stored(shipment.shipment_id)).routes).toHaveLength(1);
    const outcomes = (await ctx.pushes()).filter((p) => p.waybill_nos?.includes(shipment.waybill_no)).map((p) => [p.outcome, p.new_routes]);
    expect(outcomes).toEqual([
      ['unknown_waybill', 1],
      ['unknown_waybill', 0],
    ]);
  });

  it('never answers bad input with a 500 or a stack trace', async () => {
    const { userOrderId, applicantIds } = await ctx.order(alice);
    const shipment = await ctx.pickup(userOrderId, applicantIds, alice);
    const signer = { partnerId: ctx.config.COURIER_SANDBOX_PARTNER_ID, checkWord: ctx.config.COURIER_SANDBOX_CHECK_WORD };
    const signed = (msgData: string) => signedSfForm(signer, 'RoutePushService', msgData, ctx.t.clock.now);
    const malformed = [
      signed('not json'),
      signed('{}'),
      signed('{"Body":{"WaybillRoute":[]}}'),
      signed('{"Body":{"WaybillRoute":"50"}}'),
      signed(JSON.stringify({ Body: { WaybillRoute: [route(shipment, '50', T0, { acceptTime: '2026-02-30 10:00:00' })] } })),
      signed(JSON.stringify({ Body: { WaybillRoute: [route(shipment, '50', T0, { acceptTime: 'yesterday' })] } })),
      signed(JSON.stringify({ Body: { WaybillRoute: [route(shipment, '50', T0, { mailno: "SF1' OR 1=1" })] } })),
      signed(JSON.stringify({ Body: { WaybillRoute: [route(shipment, '50', T0, { opCode: { $gt: '' } })] } })),
      signed(JSON.stringify({ Body: { WaybillRoute: [route(shipment, '50', T0, { remark: 'x'.repeat(501) })] } })),
      signed(JSON.stringify({ Body: { WaybillRoute: Array.from({ length: 101 }, (_, i) => route(shipment, '31', T0 + i * 1000)) } })),
    ];
    for (const body of malformed) {
      const answer = await ctx.postPush(body);
      expect(answer, body.slice(-120)).toMatchObject({ status: 400, json: { return_code: '1000', return_msg: '报文格式错误' } });
    }
    const unsigned = ['', 'garbage', '{"Body":{}}', '%%%', 'msgData=&msgDigest=', '\u0000\u0001'];
    for (const body of unsigned) {
      for (const type of ['application/x-www-form-urlencoded', 'application/json', 'text/plain']) {
        const answer = await ctx.postPush(body, type);
        expect(answer.status, `${type} ${JSON.stringify(body)}`).toBe(401);
        expect(answer.json).toEqual({ return_code: '1000', return_msg: '签名错误' });
      }
    }
    const huge = await ctx.postPush(`msgData=${'a'.repeat(70 * 1024)}`);
    expect(huge.status).toBe(413);
    expect(huge.body).not.toMatch(/at .*\.ts/);
    const get = await ctx.t.app.inject({ method: 'GET', url: '/courier/notify/sandbox' });
    expect(get.statusCode).toBe(404);
    expect((await stored(shipment.shipment_id)).routes).toEqual([]);
    expect((await ctx.pushes()).filter((p) => p.waybill_nos === shipment.waybill_no).every((p) => p.outcome === 'malformed' && p.signature_valid === 1)).toBe(
      true,
    );
  });
  it('survives random bodies, signed or not, without a 500 or a change to a shipment', async () => {
    const { userOrderId, applicantIds } = await ctx.order(alice);
    const shipment = await ctx.pickup(userOrderId, applicantIds, alice);
    let seed = 20261124;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
    const text = () => Array.from({ length: Math.floor(random() * 40) }, () => String.fromCharCode(Math.floor(random() * 0x3000))).join('');
    const value = (depth: number): unknown => {
      const kind = Math.floor(random() * (depth > 2 ? 4 : 7));
      if (kind === 0) return text();
      if (kind === 1) return Math.floor(random() * 1e6) - 5e5;
      if (kind === 2) return pick([null, true, false, '', '80', shipment.waybill_no, formatAcceptTime(T0)]);
      if (kind === 3) return pick(['2026-12-01 10:00:00', 'SF0000000000000', '50', 1.5, -1]);
      if (kind === 4) return Array.from({ length: Math.floor(random() * 3) }, () => value(depth + 1));
      const keys = ['Body', 'WaybillRoute', 'mailno', 'orderid', 'acceptTime', 'opCode', 'remark', 'id', 'acceptAddress', text()];
      return Object.fromEntries(Array.from({ length: Math.floor(random() * 5) }, () => [pick(keys), value(depth + 1)]));
    };
    const signer = { partnerId: ctx.config.COURIER_SANDBOX_PARTNER_ID, checkWord: ctx.config.COURIER_SANDBOX_CHECK_WORD };
    for (let i = 0; i < 300; i += 1) {
      const body =
        i % 3 === 0
          ? signedSfForm(signer, 'RoutePushService', JSON.stringify({ Body: { WaybillRoute: [value(1), value(1)] } }), ctx.t.clock.now)
          : i % 3 === 1
            ? signedSfForm(signer, 'RoutePushService', JSON.stringify(value(0)) ?? 'undefined', ctx.t.clock.now)
            : text();
      const answer = await ctx.postPush(body, pick(['application/x-www-form-urlencoded', 'application/json', 'text/plain', 'multipart/form-data']));
      expect(answer.status, `#${i} ${body.slice(0, 100)}`).toBeLessThan(500);
      expect(answer.json?.return_code, `#${i}`).toMatch(/^(0000|1000)$/);
    }
    // Random routes may carry our waybill with a real-looking event: only complete, valid ones could be stored.
    for (const route of (await stored(shipment.shipment_id)).routes) expect(route.op_code).toMatch(/^[0-9A-Za-z]{1,10}$/);
  });
});

describe('the query fallback', () => {
  it('catches up on a push that never arrived, and only after the parcel went quiet', async () => {
    const { userOrderId, applicantIds } = await ctx.order(alice);
    const shipment = await ctx.pickup(userOrderId, applicantIds, alice);
    const sandbox = ctx.t.app.courier.sandbox;
    const inject = injectPushTransport(ctx.t.app);
    // 运输中 (first scan) is lost for good; the others arrive.
    sandbox.pusher.setTransport(async (url, body, headers) =>
      decodeURIComponent(body).includes('"opCode":"30"') ? { status: 503, body: '' } : inject(url, body, headers),
    );
    // Every 5 s from the first event to the third: 运输中 is tried at 120 s, 125, 130, 145 and 175, then given up.
    for (let second = 60; second <= 185; second += 5) {
      ctx.t.clock.now = T0 + second * 1_000;
      await sandbox.pusher.runDue();
    }
    // 揽收 arrived; 运输中 never did; 到达 (31) arrived after it was given up.
    let view = await ctx.courier.shipment(shipment.shipment_id);
    expect(view.routes.map((r) => r.op_code)).toEqual(['50', '31']);
    // Not quiet long enough (10 minutes since the last event): nobody asks.
    expect((await stored(shipment.shipment_id)).shipment.next_query_at).toBe(T0 + 180_000 + QUERY_AFTER_MS);
    await ctx.courier.reconcileDue();
    expect((await stored(shipment.shipment_id)).routes).toHaveLength(2);

    ctx.t.clock.now = T0 + 180_000 + QUERY_AFTER_MS;
    expect(await ctx.courier.reconcileDue()).toBeGreaterThanOrEqual(1);
    view = await ctx.courier.shipment(shipment.shipment_id);
    expect(view.routes.map((r) => r.op_code)).toEqual(['50', '30', '31', '44', '80']);
    expect(view.status).toBe('delivered');
    const sources = (await stored(shipment.shipment_id)).routes.map((r) => `${r.op_code}:${r.source}`);
    expect(sources).toEqual(['50:push', '31:push', '30:query', '44:query', '80:query']);
    expect(toldAbout(shipment.shipment_id)).toEqual(['booked→picked_up', 'picked_up→in_transit', 'in_transit→delivered']);
    // Delivered: no longer asked about.
    expect((await stored(shipment.shipment_id)).shipment.next_query_at).toBeNull();
  });

  it('asks about each quiet parcel once even with several instances sweeping at the same time', async () => {
    const { userOrderId, applicantIds } = await ctx.order(alice);
    const shipments = [];
    for (let i = 0; i < 3; i += 1) shipments.push(await ctx.pickup(userOrderId, applicantIds, alice));
    // On PostgreSQL a second app instance with its own connection pool. On SQLite both
    // services share this app's connection: two better-sqlite3 connections in one
    // process block each other's thread (two instances are two processes there); the
    // claims still interleave at every await.
    const second = ctx.t.kind === 'postgres' ? await createTestApp(ctx.database) : null;
    second?.app.courier.sandbox.pusher.stop();
    try {
      const asked: string[] = [];
      const counting = (app: typeof ctx.t.app): CourierProvider => {
        const real = app.courier.sandbox.provider;
        return {
          ...real,
          queryRoutes: async (waybillNo) => {
            asked.push(waybillNo);
            return real.queryRoutes(waybillNo);
          },
        };
      };
      const at = T0 + QUERY_AFTER_MS + 2 * STEP_MS + 1_000;
      // The sandbox answers by its own clock: the whole journey has happened by then.
      ctx.t.clock.now = at;
      if (second) second.clock.now = at;
      const log = { info() {}, warn() {}, error() {} };
      const one = createCourierService(ctx.t.db, { provider: counting(ctx.t.app), now: () => at, log, queryAfterMs: QUERY_AFTER_MS });
      const two = createCourierService(second?.db ?? ctx.t.db, {
        provider: counting(second?.app ?? ctx.t.app),
        now: () => at,
        log,
        queryAfterMs: QUERY_AFTER_MS,
      });
      const counts = await Promise.all([one.reconcileDue(), two.reconcileDue(), one.reconcileDue()]);
      const ours = new Set(shipments.map((s) => s.waybill_no));
      expect(asked.filter((no) => ours.has(no)).sort()).toEqual([...ours].sort());
      expect(counts.reduce((a, b) => a + b, 0)).toBe(asked.length);
      for (const shipment of shipments) expect((await ctx.courier.shipment(shipment.shipment_id)).status).toBe('delivered');
    } finally {
      await second?.close(false);
    }
  });
});

describe('cancelling a pickup', () => {
  it('calls it off before the courier came (the sandbox pushes nothing); after 揽收 it answers 2088', async () => {
    const { userOrderId, applicantIds } = await ctx.order(alice);
    const early = await ctx.pickup(userOrderId, applicantIds, alice);
    const cancelled = await ctx.courier.cancelPickup(early.shipment_id);
    expect(cancelled).toMatchObject({ status: 'cancelled', status_label: '已取消', cancelled_at: T0 });
    expect(await ctx.courier.cancelPickup(early.shipment_id)).toMatchObject({ status: 'cancelled' });
    expect(toldAbout(early.shipment_id)).toEqual(['booked→cancelled']);

    const late = await ctx.pickup(userOrderId, applicantIds, alice);
    ctx.t.clock.now = T0 + 10 * STEP_MS;
    await ctx.t.app.courier.sandbox.pusher.runDue();
    expect((await stored(early.shipment_id)).routes).toEqual([]);
    expect((await ctx.t.app.courier.sandbox.ledger.find(early.waybill_no))!.pushes_sent).toBe(0);
    await expect(ctx.courier.cancelPickup(late.shipment_id)).rejects.toMatchObject({ ret: 2088, message: '快递员已揽收，不能取消预约' });

    // The provider knows better than we do: picked up, but its push has not come.
    const quiet = await ctx.pickup(userOrderId, applicantIds, alice);
    ctx.t.clock.now += STEP_MS + 1_000;
    await expect(ctx.courier.cancelPickup(quiet.shipment_id)).rejects.toMatchObject({ ret: 2088 });
    expect((await ctx.courier.shipment(quiet.shipment_id)).status).toBe('picked_up');
    await expect(ctx.courier.cancelPickup(123_456_789)).rejects.toMatchObject({ ret: 2087 });
  });
});

describe('the status hook', () => {
  it('is told again by the sweep when a handler failed, and then not again', async () => {
    const { userOrderId, applicantIds } = await ctx.order(alice);
    const shipment = await ctx.pickup(userOrderId, applicantIds, alice);
    let failures = 1;
    const seen: string[] = [];
    const remove = ctx.courier.onShipmentStatus((event) => {
      if (event.shipment_id !== shipment.shipment_id) return;
      seen.push(`${event.from}→${event.to}`);
      if (failures-- > 0) throw new Error('order module busy');
    });
    try {
      ctx.t.clock.now = T0 + STEP_MS;
      await ctx.t.app.courier.sandbox.pusher.runDue();
      // The route is stored whatever the handler did; the change is not marked as told.
      expect(await stored(shipment.shipment_id)).toMatchObject({ shipment: { status: 'picked_up', announced_status: 'booked' } });
      expect(await ctx.courier.announceDue()).toBe(0); // not before the retry time
      ctx.t.clock.now += 61_000;
      expect(await ctx.courier.announceDue()).toBe(1);
      expect(seen).toEqual(['booked→picked_up', 'booked→picked_up']);
      expect(await stored(shipment.shipment_id)).toMatchObject({ shipment: { announced_status: 'picked_up', announce_until: null } });
      ctx.t.clock.now += 61_000;
      expect(await ctx.courier.announceDue()).toBe(0);
      expect(seen).toHaveLength(2);
    } finally {
      remove();
    }
  });
});
