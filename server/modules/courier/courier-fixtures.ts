// Test fixtures of the courier module: an app on a private database (a
// product inserted by the factories, the receiving addresses seeded for its
// consulates) with a fixed clock, orders with
// applicants to ship for, and the sandbox's pushes sent in-process
// (app.inject) and only when a test says so (its background pusher is
// stopped). Not a test file itself.
import type { FastifyInstance } from 'fastify';
import type { CourierContact, PickupWindow, ShipmentView } from '../../../common/courier.ts';
import { seedReceivingAddresses } from '../../db/seed/receiving-addresses.ts';
import type { Principal, Customer } from '../../platform/principal.ts';
import { createTestApp, createTestDatabase, type TestApp, type TestDatabase } from '../../test-support/test-app.ts';
import { createOrderService } from '../order/order.service.ts';
import type { ShipmentStatusEvent } from './announcer.ts';
import type { CourierService, PickupRequest } from './courier.service.ts';
import type { PushTransport } from './sandbox-pusher.ts';
import { signedSfForm } from './sandbox-signature.ts';
import { SF_ROUTE_PUSH_SERVICE, type SfWaybillRoute } from './sf-format.ts';

/** Tuesday 1 December 2026, 10:00 in China (02:00 UTC). */
export const T0 = Date.parse('2026-12-01T02:00:00Z');
export const MINUTE = 60_000;
export const HOUR = 3_600_000;
/** One sandbox tracking event a minute in these tests; the whole journey takes five. */
export const STEP_MS = MINUTE;
export const QUERY_AFTER_MS = 10 * MINUTE;

/** The sandbox's "network" when the app does not listen: requests go through app.inject. */
export function injectPushTransport(app: FastifyInstance): PushTransport {
  return async (url, body, headers) => {
    const response = await app.inject({ method: 'POST', url: new URL(url).pathname, payload: body, headers });
    return { status: response.statusCode, body: response.body };
  };
}

/** A sender in Shanghai (静安区), as the address book would give it. */
export const SENDER: CourierContact = {
  name: '张三',
  mobile_phone: '13800138001',
  company_name: '上海星途商务咨询有限公司',
  province_code: '310000',
  city_code: '310100',
  county_code: '310106',
  province_name: '上海市',
  city_name: '上海市',
  county_name: '静安区',
  detail: '南京西路1788号国际会所12楼',
};

export interface CourierTestContext {
  t: TestApp;
  database: TestDatabase;
  courier: CourierService;
  config: TestDatabase['config'];
  customer(): Promise<Customer>;
  /** A draft order of the customer with two applicants (courier rules do not depend on the order's state). */
  order(customer: Customer, consularDistrictCity?: string): Promise<{ userOrderId: number; applicantIds: number[]; consularDistrictId: number | null }>;
  /** Today 13:00–15:00 China time. */
  window(): PickupWindow;
  /** Books a pickup and stores it, the way the order side does (bookPickup, then storeShipment in a transaction). */
  pickup(userOrderId: number, applicantIds: number[], by: Principal, change?: Partial<PickupRequest>): Promise<ShipmentView>;
  /** The form the sandbox would post for these routes, signed now (or with another check word). */
  signedPush(routes: SfWaybillRoute[], options?: { checkWord?: string; at?: number; partnerId?: string }): string;
  postPush(body: string, contentType?: string): Promise<{ status: number; json: { return_code: string; return_msg: string } | null; body: string }>;
  pushes(): Promise<Array<{ outcome: string; signature_valid: number; new_routes: number; waybill_nos: string | null }>>;
  /** Status changes the hook was told about since the context started (cleared by the caller when needed). */
  told: ShipmentStatusEvent[];
  close(): Promise<void>;
}

export async function courierTestContext(): Promise<CourierTestContext> {
  const database = await createTestDatabase();
  database.config.COURIER_SANDBOX_STEP_MS = STEP_MS;
  database.config.COURIER_SANDBOX_DUPLICATE_RATE = 0;
  database.config.COURIER_QUERY_AFTER_MS = QUERY_AFTER_MS;
  const t = await createTestApp(database);
  t.clock.now = T0;
  // A product for every consulate of a country with consulates in 北京, 上海 (each an office of the
  // service) and 青岛 (none: the central address); then the receiving addresses of those districts.
  const product = await t.insertProduct({
    country: {
      districts: [
        { name: '北京领区', city: '北京', provinces: ['110000'] },
        { name: '上海领区', city: '上海', provinces: ['310000'] },
        { name: '青岛领区', city: '青岛', provinces: ['370000'] },
      ],
    },
  });
  await seedReceivingAddresses(t.db, T0);
  // Tests push when they choose (runDue), through the app in-process.
  t.app.courier.sandbox.pusher.stop();
  t.app.courier.sandbox.pusher.setTransport(injectPushTransport(t.app));
  const courier = t.app.courier.service;
  const told: ShipmentStatusEvent[] = [];
  courier.onShipmentStatus((event) => {
    told.push(event);
  });
  const orders = createOrderService(t.db, { now: () => t.clock.now });
  const config = database.config;

  const ctx: CourierTestContext = {
    t,
    database,
    courier,
    config,
    told,
    async customer() {
      const created = await t.createAccount();
      return { kind: 'customer', accountId: created.accountId, enterpriseId: created.enterpriseId };
    },
    async order(customer, city = '上海') {
      const district = product.districts.find((d) => d.city === city);
      if (!district) throw new Error(`no consular district in ${city}`);
      const created = await orders.create(customer, {
        visa_product_id: product.visa_product_id,
        consular_district_id: district.consular_district_id,
        departure_date: '2026-12-28',
        applicants: [
          { name: '张三', identity_id: 0, mobile_phone: '13800138001' },
          { name: '李四', identity_id: 1, mobile_phone: '13800138002' },
        ],
      });
      const applicants = await t.db
        .selectFrom('order_applicant')
        .select('applicant_id')
        .where('user_order_id', '=', created.user_order_id)
        .orderBy('applicant_id')
        .execute();
      return { userOrderId: created.user_order_id, applicantIds: applicants.map((a) => a.applicant_id), consularDistrictId: district.consular_district_id };
    },
    window: () => ({ start: T0 + 3 * HOUR, end: T0 + 5 * HOUR }),
    async pickup(userOrderId, applicantIds, by, change = {}) {
      const receiver = await courier.receivingAddress(null);
      const draft = await courier.bookPickup({
        user_order_id: userOrderId,
        direction: 'to_service',
        applicant_ids: applicantIds,
        sender: SENDER,
        receiver: receiver!,
        pickup_window: ctx.window(),
        by,
        ...change,
      });
      const shipmentId = await t.db.transaction().execute((trx) => courier.storeShipment(trx, draft));
      return courier.shipment(shipmentId);
    },
    signedPush(routes, options = {}) {
      const msgData = JSON.stringify({ Body: { WaybillRoute: routes } });
      return signedSfForm(
        { partnerId: options.partnerId ?? config.COURIER_SANDBOX_PARTNER_ID, checkWord: options.checkWord ?? config.COURIER_SANDBOX_CHECK_WORD },
        SF_ROUTE_PUSH_SERVICE,
        msgData,
        options.at ?? t.clock.now,
      );
    },
    async postPush(body, contentType = 'application/x-www-form-urlencoded;charset=UTF-8') {
      const response = await t.app.inject({ method: 'POST', url: '/courier/notify/sandbox', payload: body, headers: { 'content-type': contentType } });
      let json: { return_code: string; return_msg: string } | null;
      try {
        json = response.json();
      } catch {
        json = null;
      }
      return { status: response.statusCode, json, body: response.body };
    },
    pushes: () => t.db.selectFrom('courier_push').select(['outcome', 'signature_valid', 'new_routes', 'waybill_nos']).orderBy('courier_push_id').execute(),
    close: () => t.close(true),
  };
  return ctx;
}
