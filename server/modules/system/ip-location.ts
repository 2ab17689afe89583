// IP address → province of the address library (ip_location_get, spec §7),
// from the offline ip2region database. Its province names ('江苏省', '上海',
// '广西', '内蒙古') are matched to @vant/area-data's ('江苏省', '上海市',
// '广西壮族自治区', '内蒙古自治区') by their bare names.
import { BlockList, isIP } from 'node:net';
import { areaList } from '@vant/area-data';
import ip2regionModule from 'ip2region';

export interface ProvinceLocation {
  province_code: string;
  province_name: string;
}

interface Searcher {
  search(ip: string): { country: string; province: string; city: string; isp: string } | null;
}

// ip2region is CommonJS with `exports.default`: under Node's ESM loader the
// default import is the whole exports object, under a bundler the class.
type IP2RegionClass = new () => Searcher;
const IP2Region: IP2RegionClass = (ip2regionModule as unknown as { default?: IP2RegionClass }).default ?? (ip2regionModule as unknown as IP2RegionClass);

/** '广西壮族自治区' → '广西', '上海市' → '上海', '香港特别行政区' → '香港', '江苏省' → '江苏'. */
export function bareProvinceName(name: string): string {
  return name
    .trim()
    .replace(/(特别行政区|自治区|省|市)$/, '')
    .replace(/(壮族|回族|维吾尔)$/, '');
}

/** Regions ip2region names as a country of their own rather than as a province of 中国. */
const REGION_COUNTRIES = new Set(['香港', '澳门', '台湾']);

/** Addresses that never locate anyone, whatever the database says. */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 3],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');

let searcher: Searcher | undefined;
let provinces: Map<string, ProvinceLocation> | undefined;

/** Loads the ~11 MB database on first use, then keeps it. */
function lookup(): { searcher: Searcher; provinces: Map<string, ProvinceLocation> } {
  searcher ??= new IP2Region();
  provinces ??= new Map(Object.entries(areaList.province_list).map(([code, name]) => [bareProvinceName(name), { province_code: code, province_name: name }]));
  return { searcher, provinces };
}

/**
 * The address-library province of a mainland, Hong Kong, Macau or Taiwan
 * address; null for private, loopback, foreign or unknown addresses and for
 * anything that is not an IP address. IPv4-mapped IPv6 (::ffff:a.b.c.d) is read
 * as its IPv4 address.
 */
export function locateProvince(ip: string): ProvinceLocation | null {
  if (typeof ip !== 'string') return null;
  const address = ip.trim().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  const family = isIP(address);
  if (family === 0 || NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6')) return null;
  const { searcher, provinces } = lookup();
  let result: ReturnType<Searcher['search']>;
  try {
    result = searcher.search(address);
  } catch {
    return null;
  }
  if (!result) return null;
  const country = bareProvinceName(result.country ?? '');
  const province = result.province && result.province !== '0' ? result.province : '';
  if (country === '中国' && province) return provinces.get(bareProvinceName(province)) ?? null;
  if (REGION_COUNTRIES.has(country)) return provinces.get(country) ?? null;
  return null;
}
