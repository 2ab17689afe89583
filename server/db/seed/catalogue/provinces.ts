// The 31 province-level divisions of mainland China, by the codes of the
// address library (@vant/area-data). Taiwan, Hong Kong and Macau have their own
// visa arrangements and belong to no consular district on the mainland.
import { areaList } from '@vant/area-data';

const OUTSIDE_MAINLAND = new Set(['710000', '810000', '820000']);

export const MAINLAND_PROVINCES: ReadonlyArray<{ code: string; name: string }> = Object.entries(areaList.province_list)
  .filter(([code]) => !OUTSIDE_MAINLAND.has(code))
  .map(([code, name]) => ({ code, name }));

/** Province code from a short name: '北京' → '110000', '广西' → '450000'. */
export function provinceCode(shortName: string): string {
  const found = MAINLAND_PROVINCES.find((province) => province.name.startsWith(shortName));
  if (!found) throw new Error(`unknown province ${shortName}`);
  return found.code;
}

export function provinceName(code: string): string {
  const found = MAINLAND_PROVINCES.find((province) => province.code === code);
  if (!found) throw new Error(`unknown province code ${code}`);
  return found.name;
}
