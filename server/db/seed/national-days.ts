// The days the destination countries' consulates in China are closed for
// their own country (country_national_day): the national or independence day
// and, where well known, one other major fixed closure. No interview or
// fingerprint appointment is offered on them (server/modules/interview).
//
// Only days fixed in the Gregorian calendar can be stored ('MM-DD'). Israel
// (Hebrew calendar), Iran (22 Bahman is 10 or 11 February) and Nepal (Bikram
// Sambat) have no such day and are left out on purpose; moveable feasts
// (Easter, Thanksgiving, Eid) are out for the same reason. A day falling on a
// weekend is not moved to an observed weekday.
//
// Idempotent and safe in every environment: rows are added only for the
// countries in visa_country that have none yet (by ISO code), so an operator's
// edits to a country's days are never undone; ON CONFLICT DO NOTHING lets two
// starting processes seed at once.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

type Day = readonly [monthDay: string, name: string];

export const NATIONAL_DAYS: Readonly<Record<string, readonly Day[]>> = {
  JP: [
    ['02-11', '建国纪念日'],
    ['02-23', '天皇诞生日'],
  ],
  KR: [
    ['08-15', '光复节'],
    ['10-03', '开天节'],
  ],
  TH: [
    ['07-28', '国王诞辰'],
    ['12-05', '国庆日'],
  ],
  SG: [['08-09', '国庆日']],
  US: [
    ['07-04', '独立日'],
    ['12-25', '圣诞节'],
  ],
  GB: [
    ['12-25', '圣诞节'],
    ['12-26', '节礼日'],
  ],
  FR: [
    ['07-14', '国庆日'],
    ['12-25', '圣诞节'],
  ],
  DE: [
    ['10-03', '德国统一日'],
    ['12-25', '圣诞节'],
  ],
  IT: [
    ['06-02', '共和国日'],
    ['12-25', '圣诞节'],
  ],
  ES: [
    ['10-12', '国庆日'],
    ['12-25', '圣诞节'],
  ],
  AU: [
    ['01-26', '澳大利亚日'],
    ['04-25', '澳新军团日'],
  ],
  NZ: [
    ['02-06', '怀唐伊日'],
    ['04-25', '澳新军团日'],
  ],
  CA: [
    ['07-01', '加拿大日'],
    ['12-25', '圣诞节'],
  ],
  MY: [
    ['08-31', '国庆日'],
    ['09-16', '马来西亚日'],
  ],
  VN: [
    ['04-30', '南方解放日'],
    ['09-02', '国庆节'],
  ],
  AE: [
    ['12-02', '国庆日'],
    ['12-03', '国庆日'],
  ],
  TR: [['10-29', '共和国日']],
  EG: [['07-23', '革命日（国庆日）']],
  CH: [['08-01', '国庆日']],
  RU: [
    ['06-12', '俄罗斯日'],
    ['11-04', '民族团结日'],
  ],
  ID: [['08-17', '独立日']],
  NL: [['04-27', '国王日']],
  GR: [
    ['03-25', '独立日'],
    ['10-28', '国庆日（“不”日）'],
  ],
  PH: [['06-12', '独立日']],
  KH: [['11-09', '独立日']],
  IN: [
    ['01-26', '共和国日'],
    ['08-15', '独立日'],
  ],
  LK: [['02-04', '独立日']],
  AT: [['10-26', '国庆日']],
  PT: [['06-10', '葡萄牙日']],
  CZ: [['10-28', '独立日']],
  BE: [['07-21', '国庆日']],
  IS: [['06-17', '国庆日']],
  NO: [['05-17', '宪法日']],
  DK: [['06-05', '宪法日']],
  SE: [['06-06', '国庆日']],
  FI: [['12-06', '独立日']],
  IE: [['03-17', '圣帕特里克节']],
  HU: [
    ['03-15', '1848年革命纪念日'],
    ['08-20', '国庆日'],
  ],
  MX: [['09-16', '独立日']],
  BR: [['09-07', '独立日']],
  ZA: [['04-27', '自由日']],
  KE: [
    ['06-01', '自治日'],
    ['12-12', '独立日'],
  ],
  JO: [['05-25', '独立日']],
  SA: [
    ['02-22', '建国日'],
    ['09-23', '国庆日'],
  ],
  MN: [
    ['07-11', '国庆节（那达慕）'],
    ['07-12', '国庆节（那达慕）'],
  ],
  LA: [['12-02', '国庆日']],
  MM: [['01-04', '独立日']],
  PL: [
    ['05-03', '宪法日'],
    ['11-11', '独立日'],
  ],
  HR: [['05-30', '国庆日']],
  AR: [
    ['05-25', '五月革命纪念日'],
    ['07-09', '独立日'],
  ],
  CL: [
    ['09-18', '独立日'],
    ['09-19', '建军节'],
  ],
  PE: [
    ['07-28', '独立日'],
    ['07-29', '独立日'],
  ],
  TZ: [
    ['04-26', '联合日'],
    ['12-09', '独立日'],
  ],
  CU: [
    ['01-01', '解放日'],
    ['07-26', '起义纪念日'],
  ],
  CO: [
    ['07-20', '独立日'],
    ['08-07', '博亚卡战役纪念日'],
  ],
  OM: [
    ['11-20', '国庆日'],
    ['11-21', '国庆日'],
  ],
  BH: [
    ['12-16', '国庆日'],
    ['12-17', '国庆日'],
  ],
  KW: [
    ['02-25', '国庆日'],
    ['02-26', '解放日'],
  ],
  AZ: [['05-28', '独立日']],
  PK: [
    ['03-23', '巴基斯坦日'],
    ['08-14', '独立日'],
  ],
  BD: [
    ['03-26', '独立日'],
    ['12-16', '胜利日'],
  ],
  KG: [['08-31', '独立日']],
  TJ: [['09-09', '独立日']],
  MT: [
    ['09-21', '独立日'],
    ['12-13', '共和国日'],
  ],
  LU: [['06-23', '国庆日']],
  SI: [['06-25', '国庆日']],
  SK: [
    ['01-01', '斯洛伐克共和国成立日'],
    ['08-29', '民族起义纪念日'],
  ],
  EE: [['02-24', '独立日']],
  LV: [['11-18', '独立日']],
  LT: [
    ['02-16', '国家恢复日'],
    ['03-11', '恢复独立日'],
  ],
  PG: [['09-16', '独立日']],
  ET: [['05-28', '国庆日']],
  MG: [['06-26', '独立日']],
  ZW: [['04-18', '独立日']],
  NG: [['10-01', '独立日']],
  GH: [['03-06', '独立日']],
  UG: [['10-09', '独立日']],
};

/** Adds the national days of every country that has none yet; returns the number of rows added. */
export async function seedNationalDays(db: Kysely<Database>): Promise<number> {
  const countries = await db.selectFrom('visa_country').select(['visa_country_id', 'iso_code']).execute();
  const seeded = new Set((await db.selectFrom('country_national_day').select('visa_country_id').distinct().execute()).map((row) => row.visa_country_id));
  const rows = countries
    .filter((country) => !seeded.has(country.visa_country_id))
    .flatMap((country) =>
      (NATIONAL_DAYS[country.iso_code.toUpperCase()] ?? []).map(([month_day, name]) => ({ visa_country_id: country.visa_country_id, month_day, name })),
    );
  if (rows.length === 0) return 0;
  let added = 0;
  for (let i = 0; i < rows.length; i += 200) {
    const result = await db
      .insertInto('country_national_day')
      .values(rows.slice(i, i + 200))
      .onConflict((oc) => oc.columns(['visa_country_id', 'month_day']).doNothing())
      .executeTakeFirst();
    added += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return added;
}
