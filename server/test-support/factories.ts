// Test data factories: a test inserts the products and customers it needs
// instead of finding rows of the demo seed that happen to fit. Sensible
// defaults (a listed, orderable tourist visa of a new country with two
// consular districts, a material checklist for every identity, no interview,
// mailed originals, a refund on rejection), each one overridable. Used by the
// API tests (through the test app) and by the end-to-end fixtures (on the e2e
// server's database). Decision 0020.
import type { Kysely, Selectable } from 'kysely';
import { IDENTITIES } from '../../common/constants.ts';
import type { Customer } from '../platform/principal.ts';
import { sha256Hex } from '../../common/signing.ts';
import type { Database, VisaProductMaterialTable, VisaProductTable } from '../db/schema.ts';
import { seedNationalDays } from '../db/seed/national-days.ts';
import { createAccountService } from '../modules/account/account.service.ts';
import { testPasswordHash } from './password.ts';

export type Db = Kysely<Database>;

const CONTINENTS = [
  { continent_id: 0, name: '亚洲', name_en: 'Asia', sort: 0 },
  { continent_id: 1, name: '欧洲', name_en: 'Europe', sort: 1 },
  { continent_id: 2, name: '美洲', name_en: 'America', sort: 2 },
  { continent_id: 3, name: '大洋洲', name_en: 'Oceania', sort: 3 },
  { continent_id: 4, name: '非洲', name_en: 'Africa', sort: 4 },
];

export interface DistrictOptions {
  name?: string;
  consulate_name?: string;
  city?: string;
  address?: string;
  /** Province codes the consulate serves (address library keys). */
  provinces?: string[];
}

/** Two districts unless told otherwise: Beijing's and Shanghai's consulates. */
const DEFAULT_DISTRICTS: DistrictOptions[] = [
  { name: '北京领区', city: '北京', provinces: ['110000', '120000', '130000'] },
  { name: '上海领区', city: '上海', provinces: ['310000', '320000', '330000'] },
];

export interface CountryOptions {
  /** An existing country with this code is used as it is; otherwise a country is made with it. Default: an unused code. */
  iso_code?: string;
  name?: string;
  name_en?: string;
  continent_id?: number;
  hot?: number;
  /** The consular districts of a new country (default: Beijing and Shanghai; [] for none). */
  districts?: DistrictOptions[];
}

export interface MaterialOptions {
  name: string;
  /** 0 electronic (default), 1 mailed paper, 2 bring to the embassy. */
  attr?: 0 | 1 | 2;
  required?: boolean;
  attention?: string;
  sample?: string | null;
}

export interface ProductOptions {
  country?: CountryOptions;
  /**
   * Which consulate handles the product: 'all' (consular_district_id null: every district of the country),
   * 'own' (the country's first district), or a consular_district_id. Default 'all'.
   */
  district?: 'all' | 'own' | number;
  /** The checklist per identity (0–4); identities left out get the default list. */
  materials?: Partial<Record<number, MaterialOptions[]>>;
  /** Default false. */
  interview?: boolean;
  /** Mailed paper originals in the default checklist (attr 1). Default true. */
  mailed?: boolean;
  /** A photo item with its spec (visa_photo_id ≠ 0). Default false. */
  photo?: boolean;
  /** sell_price in cents. Default 45 000 (¥450). */
  price?: number;
  /** A distributor price and its description. Default none. */
  discount?: { price: number; desc: string } | null;
  /** A refund when the visa is refused. Default true. */
  refundOnReject?: boolean;
  /** false: delisted (status 1). Default true. */
  listed?: boolean;
  /** 99 hides it from the web (delisted by channel). Default 0. */
  channel?: number;
  /** false: mini-program only. Default true. */
  offline?: boolean;
  visaType?: string;
  specialDesc?: string;
  needDays?: number;
  entryTimes?: 0 | 1 | 2;
  stayDays?: number;
  validDays?: number;
  passRate?: number;
  /** updated_at (default now). */
  at?: number;
}

export type ProductRow = Selectable<VisaProductTable>;
export type MaterialRow = Selectable<VisaProductMaterialTable>;

export interface InsertedProduct extends ProductRow {
  iso_code: string;
  country: string;
  /** Every consular district of the product's country, in id order. */
  districts: Array<{ consular_district_id: number; name: string; city: string }>;
  materials: MaterialRow[];
}

/** The checklist of an identity when the test does not give one. */
export function defaultMaterials(identity: number, options: { mailed: boolean; interview: boolean }): MaterialOptions[] {
  const own: Record<number, string> = { 0: '在职证明', 1: '资产证明', 2: '退休证', 3: '在读证明', 4: '出生证明' };
  return [
    { name: '护照首页扫描件', attention: '彩色扫描，四角完整' },
    { name: '身份证正反面', attention: '彩色扫描' },
    { name: own[identity] ?? '身份证明', attention: `${IDENTITIES[identity as keyof typeof IDENTITIES] ?? ''}提供` },
    ...(options.mailed ? [{ name: '护照原件', attr: 1 as const, attention: '邮寄至领区收件地址' }] : []),
    ...(options.interview ? [{ name: '户口本原件', attr: 2 as const, attention: '面试时携带' }] : []),
  ];
}

export async function unusedIsoCode(db: Db): Promise<string> {
  const used = new Set((await db.selectFrom('visa_country').select('iso_code').execute()).map((row) => row.iso_code.toUpperCase()));
  // ISO 3166's user-assigned codes first (no real country, so no national days), then any free pair.
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const userAssigned = [...letters]
    .map((l) => `X${l}`)
    .concat(
      [...'MNOPQRSTUVWXYZ'].map((l) => `Q${l}`),
      ['AA', 'ZZ'],
    );
  const all = [...letters].flatMap((a) => [...letters].map((b) => a + b));
  const code = [...userAssigned, ...all].find((candidate) => !used.has(candidate));
  if (!code) throw new Error('insertProduct: no unused country code left');
  return code;
}

async function ensureCountry(db: Db, options: CountryOptions = {}): Promise<{ visa_country_id: number; iso_code: string; name: string }> {
  if (options.iso_code) {
    const existing = await db
      .selectFrom('visa_country')
      .select(['visa_country_id', 'iso_code', 'name'])
      .where('iso_code', '=', options.iso_code)
      .executeTakeFirst();
    if (existing) return existing;
  }
  const continentId = options.continent_id ?? 0;
  const continent = CONTINENTS.find((c) => c.continent_id === continentId) ?? {
    continent_id: continentId,
    name: `洲${continentId}`,
    name_en: `C${continentId}`,
    sort: continentId,
  };
  await db
    .insertInto('continent')
    .values(continent)
    .onConflict((oc) => oc.column('continent_id').doNothing())
    .execute();
  const iso_code = options.iso_code ?? (await unusedIsoCode(db));
  const name = options.name ?? `测试国${iso_code}`;
  const { visa_country_id } = await db
    .insertInto('visa_country')
    .values({
      iso_code,
      name,
      name_en: options.name_en ?? `Testland ${iso_code}`,
      continent_id: continentId,
      description: `${name}的签证办理说明`,
      hot: options.hot ?? 0,
      status: 0,
    })
    .returning('visa_country_id')
    .executeTakeFirstOrThrow();
  for (const [index, district] of (options.districts ?? DEFAULT_DISTRICTS).entries()) {
    const city = district.city ?? `城市${index + 1}`;
    const { consular_district_id } = await db
      .insertInto('consular_district')
      .values({
        visa_country_id,
        name: district.name ?? `${city}领区`,
        consulate_name: district.consulate_name ?? `${name}驻${city}总领事馆`,
        city,
        address: district.address ?? `${city}市测试路${index + 1}号`,
      })
      .returning('consular_district_id')
      .executeTakeFirstOrThrow();
    const provinces = district.provinces ?? [];
    if (provinces.length > 0) {
      await db
        .insertInto('consular_district_province')
        .values(provinces.map((province_code) => ({ consular_district_id, province_code })))
        .execute();
    }
  }
  // A real country's national days, as the app adds them at start-up.
  await seedNationalDays(db);
  return { visa_country_id, iso_code, name };
}

async function ensureVisaType(db: Db, name: string): Promise<number> {
  const found = await db.selectFrom('visa_type').select('visa_type_id').where('name', '=', name).executeTakeFirst();
  if (found) return found.visa_type_id;
  const { count } = await db
    .selectFrom('visa_type')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  const row = await db
    .insertInto('visa_type')
    .values({ name, sort: Number(count) })
    .returning('visa_type_id')
    .executeTakeFirstOrThrow();
  return row.visa_type_id;
}

/** A product with its country, consulates and material checklist (see ProductOptions for the defaults). */
export async function insertProduct(db: Db, options: ProductOptions = {}): Promise<InsertedProduct> {
  const at = options.at ?? Date.now();
  const interview = options.interview ?? false;
  const mailed = options.mailed ?? true;
  const country = await ensureCountry(db, options.country);
  const districts = await db
    .selectFrom('consular_district')
    .select(['consular_district_id', 'name', 'city'])
    .where('visa_country_id', '=', country.visa_country_id)
    .orderBy('consular_district_id')
    .execute();
  const district = options.district ?? 'all';
  let consularDistrictId: number | null = null;
  if (district === 'own') {
    if (!districts[0]) throw new Error(`insertProduct: country ${country.iso_code} has no consular district`);
    consularDistrictId = districts[0].consular_district_id;
  } else if (typeof district === 'number') {
    consularDistrictId = district;
  }
  let photoId = 0;
  if (options.photo) {
    // One spec per name, as the catalogue keeps them (the workbook refers to a spec by its name).
    const name = '签证照 35×45mm 白底';
    const existing = await db.selectFrom('photo_param').select('visa_photo_id').where('name', '=', name).executeTakeFirst();
    photoId =
      existing?.visa_photo_id ??
      (await db.insertInto('photo_param').values({ color: 1, width: 35, height: 45, name }).returning('visa_photo_id').executeTakeFirstOrThrow()).visa_photo_id;
  }
  const product = await db
    .insertInto('visa_product')
    .values({
      visa_country_id: country.visa_country_id,
      visa_type_id: await ensureVisaType(db, options.visaType ?? '旅游签证'),
      consular_district_id: consularDistrictId,
      product_special_desc: options.specialDesc ?? '测试产品',
      entry_times: options.entryTimes ?? 0,
      stay_days: options.stayDays ?? 30,
      valid_days: options.validDays ?? 90,
      need_days: options.needDays ?? 7,
      need_days_detail: `${options.needDays ?? 7}个工作日`,
      pass_rate: options.passRate ?? 9800,
      sell_price: options.price ?? 45_000,
      distributor_discount_desc: options.discount?.desc ?? null,
      distributor_discount_price: options.discount?.price ?? null,
      status: options.listed === false ? 1 : 0,
      channel: options.channel ?? 0,
      offline: options.offline === false ? 0 : 1,
      reject_refund: options.refundOnReject === false ? 0 : 1,
      need_interview: interview ? 1 : 0,
      visa_photo_id: photoId,
      reminder: '请按清单准备材料',
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const materialRows = Object.keys(IDENTITIES)
    .map(Number)
    .flatMap((identity) =>
      (options.materials?.[identity] ?? defaultMaterials(identity, { mailed, interview })).map((item, sort) => ({
        visa_product_id: product.visa_product_id,
        identity_id: identity,
        required: item.required === false ? 0 : 1,
        attr: item.attr ?? 0,
        name: item.name,
        attention: item.attention ?? '',
        sample: item.sample ?? null,
        sort,
      })),
    );
  const materials = materialRows.length > 0 ? await db.insertInto('visa_product_material').values(materialRows).returningAll().execute() : [];
  return { ...product, iso_code: country.iso_code, country: country.name, districts, materials };
}

export interface InsertedCustomer {
  account: string;
  password: string;
  accountId: number;
  enterpriseId: number;
  name: string;
  enterpriseName: string;
  /** The customer as the server's operations see it. */
  principal: Customer;
}

let customers = 0;

/** An enterprise and its administrator account with a known password; unique each call. */
export async function insertCustomer(db: Db, options: { password?: string; name?: string; enterpriseName?: string } = {}): Promise<InsertedCustomer> {
  customers += 1;
  const password = options.password ?? 'Passw0rd!';
  const unique = `${process.pid.toString(36)}${Date.now().toString(36)}${customers}${Math.random().toString(36).slice(2, 6)}`;
  const account = `user_${unique}`.slice(0, 50);
  const name = options.name ?? `测试管理员${customers}`;
  const enterpriseName = options.enterpriseName ?? `测试企业${customers}`;
  const ids = await createAccountService(db, { idleMs: 0, absoluteMs: 0 }, Date.now, testPasswordHash).createEnterpriseWithAdmin({
    enterpriseName,
    enterpriseKind: 'company',
    adminAccount: account,
    adminPasswordDigest: sha256Hex(password),
    adminName: name,
    adminMobilePhone: '13800138000',
  });
  return { account, password, name, enterpriseName, ...ids, principal: { kind: 'customer', accountId: ids.accountId, enterpriseId: ids.enterpriseId } };
}

let colleagues = 0;

/**
 * A colleague of an existing enterprise (issue 29), active, with a role and a
 * known password, straight into the database (no invitation): for other
 * areas' tests that need a 经办人 or a 财务. team.test.ts tests the invitation itself.
 */
export async function insertColleague(
  db: Db,
  enterpriseId: number,
  role: 'admin' | 'agent' | 'finance',
  options: { password?: string; name?: string } = {},
): Promise<{ account: string; password: string; accountId: number; enterpriseId: number; name: string; principal: Customer }> {
  colleagues += 1;
  const password = options.password ?? 'Passw0rd!';
  const account = `colleague_${process.pid.toString(36)}${Date.now().toString(36)}${colleagues}${Math.random().toString(36).slice(2, 6)}`.slice(0, 50);
  const name = options.name ?? `测试同事${colleagues}`;
  const row = await db
    .insertInto('account')
    .values({
      enterprise_id: enterpriseId,
      account,
      password_hash: await testPasswordHash(sha256Hex(password)),
      name,
      mobile_phone: null,
      email: null,
      role,
      status: 0,
      created_at: Date.now(),
      last_login_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { account, password, accountId: row.id, enterpriseId, name, principal: { kind: 'customer', accountId: row.id, enterpriseId } };
}
