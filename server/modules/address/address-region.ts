// Province / city / county codes checked against the address library (the
// same data the pages' cascader is built from) and turned into names.
import { ADDRESS_ROOT_REGION } from '../../../common/constants.ts';
import { type AddressLibrary, buildAddressLibrary } from '../system/address-library.ts';

let library: AddressLibrary | undefined;

function addressLibrary(): AddressLibrary {
  library ??= buildAddressLibrary();
  return library;
}

export interface ResolvedRegion {
  province_code: string;
  city_code: string;
  /** '' when the city has no counties in the library. */
  county_code: string;
  province_name: string;
  city_name: string;
  county_name: string;
}

/**
 * The region when each code sits under the one above it (province under 86,
 * city under the province, county under the city), else null. A city the
 * library lists no counties for takes no county code.
 */
export function resolveRegion(
  provinceCode: string,
  cityCode: string,
  countyCode: string | null | undefined,
  lib: AddressLibrary = addressLibrary(),
): ResolvedRegion | null {
  const provinceName = lib[ADDRESS_ROOT_REGION]?.[provinceCode];
  if (!provinceName) return null;
  const cityName = lib[provinceCode]?.[cityCode];
  if (!cityName) return null;
  const counties = lib[cityCode];
  const county = countyCode ?? '';
  if (!counties || Object.keys(counties).length === 0) {
    return county === ''
      ? { province_code: provinceCode, city_code: cityCode, county_code: '', province_name: provinceName, city_name: cityName, county_name: '' }
      : null;
  }
  const countyName = counties[county];
  if (!countyName) return null;
  return { province_code: provinceCode, city_code: cityCode, county_code: county, province_name: provinceName, city_name: cityName, county_name: countyName };
}

/** Names for codes stored earlier; a code the library no longer has keeps its code as its name. */
export function regionNames(provinceCode: string, cityCode: string, countyCode: string): { province_name: string; city_name: string; county_name: string } {
  const lib = addressLibrary();
  return {
    province_name: lib[ADDRESS_ROOT_REGION]?.[provinceCode] ?? provinceCode,
    city_name: lib[provinceCode]?.[cityCode] ?? cityCode,
    county_name: countyCode === '' ? '' : (lib[cityCode]?.[countyCode] ?? countyCode),
  };
}
