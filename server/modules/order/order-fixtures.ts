// Test fixtures of the order module: an app on a private database with a
// fixed clock, the order service on it, and the products each case needs,
// inserted by the factories (server/test-support/factories.ts). Not a test
// file itself.
import { expect } from 'vitest';
import type { OrderCreateInput } from '../../../common/contracts/order.ts';
import { seedCatalogue } from '../../db/seed/catalogue/index.ts';
import { AppError } from '../../platform/errors.ts';
import { createTestApp, createTestDatabase, type TestApp, type TestDatabase } from '../../test-support/test-app.ts';
import { createOrderService, type OrderService } from './order.service.ts';
import { createCustomerOrderView, type CustomerOrderView } from '../order-view/customer-view.ts';
import type { Customer } from '../../platform/principal.ts';

type OrderApplicantInput = OrderCreateInput['applicants'][number];

/** Tuesday 1 December 2026, 10:00 in China (02:00 UTC). */
export const T0 = Date.parse('2026-12-01T02:00:00Z');
export const TODAY = '2026-12-01';
export const HOUR = 3_600_000;

export interface OrderTestContext {
  database: TestDatabase;
  t: TestApp;
  /** The order's writes with the customer's reads (detail, list), as app.ts wires them. */
  service: OrderService & CustomerOrderView;
  products: Awaited<ReturnType<typeof insertProducts>>;
  close(): Promise<void>;
}

export interface OrderTestOptions {
  /** Also load the demo catalogue seed (for a test about the seeded catalogue itself); the products below never come from it. */
  demoCatalogue?: boolean;
}

export async function orderTestContext(options: OrderTestOptions = {}): Promise<OrderTestContext> {
  const database = await createTestDatabase();
  const t = await createTestApp(database, options.demoCatalogue ? { seed: (handle) => seedCatalogue(handle.db, T0) } : {});
  t.clock.now = T0;
  const deps = { now: () => t.clock.now };
  const service = { ...createOrderService(t.db, deps), ...createCustomerOrderView(t.db, deps) };
  return { database, t, service, products: await insertProducts(t), close: () => t.close(true) };
}

export async function newCustomer(t: TestApp): Promise<Customer & { account: string; password: string }> {
  const created = await t.createAccount();
  return { kind: 'customer', accountId: created.accountId, enterpriseId: created.enterpriseId, account: created.account, password: created.password };
}

export function applicant(index: number, extra: Partial<OrderApplicantInput> = {}): OrderApplicantInput {
  return { name: `申请人${index}`, identity_id: index % 5, mobile_phone: `1380013${String(8000 + index)}`, ...extra };
}

/** The products of the order tests, one for each case. */
async function insertProducts(t: TestApp) {
  /** Listed, with a distributor price, bound to its own consular district of a country with several. */
  const discounted = await t.insertProduct({ district: 'own', price: 68_000, discount: { price: 59_800, desc: '企业客户专享价' } });
  /** Listed, sell_price only, with a photo item, for every district of a country that has districts. */
  const plain = await t.insertProduct({ price: 45_000, photo: true });
  /** Listed, with an interview at its own consulate. */
  const interview = await t.insertProduct({ district: 'own', interview: true });
  const foreign = await t.insertProduct();
  return {
    discounted,
    discountedOtherDistrict: discounted.districts.find((d) => d.consular_district_id !== discounted.consular_district_id)!,
    plain,
    plainDistrict: plain.districts[0]!,
    interview,
    foreignDistrict: foreign.districts[0]!,
    delistedByStatus: await t.insertProduct({ listed: false }),
    delistedByChannel: await t.insertProduct({ channel: 99 }),
    notOffline: await t.insertProduct({ offline: false }),
  };
}

/** The promise fails with this AppError (ret, and msg when given). */
export async function expectRefused(promise: Promise<unknown>, ret: number, msg?: string | RegExp): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error, `expected ret ${ret}`).toBeInstanceOf(AppError);
  const appError = error as AppError;
  expect(appError.ret).toBe(ret);
  if (typeof msg === 'string') expect(appError.message).toBe(msg);
  else if (msg) expect(appError.message).toMatch(msg);
  return appError;
}
