import { describe, expect, it } from 'vitest';
import { regionCodes, regionOptions, regionValue } from './region-options';

const library = {
  '86': { '440000': '广东省' },
  '440000': { '440300': '深圳市', '441900': '东莞市' },
  '440300': { '440305': '南山区' },
};

describe('region options', () => {
  it('nests province, city and county; a city without counties is a leaf', () => {
    expect(regionOptions(library)).toEqual([
      {
        value: '440000',
        label: '广东省',
        children: [
          { value: '440300', label: '深圳市', children: [{ value: '440305', label: '南山区' }] },
          { value: '441900', label: '东莞市' },
        ],
      },
    ]);
  });

  it('turns stored codes into a value and back', () => {
    expect(regionValue({ province_code: '440000', city_code: '441900', county_code: '' })).toEqual(['440000', '441900']);
    expect(regionCodes(['440000', '441900'])).toEqual({ province_code: '440000', city_code: '441900', county_code: '' });
    expect(regionCodes(['440000', '440300', '440305'])).toEqual({ province_code: '440000', city_code: '440300', county_code: '440305' });
    expect(regionCodes(['440000'])).toBeNull();
    expect(regionCodes(undefined)).toBeNull();
  });
});
