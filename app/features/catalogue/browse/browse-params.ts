// URL search parameters of the browse pages. The URL is the single source of
// the selection, so a reload, a shared link and a page without JavaScript all
// show the same list.

export const PARAM = {
  continent: 'continent_id',
  query: 'q',
  province: 'province_code',
  visaType: 'visa_type_id',
  tag: 'tag_id',
} as const;

/** The id in `raw` when it is one of `allowed`, else null (unknown ids fall back to '全部'). */
export function pickId(raw: string | null, allowed: readonly number[]): number | null {
  if (!raw || !/^[1-9]\d{0,15}$/.test(raw)) return null;
  const id = Number(raw);
  return allowed.includes(id) ? id : null;
}

/** `continent_id` of the URL, defaulting to the first continent. */
export function pickContinent(raw: string | null, allowed: readonly number[]): number | null {
  if (raw !== null && /^\d{1,3}$/.test(raw) && allowed.includes(Number(raw))) return Number(raw);
  return allowed[0] ?? null;
}

/**
 * `pathname` with the current search parameters after setting (or, with null,
 * removing) some of them; the others are kept.
 */
export function withParams(pathname: string, current: URLSearchParams, changes: Record<string, string | number | null>): string {
  const next = new URLSearchParams(current);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === '') next.delete(key);
    else next.set(key, String(value));
  }
  const query = next.toString();
  return query ? `${pathname}?${query}` : pathname;
}

/** Case-insensitive match of a country against the search box (Chinese name, English name, ISO code). */
export function matchesCountry(country: { name: string; name_en: string; iso_code: string }, query: string): boolean {
  const needle = query.trim().toLowerCase();
  if (!needle) return true;
  return country.name.toLowerCase().includes(needle) || country.name_en.toLowerCase().includes(needle) || country.iso_code.toLowerCase() === needle;
}
