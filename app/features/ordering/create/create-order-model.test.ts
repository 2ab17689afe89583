import { describe, expect, it } from 'vitest';
import type { VisaCountryDetail, VisaProductDetail } from '../../../../common/contracts/catalogue';
import { createOrderView, productIdParam } from './create-order-model';

const PROVINCES = [
  { province_code: '310000', name: '上海市' },
  { province_code: '320000', name: '江苏省' },
  { province_code: '110000', name: '北京市' },
];

function country(districts: Array<{ id: number; name: string; provinces: string[] }>): VisaCountryDetail {
  return {
    consular_districts: districts.map((d) => ({
      consular_district_id: d.id,
      name: d.name,
      consulate_name: `${d.name}领馆`,
      city: '',
      address: '',
      province_codes: d.provinces,
    })),
  } as VisaCountryDetail;
}

function product(extra: Partial<VisaProductDetail> = {}): VisaProductDetail {
  return {
    visa_product_id: 5,
    visa_country_id: 2,
    status: 0,
    channel: 0,
    offline: true,
    country: '日本',
    country_iso_code: 'JP',
    visa_type: '旅游签证',
    entry_times: 0,
    product_special_desc: '',
    need_days_detail: '约7个工作日',
    consular_district: null,
    sell_price: 39900,
    distributor_discount: null,
    need_interview: false,
    reject_refund_set: { status: 0 },
    ...extra,
  } as VisaProductDetail;
}

const TWO = country([
  { id: 1, name: '上海领区', provinces: ['310000', '320000'] },
  { id: 2, name: '北京领区', provinces: ['110000'] },
]);

describe('productIdParam', () => {
  it('takes a positive integer only', () => {
    expect(productIdParam(new URLSearchParams('visa_product_id=12'))).toBe(12);
    for (const bad of ['', 'visa_product_id=', 'visa_product_id=0', 'visa_product_id=abc', 'visa_product_id=1.5', 'visa_product_id=-3']) {
      expect(productIdParam(new URLSearchParams(bad))).toBeNull();
    }
  });
});

describe('createOrderView', () => {
  it('explains an unknown, delisted or online-only product with the server messages', () => {
    expect(createOrderView(9, null, null, PROVINCES, null)).toMatchObject({ kind: 'problem', title: '该签证产品不存在' });
    expect(createOrderView(5, product({ status: 1 }), TWO, PROVINCES, null)).toMatchObject({ kind: 'problem', title: '该商品已下架', action: 'product' });
    expect(createOrderView(5, product({ channel: 99 }), TWO, PROVINCES, null)).toMatchObject({ kind: 'problem', title: '该商品已下架' });
    expect(createOrderView(5, product({ offline: false }), TWO, PROVINCES, null)).toMatchObject({
      kind: 'problem',
      title: '该商品不支持线下办理',
      action: 'download',
    });
  });

  it("preselects the visitor's district and names its provinces", () => {
    const view = createOrderView(5, product(), TWO, PROVINCES, PROVINCES[1]!);
    expect(view).toMatchObject({ kind: 'ready', districtId: 1, districtSource: 'ip', districtFixed: false });
    if (view.kind === 'ready') expect(view.districts[0]!.provinces).toEqual(['上海市', '江苏省']);
  });

  it("keeps a product's own district, fixed", () => {
    const view = createOrderView(5, product({ consular_district: { consular_district_id: 2, name: '北京领区' } }), TWO, PROVINCES, PROVINCES[0]!);
    expect(view).toMatchObject({ kind: 'ready', districtId: 2, districtSource: 'product', districtFixed: true });
    if (view.kind === 'ready') expect(view.districts.map((d) => d.consular_district_id)).toEqual([2]);
  });

  it('leaves the choice open without a known province, and has none for a nationwide country', () => {
    expect(createOrderView(5, product(), TWO, PROVINCES, null)).toMatchObject({ kind: 'ready', districtId: null, districtSource: null });
    expect(createOrderView(5, product(), country([]), PROVINCES, PROVINCES[0]!)).toMatchObject({ kind: 'ready', districts: [], districtId: null });
  });

  it('charges the enterprise price when there is one', () => {
    const view = createOrderView(5, product({ distributor_discount: { desc: '企业价', price: 35000 } }), TWO, PROVINCES, null);
    expect(view).toMatchObject({ kind: 'ready', product: { unit_price: 35000, sell_price: 39900, discount_desc: '企业价' } });
  });
});
