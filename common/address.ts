// The enterprise's address book: return addresses (where the passports come
// back to) and peer addresses (partner agencies the passports can be
// forwarded to). Shapes and limits shared by the server and the pages; the
// rules are in docs/order-rules.md ("Addresses, insurance and confirming").

export const ADDRESS_KINDS = { return: '回寄地址', peer: '同行地址' } as const;
export type AddressKind = keyof typeof ADDRESS_KINDS;
export const ADDRESS_KIND_VALUES = Object.keys(ADDRESS_KINDS) as [AddressKind, ...AddressKind[]];

export const ADDRESS_LIMITS = {
  nameMaxLength: 20,
  companyMaxLength: 50,
  detailMinLength: 2,
  detailMaxLength: 100,
  /** Per kind and enterprise: an address book, not a customer database. */
  maxPerKind: 50,
} as const;

export interface AddressView {
  address_id: number;
  kind: AddressKind;
  /** The peer agency's name; null for return addresses. */
  company_name: string | null;
  name: string;
  mobile_phone: string;
  province_code: string;
  city_code: string;
  /** '' when the city has no counties in the address library. */
  county_code: string;
  province_name: string;
  city_name: string;
  county_name: string;
  detail: string;
  is_default: boolean;
  updated_at: number;
}

export interface AddressSaveInput {
  /** Absent: a new address. */
  address_id?: number | null;
  kind: AddressKind;
  company_name?: string | null;
  name: string;
  mobile_phone: string;
  province_code: string;
  city_code: string;
  county_code?: string | null;
  detail: string;
  is_default?: boolean;
}

/** '广东省 深圳市 南山区 科技园…' (the names the order or the book keeps). */
export function fullAddressText(address: { province_name: string; city_name: string; county_name: string; detail: string }): string {
  return [address.province_name, address.city_name, address.county_name, address.detail].filter((part) => part !== '').join(' ');
}
