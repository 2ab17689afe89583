// Destination countries, most popular first (the order gives `hot`). Names in
// Chinese from i18n-iso-countries, continents from countries-list; a country
// is seeded only when flag-icons has its 4×3 flag.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { countries, type TCountryCode } from 'countries-list';
import isoCountries from 'i18n-iso-countries';
import zh from 'i18n-iso-countries/langs/zh.json' with { type: 'json' };

isoCountries.registerLocale(zh);

/** continent_id of spec §3. */
export const CONTINENTS = [
  { continent_id: 0, name: '亚洲', name_en: 'Asia', sort: 0 },
  { continent_id: 1, name: '欧洲', name_en: 'Europe', sort: 1 },
  { continent_id: 2, name: '美洲', name_en: 'America', sort: 2 },
  { continent_id: 3, name: '大洋洲', name_en: 'Oceania', sort: 3 },
  { continent_id: 4, name: '非洲', name_en: 'Africa', sort: 4 },
] as const;

const CONTINENT_OF_CODE: Record<string, number> = { AS: 0, EU: 1, NA: 2, SA: 2, OC: 3, AF: 4 };

/**
 * Where Chinese visa platforms file a country differently from countries-list:
 * Russia (AS there) is sold under 欧洲, where its visa centres and its
 * customers' trips (Moscow, St Petersburg) are.
 */
const CONTINENT_OVERRIDES: Record<string, number> = { RU: 1 };

/** ISO codes, by popularity among Chinese travellers. */
export const DESTINATION_ISO_CODES = [
  // The big ones.
  'JP',
  'KR',
  'TH',
  'SG',
  'US',
  'GB',
  'FR',
  'DE',
  'IT',
  'ES',
  'AU',
  'NZ',
  'CA',
  'MY',
  'VN',
  'AE',
  'TR',
  'EG',
  'CH',
  'RU',
  'ID',
  'NL',
  'GR',
  'PH',
  'KH',
  'IN',
  'LK',
  'AT',
  'PT',
  'CZ',
  'BE',
  'IS',
  'NO',
  'DK',
  'SE',
  'FI',
  'IE',
  'HU',
  'MX',
  'BR',
  'ZA',
  'KE',
  'IL',
  'JO',
  'SA',
  'NP',
  'MN',
  'LA',
  'MM',
  'PL',
  'HR',
  'AR',
  'CL',
  'PE',
  // The long tail.
  'TZ',
  'CU',
  'CO',
  'OM',
  'BH',
  'KW',
  'AZ',
  'IR',
  'PK',
  'BD',
  'KG',
  'TJ',
  'MT',
  'LU',
  'SI',
  'SK',
  'EE',
  'LV',
  'LT',
  'PG',
  'ET',
  'MG',
  'ZW',
  'NG',
  'GH',
  'UG',
] as const;

export type DestinationIso = (typeof DESTINATION_ISO_CODES)[number];

const flagDir = join(dirname(createRequire(import.meta.url).resolve('flag-icons/package.json')), 'flags', '4x3');

export function hasFlag(iso: string): boolean {
  return existsSync(join(flagDir, `${iso.toLowerCase()}.svg`));
}

export interface CountrySeed {
  iso_code: string;
  name: string;
  name_en: string;
  continent_id: number;
  description: string;
  hot: number;
  status: number;
}

export function countryName(iso: string): string {
  const name = isoCountries.getName(iso, 'zh');
  if (!name) throw new Error(`no Chinese name for ${iso}`);
  return name;
}

export function buildCountries(): CountrySeed[] {
  return DESTINATION_ISO_CODES.filter(hasFlag).map((iso, index) => {
    const info = countries[iso as TCountryCode];
    const continent = CONTINENT_OVERRIDES[iso] ?? CONTINENT_OF_CODE[info.continent];
    if (continent === undefined) throw new Error(`no continent for ${iso}`);
    const name = countryName(iso);
    return {
      iso_code: iso,
      name,
      name_en: info.name,
      continent_id: continent,
      description: `${name}签证办理：旅游、商务、探亲签证材料清单、办理流程、领馆假期与费用查询`,
      // Popular first: 1000, 990, 980 …
      hot: 1000 - index * 10,
      status: 0,
    };
  });
}
