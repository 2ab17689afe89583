// The receiving-address seed and the district → address rule, on a real
// migrated database (SQLite, or PostgreSQL with TEST_DATABASE_URL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveRegion } from '../../modules/address/address-region.ts';
import { createCourierService } from '../../modules/courier/courier.service.ts';
import { createSandboxCourier } from '../../modules/courier/sandbox-provider.ts';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-app.ts';
import type { DatabaseHandle } from '../database.ts';
import { seedCatalogue } from './catalogue/index.ts';
import { seedReceivingAddresses } from './receiving-addresses.ts';

const NOW = Date.UTC(2026, 10, 24, 8, 0, 0);
const log = { info() {}, warn() {}, error() {} };

let testDb: TestDatabase;
let handle: DatabaseHandle;

beforeAll(async () => {
  testDb = await createTestDatabase();
  handle = testDb.open();
  await seedCatalogue(handle.db, NOW);
});
afterAll(async () => {
  await handle.destroy();
  await testDb.drop();
});

function courier() {
  const sandbox = createSandboxCourier({
    db: handle.db,
    partnerId: 'YQT_TEST',
    checkWord: 'check-word-0123456789',
    siteUrl: 'http://localhost',
    stepMs: 1000,
    duplicateRate: 0,
    now: () => NOW,
    log,
  });
  return createCourierService(handle.db, { provider: sandbox.provider, now: () => NOW, log, queryAfterMs: 600_000 });
}

describe('receiving addresses', () => {
  it('are none before the seed (the order side then answers 2089)', async () => {
    expect(await courier().receivingAddress(null)).toBeNull();
    const district = await handle.db.selectFrom('consular_district').select('consular_district_id').executeTakeFirstOrThrow();
    expect(await courier().receivingAddress(district.consular_district_id)).toBeNull();
  });

  it('are seeded for every district in a city with an office, plus the central one; again adds nothing', async () => {
    const added = await seedReceivingAddresses(handle.db, NOW);
    const districts = await handle.db.selectFrom('consular_district').select(['consular_district_id', 'city']).execute();
    const withOffice = districts.filter((d) => ['北京', '上海', '广州', '成都', '沈阳', '武汉', '重庆'].includes(d.city));
    expect(withOffice.length).toBeGreaterThan(50);
    expect(withOffice.length).toBeLessThan(districts.length);
    expect(added).toBe(withOffice.length + 1);
    expect(await seedReceivingAddresses(handle.db, NOW)).toBe(0);

    const rows = await handle.db.selectFrom('receiving_address').selectAll().execute();
    for (const row of rows) {
      // Real places of the address library, the same names the pages show.
      expect(resolveRegion(row.province_code, row.city_code, row.county_code)).toMatchObject({
        province_name: row.province_name,
        city_name: row.city_name,
        county_name: row.county_name,
      });
      expect(row.mobile_phone).toMatch(/^1[3-9]\d{9}$/);
    }
    // Each district's desk is in the consulate's city.
    const tokyo = rows.find((r) => r.company_name.includes('上海') && r.company_name.includes('日本'));
    expect(tokyo).toMatchObject({ city_name: '上海市', county_name: '静安区' });
  });

  it("gives a district its own address, a district without one the central one, and keeps an operator's edits", async () => {
    const service = courier();
    const qingdao = await handle.db.selectFrom('consular_district').select('consular_district_id').where('city', '=', '青岛').executeTakeFirstOrThrow();
    expect(await service.receivingAddress(qingdao.consular_district_id)).toMatchObject({ consular_district_id: null, city_name: '北京市' });
    const guangzhou = await handle.db.selectFrom('consular_district').select('consular_district_id').where('city', '=', '广州').executeTakeFirstOrThrow();
    const own = await service.receivingAddress(guangzhou.consular_district_id);
    expect(own).toMatchObject({ consular_district_id: guangzhou.consular_district_id, city_name: '广州市', county_name: '天河区' });

    await handle.db
      .updateTable('receiving_address')
      .set({ detail: '天河路385号太古汇一座20楼' })
      .where('receiving_address_id', '=', own!.receiving_address_id)
      .execute();
    await seedReceivingAddresses(handle.db, NOW);
    expect((await service.receivingAddress(guangzhou.consular_district_id))!.detail).toBe('天河路385号太古汇一座20楼');
  });

  it('keeps at most one central address', async () => {
    const central = (await courier().receivingAddress(null))!;
    const { receiving_address_id: _id, ...copy } = central;
    await expect(
      handle.db
        .insertInto('receiving_address')
        .values({ ...copy, company_name: copy.company_name ?? '', updated_at: NOW })
        .execute(),
    ).rejects.toThrow();
  });
});
