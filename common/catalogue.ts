// The visa catalogue as the API and the pages see it (spec §3). Field names
// are the spec's; what the spec leaves open is named in its style.

/**
 * The channel value that also means "delisted" (spec §3, §4 "Product
 * availability"): products withdrawn from sale through the catalogue's
 * delisting channel keep their page but cannot be ordered.
 */
export const DELISTED_CHANNEL = 99;
/** status value of a delisted product. */
export const DELISTED_STATUS = 1;

export function isDelisted(product: { status: number; channel: number }): boolean {
  return product.status === DELISTED_STATUS || product.channel === DELISTED_CHANNEL;
}

export const ENTRY_LABELS: Record<number, string> = { 0: '单次入境', 1: '两次入境', 2: '多次入境' };

/** Spec 2.2: country, visa_type, entry label, product_special_desc. */
export function productTitle(product: { country: string; visa_type: string; entry_times: number; product_special_desc: string }): string {
  return [product.country, product.visa_type, ENTRY_LABELS[product.entry_times] ?? '', product.product_special_desc].filter(Boolean).join(' · ');
}

/** Mini-program page and scene of the guest QR popup (spec §7). */
export const QRCODE_PAGE = 'pages/visa/visa-detail/visa-detail';
export function qrcodeScene(visaProductId: number): string {
  return `v=${visaProductId}&u=official`;
}

export interface Material {
  material_id: number;
  /** 0 electronic, 1 mailed paper, 2 bring to the embassy. */
  attr: number;
  elec_name?: string;
  paper_name?: string;
  take_along_name?: string;
  attention: string;
  sample: string | null;
}

export interface IdentityMaterial {
  identity_id: number;
  material_required: Material[];
  material_optional: Material[];
}

export interface VisaProductDetail {
  visa_product_id: number;
  status: number;
  channel: number;
  offline: boolean;
  visa_country_id: number;
  country: string;
  country_iso_code: string;
  visa_type: string;
  visa_type_id: number;
  entry_times: number;
  entry_label: string;
  product_special_desc: string;
  need_days_detail: string;
  continent_id: number;
  consular_district: { consular_district_id: number; name: string } | null;
  pass_rate: number;
  sum_score: number;
  reviews: number;
  sell_price: number;
  distributor_discount: { desc: string; price: number } | null;
  basic_info: Array<{ title: string; content: string }>;
  common_info: Array<{ type: number; num: number; unit: string; title: string }>;
  reject_refund_set: { status: number };
  procedure: Array<{ icon: string; title: string }>;
  handle_process: Array<{ title: string; content: string }>;
  reminder: string;
  visa_photo_id: number;
  photo_param: { color: number; width: number; height: number } | null;
  identity_material: IdentityMaterial[];
  need_interview: boolean;
  tags: string[];
  /** For page metadata and cache validation. */
  updated_at: number;
}

export interface Review {
  review_id: number;
  nickname: string | null;
  /** Masked in the middle (138****8000): numbers are never published whole. */
  mobile_phone: string | null;
  score: number;
  content: string;
  create_time: number;
  platform: string;
}

export interface ReviewPage {
  page_data: Review[];
  total_count: number;
}

export interface CountrySummary {
  visa_country_id: number;
  name: string;
  name_en: string;
  iso_code: string;
  continent_id: number;
  flag: string;
  product_count: number;
  /** Lowest sell_price among listed products, cents; null when none. */
  min_price: number | null;
}

export interface ContinentWithCountries {
  continent_id: number;
  name: string;
  name_en: string;
  countries: CountrySummary[];
}

export interface ConsularDistrict {
  consular_district_id: number;
  name: string;
  consulate_name: string;
  city: string;
  address: string;
  province_codes: string[];
}

export interface VisaCountryDetail {
  visa_country_id: number;
  name: string;
  name_en: string;
  iso_code: string;
  continent_id: number;
  continent: string;
  description: string;
  flag: string;
  banner_flag: string;
  consular_districts: ConsularDistrict[];
  visa_types: Array<{ visa_type_id: number; name: string }>;
  tags: Array<{ tag_id: number; name: string }>;
}

export interface VisaProductListItem {
  visa_product_id: number;
  title: string;
  visa_type_id: number;
  visa_type: string;
  entry_label: string;
  product_special_desc: string;
  consular_district: { consular_district_id: number; name: string } | null;
  need_days_detail: string;
  pass_rate: number;
  sell_price: number;
  distributor_discount: { desc: string; price: number } | null;
  sum_score: number;
  reviews: number;
  tags: Array<{ tag_id: number; name: string }>;
  delisted: boolean;
  offline: boolean;
}
