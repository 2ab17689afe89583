// The enterprise's address book: return addresses (where the passports come
// back to) and peer addresses (partner agencies the passports can be
// forwarded to). The calls are common/contracts/address.ts; the rules are in
// docs/order-rules.md ("Addresses, insurance and confirming").

export const ADDRESS_KINDS = { return: '回寄地址', peer: '同行地址' } as const;
export type AddressKind = keyof typeof ADDRESS_KINDS;
export const ADDRESS_KIND_VALUES = Object.keys(ADDRESS_KINDS) as [AddressKind, ...AddressKind[]];

/** '广东省 深圳市 南山区 科技园…' (the names the order or the book keeps). */
export function fullAddressText(address: { province_name: string; city_name: string; county_name: string; detail: string }): string {
  return [address.province_name, address.city_name, address.county_name, address.detail].filter((part) => part !== '').join(' ');
}
