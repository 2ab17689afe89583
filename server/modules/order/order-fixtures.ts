// Test fixtures of the order module: an app on a seeded, private database
// with a fixed clock, the order service on it, and catalogue products that fit
// each case. Not a test file itself.
import { expect } from 'vitest';
import type { OrderCreateInput } from '../../../common/contracts/order.ts';
import { seedCatalogue } from '../../db/seed/catalogue/index.ts';
import { AppError } from '../../platform/errors.ts';
import { createTestApp, createTestDatabase, type TestApp, type TestDatabase } from '../../test-support/test-app.ts';
import { createOrderService, type OrderService } from './order.service.ts';
import type { Customer } from '../../platform/principal.ts';

type OrderApplicantInput = OrderCreateInput['applicants'][number];

/** Tuesday 1 December 2026, 10:00 in China (02:00 UTC). */
export const T0 = Date.parse('2026-12-01T02:00:00Z');
export const TODAY = '2026-12-01';
export const HOUR = 3_600_000;

export interface OrderTestContext {
  database: TestDatabase;
  t: TestApp;
  service: OrderService;
  products: Awaited<ReturnType<typeof findProducts>>;
  close(): Promise<void>;
}

export async function orderTestContext(): Promise<OrderTestContext> {
  const database = await createTestDatabase();
  const t = await createTestApp(database, { seed: (handle) => seedCatalogue(handle.db, T0) });
  t.clock.now = T0;
  const service = createOrderService(t.db, { now: () => t.clock.now });
  return { database, t, service, products: await findProducts(t), close: () => t.close(true) };
}

export async function newCustomer(t: TestApp): Promise<Customer & { account: string; password: string }> {
  const created = await t.createAccount();
  return { kind: 'customer', accountId: created.accountId, enterpriseId: created.enterpriseId, account: created.account, password: created.password };
}

export function applicant(index: number, extra: Partial<OrderApplicantInput> = {}): OrderApplicantInput {
  return { name: `申请人${index}`, identity_id: index % 5, mobile_phone: `1380013${String(8000 + index)}`, ...extra };
}

/** Products of the seeded catalogue for each case. */
async function findProducts(t: TestApp) {
  const all = await t.db.selectFrom('visa_product').selectAll().orderBy('visa_product_id').execute();
  const districts = await t.db.selectFrom('consular_district').selectAll().orderBy('consular_district_id').execute();
  const districtsOf = (countryId: number) => districts.filter((d) => d.visa_country_id === countryId);
  const orderable = all.filter((p) => p.status === 0 && p.channel === 0 && p.offline === 1);
  const pick = <T>(found: T | undefined, what: string): T => {
    if (!found) throw new Error(`the seed has no ${what}`);
    return found;
  };
  /** Listed, with a distributor price and its own consular district, in a country of several districts. */
  const discounted = pick(
    orderable.find(
      (p) =>
        p.distributor_discount_price !== null && p.distributor_discount_desc && p.consular_district_id !== null && districtsOf(p.visa_country_id).length > 1,
    ),
    'discounted product with a district',
  );
  /** Listed, sell_price only, for every district of a country that has districts. */
  const plain = pick(
    orderable.find((p) => p.distributor_discount_price === null && p.consular_district_id === null && districtsOf(p.visa_country_id).length > 0),
    'plain product without a district',
  );
  return {
    discounted,
    discountedOtherDistrict: pick(
      districtsOf(discounted.visa_country_id).find((d) => d.consular_district_id !== discounted.consular_district_id),
      'second district',
    ),
    plain,
    plainDistrict: districtsOf(plain.visa_country_id)[0]!,
    foreignDistrict: pick(
      districts.find((d) => d.visa_country_id !== plain.visa_country_id && d.visa_country_id !== discounted.visa_country_id),
      'foreign district',
    ),
    delistedByStatus: pick(
      all.find((p) => p.status === 1),
      'product delisted by status',
    ),
    delistedByChannel: pick(
      all.find((p) => p.channel === 99 && p.status === 0),
      'product delisted by channel',
    ),
    notOffline: pick(
      all.find((p) => p.offline === 0 && p.status === 0 && p.channel === 0),
      'mini-program-only product',
    ),
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
