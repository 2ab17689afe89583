// Offline IP → province lookup against the bundled ip2region database.
import { areaList } from '@vant/area-data';
import { describe, expect, it } from 'vitest';
import { bareProvinceName, locateProvince } from './ip-location.ts';

describe('locateProvince', () => {
  it('finds the address-library province of mainland addresses', () => {
    expect(locateProvince('114.114.114.114')).toEqual({ province_code: '320000', province_name: '江苏省' });
    expect(locateProvince('202.96.209.133')).toEqual({ province_code: '310000', province_name: '上海市' });
    expect(locateProvince('61.135.169.121')).toEqual({ province_code: '110000', province_name: '北京市' });
    expect(locateProvince('223.5.5.5')).toEqual({ province_code: '330000', province_name: '浙江省' });
  });

  it('maps short autonomous-region names (内蒙古, 新疆) to their full names', () => {
    expect(locateProvince('1.180.0.1')).toEqual({ province_code: '150000', province_name: '内蒙古自治区' });
    expect(locateProvince('61.128.101.1')).toEqual({ province_code: '650000', province_name: '新疆维吾尔自治区' });
  });

  it('locates Hong Kong, Macau and Taiwan, which the address library lists', () => {
    expect(locateProvince('203.198.7.66')?.province_code).toBe('810000');
    expect(locateProvince('202.175.3.3')?.province_code).toBe('820000');
    expect(locateProvince('168.95.1.1')?.province_code).toBe('710000');
  });

  it('reads IPv6 and IPv4-mapped IPv6 addresses', () => {
    expect(locateProvince('::ffff:114.114.114.114')?.province_code).toBe('320000');
    expect(locateProvince('240e:47d:c20:1627:30a3:ba0d:a5e6:ec19')?.province_code).toBe('440000');
  });

  it('answers null for foreign, private, loopback and malformed addresses', () => {
    for (const ip of [
      '8.8.8.8',
      '1.1.1.1',
      '2001:4860:4860::8888',
      '127.0.0.1',
      '10.1.2.3',
      '172.16.5.4',
      '192.168.1.1',
      '100.64.0.1',
      '169.254.1.1',
      '0.0.0.0',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      'not an ip',
      '',
      '1.2.3',
      '999.1.1.1',
      '114.114.114.114:80',
    ]) {
      expect(locateProvince(ip), ip).toBeNull();
    }
  });
});

describe('bareProvinceName', () => {
  it('reduces every address-library province to a distinct bare name', () => {
    const names = Object.values(areaList.province_list);
    const bare = names.map(bareProvinceName);
    expect(new Set(bare).size).toBe(names.length);
    expect(bare).toEqual(expect.arrayContaining(['北京', '上海', '广西', '宁夏', '新疆', '内蒙古', '西藏', '香港', '澳门', '台湾', '黑龙江']));
  });

  it('accepts the forms ip2region uses', () => {
    expect(bareProvinceName('江苏省')).toBe('江苏');
    expect(bareProvinceName('上海')).toBe('上海');
    expect(bareProvinceName('广西')).toBe('广西');
    expect(bareProvinceName('广西壮族自治区')).toBe('广西');
    expect(bareProvinceName('宁夏回族自治区')).toBe('宁夏');
    expect(bareProvinceName('香港特别行政区')).toBe('香港');
  });
});
