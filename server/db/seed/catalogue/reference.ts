// Small reference tables: visa types, tags and visa photo specifications.

export const VISA_TYPES = ['旅游签证', '商务签证', '探亲访友签证', '留学签证', '工作签证'] as const;
export type VisaTypeName = (typeof VISA_TYPES)[number];

export const TAGS = ['热门', '免面试', '电子签', '多次往返', '加急办理', '拒签退款', '老人儿童友好', '全国受理'] as const;
export type TagName = (typeof TAGS)[number];

/** color: 0 blue, 1 white, 2 red, 3 grey; width × height in millimetres. */
export const PHOTO_PARAMS = {
  us: { color: 1, width: 51, height: 51, name: '美国签证照 51×51mm 白底' },
  schengen: { color: 1, width: 35, height: 45, name: '申根签证照 35×45mm 白底' },
  schengenGrey: { color: 3, width: 35, height: 45, name: '申根签证照 35×45mm 浅灰底' },
  jp: { color: 1, width: 45, height: 45, name: '日本签证照 45×45mm 白底' },
  kr: { color: 1, width: 35, height: 45, name: '韩国签证照 35×45mm 白底' },
  gb: { color: 3, width: 35, height: 45, name: '英国签证照 35×45mm 浅灰底' },
  ca: { color: 1, width: 35, height: 45, name: '加拿大签证照 35×45mm 白底' },
  au: { color: 1, width: 35, height: 45, name: '澳大利亚签证照 35×45mm 白底' },
  nz: { color: 1, width: 35, height: 45, name: '新西兰签证照 35×45mm 白底' },
  th: { color: 1, width: 40, height: 60, name: '泰国签证照 40×60mm 白底' },
  sg: { color: 1, width: 35, height: 45, name: '新加坡签证照 35×45mm 白底' },
  my: { color: 1, width: 35, height: 50, name: '马来西亚签证照 35×50mm 白底' },
  vn: { color: 1, width: 40, height: 60, name: '越南签证照 40×60mm 白底' },
  in: { color: 1, width: 51, height: 51, name: '印度签证照 51×51mm 白底' },
  ae: { color: 1, width: 43, height: 55, name: '阿联酋签证照 43×55mm 白底' },
  ru: { color: 1, width: 35, height: 45, name: '俄罗斯签证照 35×45mm 白底' },
  il: { color: 1, width: 55, height: 55, name: '以色列签证照 55×55mm 白底' },
  mx: { color: 1, width: 31, height: 39, name: '墨西哥签证照 31×39mm 白底' },
  generic: { color: 1, width: 33, height: 48, name: '通用签证照 33×48mm 白底' },
} as const;

export type PhotoKey = keyof typeof PHOTO_PARAMS;

export const PHOTO_COLOR_NAMES = ['蓝', '白', '红', '浅灰'] as const;
