// The address library (86 → province → city → county, spec §3) as the
// options of a province / city / county cascader. A city the library lists
// no counties for is a leaf: its value path has two codes.
import { ADDRESS_ROOT_REGION } from '../../../common/constants';

export interface RegionOption {
  value: string;
  label: string;
  children?: RegionOption[];
}

export type Library = Record<string, Record<string, string>>;

function level(library: Library, parent: string, depth: number): RegionOption[] {
  return Object.entries(library[parent] ?? {}).map(([value, label]) => {
    const children = depth < 2 ? level(library, value, depth + 1) : [];
    return children.length > 0 ? { value, label, children } : { value, label };
  });
}

export function regionOptions(library: Library): RegionOption[] {
  return level(library, ADDRESS_ROOT_REGION, 0);
}

/** The cascader's value for stored codes ('' county = a city without counties). */
export function regionValue(address: { province_code: string; city_code: string; county_code: string }): string[] {
  return [address.province_code, address.city_code, address.county_code].filter((code) => code !== '');
}

/** Codes for the save call from the cascader's value. */
export function regionCodes(value: string[] | undefined): { province_code: string; city_code: string; county_code: string } | null {
  if (!value || value.length < 2) return null;
  return { province_code: value[0]!, city_code: value[1]!, county_code: value[2] ?? '' };
}
