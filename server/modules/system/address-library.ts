// The address library of spec §3, built from @vant/area-data into the
// 86 → province → city → county shape and served under a content-hashed name.
import { createHash } from 'node:crypto';
import { areaList } from '@vant/area-data';
import { ADDRESS_ROOT_REGION } from '../../../common/constants.ts';

export type AddressLibrary = Record<string, Record<string, string>>;

export function buildAddressLibrary(): AddressLibrary {
  const library: AddressLibrary = { [ADDRESS_ROOT_REGION]: { ...areaList.province_list } };
  const add = (parent: string, code: string, name: string) => {
    (library[parent] ??= {})[code] = name;
  };
  // Codes are hierarchical: a city shares its province's first 2 digits, a
  // county its city's first 4.
  for (const [code, name] of Object.entries(areaList.city_list)) add(`${code.slice(0, 2)}0000`, code, name);
  for (const [code, name] of Object.entries(areaList.county_list)) add(`${code.slice(0, 4)}00`, code, name);
  return library;
}

export interface AddressLibraryFile {
  fileName: string;
  urlPath: string;
  json: string;
}

let cached: AddressLibraryFile | undefined;

export function addressLibraryFile(): AddressLibraryFile {
  if (!cached) {
    const json = JSON.stringify(buildAddressLibrary());
    const hash = createHash('sha256').update(json).digest('hex').slice(0, 12);
    const fileName = `address-library.${hash}.json`;
    cached = { fileName, urlPath: `/static/${fileName}`, json };
  }
  return cached;
}

/** Provinces under key 86, for pages that let the applicant pick where they live. */
export function provinceList(): Array<{ province_code: string; name: string }> {
  return Object.entries(areaList.province_list).map(([province_code, name]) => ({ province_code, name }));
}
