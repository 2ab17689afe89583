// What the create-order page needs from the catalogue, decided in its loader:
// the product summary, the consular districts to choose from and the one to
// preselect — or why the product cannot be ordered here.
import type { ConsularDistrict, VisaCountryDetail, VisaProductDetail } from '../../../../common/contracts/catalogue';
import { isDelisted, productTitle } from '../../../../common/catalogue';
import { ERROR_CATALOGUE, ErrorCode } from '../../../../common/error-codes';
import type { Province } from '../../../../common/web-context';

export interface CreateOrderProduct {
  visa_product_id: number;
  visa_country_id: number;
  title: string;
  country: string;
  country_iso_code: string;
  visa_type: string;
  need_days_detail: string;
  sell_price: number;
  /** What each applicant costs: the enterprise (distributor) price when there is one, as the server charges. */
  unit_price: number;
  discount_desc: string | null;
  need_interview: boolean;
  reject_refund: boolean;
  /** The visa's stay (0: open-ended): with the departure date, how long the passport must last. */
  stay_days: number;
}

export interface DistrictOption {
  consular_district_id: number;
  name: string;
  consulate_name: string;
  /** Names of the provinces whose residents apply there. */
  provinces: string[];
}

export type CreateOrderView =
  | {
      kind: 'ready';
      product: CreateOrderProduct;
      /** Empty: the country takes applications nationwide (no district to choose). */
      districts: DistrictOption[];
      /** The product is for one district only: shown, not chosen. */
      districtFixed: boolean;
      districtId: number | null;
      /** Why districtId is preselected: the product's own, the visitor's province (IP), or the only one. */
      districtSource: 'product' | 'ip' | 'only' | null;
    }
  | { kind: 'problem'; title: string; text: string; productId: number | null; action: 'browse' | 'product' | 'download' };

const ID_PATTERN = /^[1-9]\d{0,15}$/;

/** visa_product_id of the query, or null when missing or not a positive integer. */
export function productIdParam(search: URLSearchParams): number | null {
  const raw = search.get('visa_product_id')?.trim() ?? '';
  return ID_PATTERN.test(raw) ? Number(raw) : null;
}

export function missingProductView(): CreateOrderView {
  return {
    kind: 'problem',
    title: '请选择要办理的签证产品',
    text: '链接中没有有效的签证产品编号（visa_product_id）。请在签证产品页点击“立即办理”进入下单。',
    productId: null,
    action: 'browse',
  };
}

function districtOption(district: ConsularDistrict, provinces: Province[]): DistrictOption {
  const names = new Map(provinces.map((p) => [p.province_code, p.name]));
  return {
    consular_district_id: district.consular_district_id,
    name: district.name,
    consulate_name: district.consulate_name,
    provinces: district.province_codes.map((code) => names.get(code) ?? code),
  };
}

export function createOrderView(
  productId: number,
  product: VisaProductDetail | null,
  country: VisaCountryDetail | null,
  provinces: Province[],
  visitor: Province | null,
): CreateOrderView {
  if (!product)
    return {
      kind: 'problem',
      title: ERROR_CATALOGUE[ErrorCode.VISA_PRODUCT_NOT_FOUND].msg,
      text: `没有编号为 ${productId} 的签证产品，请重新选择。`,
      productId: null,
      action: 'browse',
    };
  // The server's own messages (1802, 1803), so the page and the call say the same.
  if (isDelisted(product)) {
    return {
      kind: 'problem',
      title: ERROR_CATALOGUE[ErrorCode.ORDER_PRODUCT_DELISTED].msg,
      text: '该签证产品已停止销售，请选择其他产品。',
      productId,
      action: 'product',
    };
  }
  if (!product.offline) {
    return {
      kind: 'problem',
      title: ERROR_CATALOGUE[ErrorCode.ORDER_PRODUCT_NOT_OFFLINE].msg,
      text: '该签证产品只能在易签通小程序或 App 中办理。',
      productId,
      action: 'download',
    };
  }

  const all = (country?.consular_districts ?? []).map((district) => districtOption(district, provinces));
  const own = product.consular_district;
  let districts = all;
  let districtId: number | null = null;
  let districtSource: 'product' | 'ip' | 'only' | null = null;
  if (own) {
    // A product of one district is ordered for that district only (server rule 1808).
    districts = all.filter((d) => d.consular_district_id === own.consular_district_id);
    if (districts.length === 0) districts = [{ consular_district_id: own.consular_district_id, name: own.name, consulate_name: '', provinces: [] }];
    districtId = own.consular_district_id;
    districtSource = 'product';
  } else if (visitor) {
    const home = country?.consular_districts.find((d) => d.province_codes.includes(visitor.province_code));
    if (home) {
      districtId = home.consular_district_id;
      districtSource = 'ip';
    }
  }
  if (districtId === null && districts.length === 1) {
    districtId = districts[0]!.consular_district_id;
    districtSource = 'only';
  }

  return {
    kind: 'ready',
    product: {
      visa_product_id: product.visa_product_id,
      visa_country_id: product.visa_country_id,
      title: productTitle(product),
      country: product.country,
      country_iso_code: product.country_iso_code,
      visa_type: product.visa_type,
      need_days_detail: product.need_days_detail,
      sell_price: product.sell_price,
      unit_price: product.distributor_discount ? product.distributor_discount.price : product.sell_price,
      discount_desc: product.distributor_discount?.desc ?? null,
      need_interview: product.need_interview,
      reject_refund: product.reject_refund_set.status === 1,
      stay_days: product.stay_days,
    },
    districts,
    districtFixed: own !== null,
    districtId,
    districtSource,
  };
}
