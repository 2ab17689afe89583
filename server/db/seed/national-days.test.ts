// The national-day seed: real dates for every seeded destination (but the
// three whose days move in the Gregorian calendar), idempotent, and never
// undoing an operator's edits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCalendarDate } from '../../../common/order.ts';
import { createTestApp, type TestApp } from '../../test-support/test-app.ts';
import { buildCountries, DESTINATION_ISO_CODES } from './catalogue/countries.ts';
import { seedCatalogue } from './catalogue/index.ts';
import { PRODUCTS } from './catalogue/products.ts';
import { NATIONAL_DAYS, seedNationalDays } from './national-days.ts';

/** No national or independence day fixed in the Gregorian calendar (see national-days.ts). */
const MOVEABLE_ONLY = ['IL', 'IR', 'NP'];

let t: TestApp;
beforeAll(async () => {
  // createTestApp seeds the national days after the catalogue, as main.ts does.
  t = await createTestApp(undefined, { seed: (handle) => seedCatalogue(handle.db, Date.parse('2026-12-01T02:00:00Z')) });
});
afterAll(async () => {
  await t?.close();
});

describe('national days', () => {
  it('lists real MM-DD days, one or two per destination, for known countries only', () => {
    const destinations = new Set<string>(DESTINATION_ISO_CODES);
    for (const [iso, days] of Object.entries(NATIONAL_DAYS)) {
      expect(destinations.has(iso), iso).toBe(true);
      expect(days.length, iso).toBeGreaterThanOrEqual(1);
      expect(days.length, iso).toBeLessThanOrEqual(2);
      for (const [monthDay, name] of days) {
        // 2028 is a leap year: a 02-29 would pass, nothing else invalid would.
        expect(isCalendarDate(`2028-${monthDay}`), `${iso} ${monthDay}`).toBe(true);
        expect(name).toMatch(/[\u4e00-\u9fff]/);
      }
      expect(new Set(days.map(([monthDay]) => monthDay)).size, iso).toBe(days.length);
    }
    expect(NATIONAL_DAYS.US).toContainEqual(['07-04', '独立日']);
    expect(NATIONAL_DAYS.FR).toContainEqual(['07-14', '国庆日']);
    expect(NATIONAL_DAYS.DE).toContainEqual(['10-03', '德国统一日']);
    expect(NATIONAL_DAYS.JP).toContainEqual(['02-23', '天皇诞生日']);
  });

  it('gives every seeded country its days, except those without a fixed one', async () => {
    const seeded = buildCountries()
      .filter((country) => PRODUCTS[country.iso_code])
      .map((country) => country.iso_code);
    const rows = await t.db
      .selectFrom('country_national_day')
      .innerJoin('visa_country', 'visa_country.visa_country_id', 'country_national_day.visa_country_id')
      .select(['visa_country.iso_code', 'country_national_day.month_day'])
      .execute();
    const withDays = new Set(rows.map((row) => row.iso_code));
    for (const iso of seeded) expect(withDays.has(iso), iso).toBe(!MOVEABLE_ONLY.includes(iso));
    expect(rows).toHaveLength(seeded.reduce((sum, iso) => sum + (NATIONAL_DAYS[iso]?.length ?? 0), 0));
  });

  it('adds nothing the second time and keeps an operator’s edits', async () => {
    expect(await seedNationalDays(t.db)).toBe(0);
    const us = await t.db.selectFrom('visa_country').select('visa_country_id').where('iso_code', '=', 'US').executeTakeFirstOrThrow();
    await t.db.deleteFrom('country_national_day').where('visa_country_id', '=', us.visa_country_id).where('month_day', '=', '12-25').execute();
    expect(await seedNationalDays(t.db)).toBe(0);
    const left = await t.db.selectFrom('country_national_day').select('month_day').where('visa_country_id', '=', us.visa_country_id).execute();
    expect(left.map((row) => row.month_day)).toEqual(['07-04']);
  });
});
