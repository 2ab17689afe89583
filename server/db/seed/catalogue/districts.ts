// Consular districts in mainland China: which consulate handles visas for
// applicants whose hukou or residence is in which province. The embassy's
// district ("北京领区") takes every province not listed for a consulate, so
// each country covers the 31 provinces exactly once.
import { countryName } from './countries.ts';
import { MAINLAND_PROVINCES, provinceCode } from './provinces.ts';

export interface DistrictSeed {
  name: string;
  consulate_name: string;
  city: string;
  address: string;
  province_codes: string[];
}

interface Consulate {
  city: string;
  address: string;
  /** Short province names; omitted for the embassy, which takes the rest. */
  provinces?: string[];
}

const EAST = ['上海', '江苏', '浙江', '安徽'];
const SOUTH = ['广东', '广西', '福建', '海南'];
const NORTHEAST = ['辽宁', '吉林', '黑龙江'];
const SOUTHWEST = ['四川', '重庆', '贵州', '云南', '西藏'];

/** Countries with several consulates; the first entry is the embassy in Beijing. */
const MULTI: Record<string, Consulate[]> = {
  US: [
    { city: '北京', address: '北京市朝阳区安家楼路55号' },
    { city: '上海', address: '上海市南京西路1038号梅龙镇广场8楼（签证处）', provinces: EAST },
    { city: '广州', address: '广州市天河区珠江新城华就路43号', provinces: SOUTH },
    { city: '沈阳', address: '沈阳市和平区十四纬路52号', provinces: NORTHEAST },
    { city: '武汉', address: '武汉市江汉区建设大道568号新世界国贸大厦47层', provinces: ['湖北', '湖南', '河南', '江西'] },
  ],
  JP: [
    { city: '北京', address: '北京市朝阳区亮马桥东街1号' },
    { city: '上海', address: '上海市长宁区万山路8号', provinces: [...EAST, '江西'] },
    { city: '广州', address: '广州市越秀区环市东路368号花园大厦', provinces: [...SOUTH, '湖南'] },
    { city: '重庆', address: '重庆市渝中区邹容路68号大都会商厦37楼', provinces: ['重庆', '四川', '贵州', '云南'] },
    { city: '沈阳', address: '沈阳市和平区十四纬路50号', provinces: NORTHEAST },
    { city: '青岛', address: '青岛市市南区香港中路59号国际金融中心45楼', provinces: ['山东'] },
  ],
  KR: [
    { city: '北京', address: '北京市朝阳区亮马桥北小街20号' },
    { city: '上海', address: '上海市长宁区万山路60号', provinces: EAST },
    { city: '广州', address: '广州市天河区天河北路233号中信广场18楼', provinces: SOUTH },
    { city: '沈阳', address: '沈阳市和平区南十三纬路37号', provinces: NORTHEAST },
    { city: '成都', address: '成都市锦江区东大街紫东楼段35号明宇金融广场19楼', provinces: SOUTHWEST },
    { city: '青岛', address: '青岛市城阳区春阳路88号', provinces: ['山东'] },
    { city: '西安', address: '西安市高新区科技路33号高新国际商务中心数码大厦', provinces: ['陕西', '甘肃', '宁夏', '青海', '新疆'] },
    { city: '武汉', address: '武汉市江汉区建设大道568号新世界国贸大厦', provinces: ['湖北', '湖南', '河南', '江西'] },
  ],
  GB: [
    { city: '北京', address: '北京市朝阳区光华路11号' },
    { city: '上海', address: '上海市静安区南京西路1376号上海商城319室', provinces: EAST },
    { city: '广州', address: '广州市天河区珠江新城珠江西路5号广州国际金融中心2楼', provinces: SOUTH },
    { city: '重庆', address: '重庆市渝中区邹容路68号大都会商厦28楼', provinces: SOUTHWEST },
    { city: '武汉', address: '武汉市江汉区建设大道568号新世界国贸大厦', provinces: ['湖北', '湖南', '江西'] },
  ],
  CA: [
    { city: '北京', address: '北京市朝阳区东直门外大街19号' },
    { city: '上海', address: '上海市静安区南京西路1376号上海商城604室', provinces: [...EAST, '江西'] },
    { city: '广州', address: '广州市天河区林和西路9号耀中广场801室', provinces: [...SOUTH, '湖南'] },
    { city: '重庆', address: '重庆市渝中区邹容路68号大都会商厦17楼', provinces: SOUTHWEST },
  ],
  AU: [
    { city: '北京', address: '北京市朝阳区东直门外大街21号' },
    { city: '上海', address: '上海市静安区南京西路1168号中信泰富广场22楼', provinces: EAST },
    { city: '广州', address: '广州市天河区珠江新城珠江西路5号广州国际金融中心12楼', provinces: [...SOUTH, '湖南'] },
    { city: '成都', address: '成都市锦江区红星路三段1号国际金融中心1号办公楼27楼', provinces: SOUTHWEST },
    { city: '沈阳', address: '沈阳市和平区青年大街286号华润大厦', provinces: NORTHEAST },
  ],
  DE: [
    { city: '北京', address: '北京市朝阳区东直门外大街17号' },
    { city: '上海', address: '上海市徐汇区永福路181号', provinces: [...EAST, '江西'] },
    { city: '广州', address: '广州市天河区珠江新城珠江西路5号广州国际金融中心14楼', provinces: SOUTH },
    { city: '成都', address: '成都市锦江区东大街下东大街段99号平安金融中心', provinces: ['四川', '重庆', '贵州', '云南'] },
    { city: '沈阳', address: '沈阳市和平区南京北街206号城市广场', provinces: NORTHEAST },
  ],
  FR: [
    { city: '北京', address: '北京市朝阳区天泽路60号' },
    { city: '上海', address: '上海市徐汇区淮海中路1375号', provinces: EAST },
    { city: '广州', address: '广州市天河区珠江新城珠江东路16号高德置地冬广场', provinces: SOUTH },
    { city: '成都', address: '成都市锦江区红星路三段1号国际金融中心', provinces: SOUTHWEST },
    { city: '沈阳', address: '沈阳市和平区南京北街34号', provinces: NORTHEAST },
    { city: '武汉', address: '武汉市江汉区建设大道568号新世界国贸大厦', provinces: ['湖北', '湖南', '江西'] },
  ],
  IT: [
    { city: '北京', address: '北京市朝阳区三里屯东二街2号' },
    { city: '上海', address: '上海市长宁区延安西路2299号世贸商城', provinces: EAST },
    { city: '广州', address: '广州市天河区林和西路9号耀中广场', provinces: SOUTH },
    { city: '重庆', address: '重庆市渝中区邹容路68号大都会商厦', provinces: ['重庆', '四川', '贵州', '云南'] },
  ],
  ES: [
    { city: '北京', address: '北京市朝阳区三里屯路9号' },
    { city: '上海', address: '上海市长宁区虹桥路1号港汇中心', provinces: EAST },
    { city: '广州', address: '广州市天河区天河路208号粤海天河城大厦', provinces: SOUTH },
  ],
  NL: [
    { city: '北京', address: '北京市朝阳区亮马河南路4号' },
    { city: '上海', address: '上海市静安区南京西路1515号嘉里中心', provinces: EAST },
    { city: '广州', address: '广州市天河区珠江新城珠江东路', provinces: SOUTH },
    { city: '重庆', address: '重庆市渝中区民族路188号环球金融中心', provinces: SOUTHWEST },
  ],
  CH: [
    { city: '北京', address: '北京市朝阳区三里屯东五街3号' },
    { city: '上海', address: '上海市长宁区遵义路100号虹桥上海城', provinces: EAST },
    { city: '广州', address: '广州市天河区天河路385号太古汇', provinces: SOUTH },
    { city: '成都', address: '成都市锦江区红星路三段1号国际金融中心', provinces: SOUTHWEST },
  ],
  RU: [
    { city: '北京', address: '北京市东城区东直门北中街4号' },
    { city: '上海', address: '上海市虹口区黄浦路20号', provinces: EAST },
    { city: '广州', address: '广州市天河区林和西路9号耀中广场', provinces: SOUTH },
    { city: '沈阳', address: '沈阳市和平区南十三纬路31号', provinces: NORTHEAST },
  ],
};

/** Embassies in Beijing whose address is known; the others show the visa centre note. */
const EMBASSY_ADDRESSES: Record<string, string> = {
  BE: '北京市朝阳区亮马桥路32号',
  AT: '北京市朝阳区秀水南街5号',
  GR: '北京市朝阳区亮马河南路19号',
  PT: '北京市朝阳区三里屯东五街8号',
  CZ: '北京市朝阳区日坛路2号',
  HU: '北京市朝阳区东直门外大街10号',
  PL: '北京市朝阳区日坛路1号',
  SE: '北京市朝阳区东直门外大街3号',
  NO: '北京市朝阳区三里屯东一街1号',
  DK: '北京市朝阳区三里屯东五街1号',
  FI: '北京市朝阳区光华路1号嘉里中心南楼26层',
  IE: '北京市朝阳区亮马桥东街3号',
  IS: '北京市朝阳区亮马河南路1号',
  MX: '北京市朝阳区三里屯东五街5号',
  BR: '北京市朝阳区光华路27号',
  ZA: '北京市朝阳区东直门外大街5号',
  IL: '北京市朝阳区建国门外大街1号国贸写字楼2座',
  PH: '北京市朝阳区秀水北街23号',
  MN: '北京市朝阳区秀水北街2号',
  NP: '北京市朝阳区三里屯西六街1号',
  AR: '北京市朝阳区三里屯东五街11号',
  CL: '北京市朝阳区三里屯东四街1号',
  PE: '北京市朝阳区三里屯北小街2号',
  CU: '北京市朝阳区秀水北街1号',
  NG: '北京市朝阳区三里屯东五街2号',
  GH: '北京市朝阳区三里屯路8号',
  IR: '北京市朝阳区三里屯东六街13号',
  BD: '北京市朝阳区光华路42号',
  JO: '北京市朝阳区三里屯东六街5号',
  HR: '北京市朝阳区三里屯外交公寓2-72',
};

/** Sticker-visa countries handled through the embassy in Beijing alone. */
export const SINGLE_DISTRICT_ISO = [
  'BE',
  'AT',
  'GR',
  'PT',
  'CZ',
  'HU',
  'PL',
  'SE',
  'NO',
  'DK',
  'FI',
  'IE',
  'IS',
  'HR',
  'MT',
  'LU',
  'SI',
  'SK',
  'EE',
  'LV',
  'LT',
  'MX',
  'BR',
  'AR',
  'CL',
  'PE',
  'CU',
  'ZA',
  'NG',
  'GH',
  'IL',
  'JO',
  'PH',
  'MN',
  'NP',
  'IR',
  'BD',
] as const;

function consulateName(country: string, city: string): string {
  return city === '北京' ? `${country}驻华大使馆` : `${country}驻${city}总领事馆`;
}

function districtsFrom(country: string, consulates: Consulate[]): DistrictSeed[] {
  const taken = new Set(consulates.flatMap((c) => (c.provinces ?? []).map(provinceCode)));
  return consulates.map((consulate) => ({
    name: `${consulate.city}领区`,
    consulate_name: consulateName(country, consulate.city),
    city: consulate.city,
    address: consulate.address,
    province_codes: consulate.provinces ? consulate.provinces.map(provinceCode) : MAINLAND_PROVINCES.map((p) => p.code).filter((code) => !taken.has(code)),
  }));
}

/** The consular districts of a country; none for e-visa-only destinations. */
export function districtsFor(iso: string): DistrictSeed[] {
  const country = countryName(iso);
  const consulates = MULTI[iso];
  if (consulates) return districtsFrom(country, consulates);
  if ((SINGLE_DISTRICT_ISO as readonly string[]).includes(iso)) {
    return districtsFrom(country, [{ city: '北京', address: EMBASSY_ADDRESSES[iso] ?? '北京市朝阳区使馆区（递交地点以签证申请中心预约确认信为准）' }]);
  }
  return [];
}

export const MULTI_DISTRICT_ISO = Object.keys(MULTI);
