// Where customers send their paper materials (dev and demo data): the visa
// service has an office in each city with many consulates, and each
// consular district there gets that office's desk for its country (the desk
// walks the materials to the consulate). Districts in other cities (青岛,
// 西安 …) have no row of their own and use the central address, the Beijing
// service centre, which forwards them (the rule in docs/order-rules.md,
// "Couriers"). Idempotent: adds rows only for districts without one and the
// central address when missing, so an operator's edits stay.
import { areaList } from '@vant/area-data';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

interface Office {
  county_code: string;
  detail: string;
  name: string;
  mobile_phone: string;
}

/** The service's offices by the consulate city of the catalogue's districts. */
const OFFICES: Record<string, Office> = {
  北京: { county_code: '110105', detail: '建国门外大街甲6号SK大厦2106室', name: '赵文静', mobile_phone: '13910086021' },
  上海: { county_code: '310106', detail: '南京西路1266号恒隆广场一期3708室', name: '陈思远', mobile_phone: '13816602137' },
  广州: { county_code: '440106', detail: '珠江新城华夏路10号富力中心1502室', name: '黄嘉欣', mobile_phone: '13802415580' },
  成都: { county_code: '510104', detail: '红星路三段1号国际金融中心二号楼2410室', name: '李沁', mobile_phone: '13980762214' },
  沈阳: { county_code: '210102', detail: '青年大街286号华润大厦1805室', name: '王宇航', mobile_phone: '13904052236' },
  武汉: { county_code: '420103', detail: '建设大道568号新世界国贸大厦1206室', name: '刘婷', mobile_phone: '13871136950' },
  重庆: { county_code: '500103', detail: '民族路188号环球金融中心3105室', name: '周子涵', mobile_phone: '13908310427' },
};

const NOTE = '工作日 09:00–18:00 签收；请在包裹内附上订单号，易签通不接收到付件';

function region(countyCode: string) {
  const cityCode = `${countyCode.slice(0, 4)}00`;
  const provinceCode = `${countyCode.slice(0, 2)}0000`;
  const [province_name, city_name, county_name] = [areaList.province_list[provinceCode], areaList.city_list[cityCode], areaList.county_list[countyCode]];
  if (!province_name || !city_name || !county_name) throw new Error(`receiving address: unknown county ${countyCode}`);
  return { province_code: provinceCode, city_code: cityCode, county_code: countyCode, province_name, city_name, county_name };
}

/** Adds the missing receiving addresses; returns how many rows it added. */
export async function seedReceivingAddresses(db: Kysely<Database>, at: number): Promise<number> {
  let added = 0;
  const central = await db.selectFrom('receiving_address').select('receiving_address_id').where('consular_district_id', 'is', null).executeTakeFirst();
  if (!central) {
    const office = OFFICES['北京']!;
    const insert = db
      .insertInto('receiving_address')
      .values({
        consular_district_id: null,
        company_name: '易签通签证服务中心（北京）',
        name: office.name,
        mobile_phone: office.mobile_phone,
        ...region(office.county_code),
        detail: office.detail,
        note: `${NOTE}；由服务中心转交各地使领馆`,
        updated_at: at,
      })
      .execute();
    try {
      await insert;
      added += 1;
    } catch (error) {
      // Another seed added it meanwhile (at most one central address: unique index).
      if (!(await db.selectFrom('receiving_address').select('receiving_address_id').where('consular_district_id', 'is', null).executeTakeFirst())) throw error;
    }
  }

  const districts = await db
    .selectFrom('consular_district')
    .innerJoin('visa_country', 'visa_country.visa_country_id', 'consular_district.visa_country_id')
    .leftJoin('receiving_address', 'receiving_address.consular_district_id', 'consular_district.consular_district_id')
    .select(['consular_district.consular_district_id', 'consular_district.city', 'visa_country.name as country'])
    .where('receiving_address.receiving_address_id', 'is', null)
    .orderBy('consular_district.consular_district_id')
    .execute();
  for (const district of districts) {
    const office = OFFICES[district.city];
    if (!office) continue; // no office in that city: the central address serves the district
    const result = await db
      .insertInto('receiving_address')
      .values({
        consular_district_id: district.consular_district_id,
        company_name: `易签通${district.city}办事处（${district.country}签证组）`.slice(0, 50),
        name: office.name,
        mobile_phone: office.mobile_phone,
        ...region(office.county_code),
        detail: office.detail,
        note: NOTE,
        updated_at: at,
      })
      .onConflict((oc) => oc.column('consular_district_id').doNothing())
      .executeTakeFirst();
    added += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return added;
}
