// European destinations: the Schengen states, the United Kingdom, Ireland and Russia.
import { biometric, type CountryProducts, evisa, mailed, schengenBasic } from './product-spec.ts';

const SCHENGEN_NOTE = '申根签证请向主要目的地国（停留时间最长的国家）申请；各国停留时间相同时，向首个入境国申请。';

export const EUROPE_PRODUCTS: Record<string, CountryProducts> = {
  GB: {
    photo: 'gb',
    note: '英国签证递交后护照由签证中心转交审理，一般约3周归还；可付费选择优先或超级优先服务。',
    products: [
      biometric({ desc: '标准访客签证 · 6个月', entry: 2, stay: 180, valid: 180, days: 15, price: 149900, fee: 1180, perDistrict: true, hot: true, discount: true, reviews: 12, passRate: 9650 }),
      biometric({ desc: '标准访客签证 · 两年多次', entry: 2, stay: 180, valid: 730, days: 15, price: 499900, fee: 4400, passRate: 9550 }),
      biometric({ desc: '标准访客签证 · 优先服务（约5个工作日）', entry: 2, stay: 180, valid: 180, days: 5, price: 599900, fee: 5780, express: true }),
      biometric({ desc: '标准访客签证 · 超级优先（约1个工作日）', entry: 2, stay: 180, valid: 180, days: 2, price: 1099900, fee: 10480, express: true }),
      biometric({ type: '商务签证', desc: '标准访客签证（商务访问）', entry: 2, stay: 180, valid: 180, days: 15, price: 159900, fee: 1180, discount: true }),
      biometric({ type: '探亲访友签证', desc: '标准访客签证（探亲访友）', entry: 2, stay: 180, valid: 180, days: 15, price: 149900, fee: 1180 }),
      biometric({ type: '留学签证', desc: '学生签证 Student visa', entry: 2, stay: 0, valid: 1460, days: 15, price: 399900, fee: 4600, passRate: 9800,
        note: '学生签证另需缴纳移民健康附加费（IHS），并在指定医院完成肺结核检测。' }),
    ],
  },
  FR: {
    photo: 'schengen',
    schengen: true,
    note: SCHENGEN_NOTE,
    products: [
      biometric({ desc: '申根个人旅游', entry: 0, stay: 30, valid: 90, days: 10, price: 89900, fee: 930, perDistrict: true, hot: true, discount: true, refund: true, reviews: 13, passRate: 9700 }),
      biometric({ type: '商务签证', desc: '申根商务访问', entry: 2, stay: 90, valid: 180, days: 10, price: 99900, fee: 930, perDistrict: true, discount: true }),
      biometric({ desc: '申根旅游 · 一年多次', entry: 2, stay: 90, valid: 365, days: 12, price: 119900, fee: 930, passRate: 9500 }),
      biometric({ type: '探亲访友签证', desc: '申根探亲访友', entry: 0, stay: 90, valid: 120, days: 12, price: 89900, fee: 930 }),
    ],
  },
  DE: {
    photo: 'schengenGrey',
    schengen: true,
    note: SCHENGEN_NOTE,
    products: [
      biometric({ desc: '申根个人旅游', entry: 0, stay: 30, valid: 90, days: 10, price: 79900, fee: 930, perDistrict: true, hot: true, discount: true, refund: true, passRate: 9680 }),
      biometric({ type: '商务签证', desc: '申根商务访问', entry: 2, stay: 90, valid: 180, days: 10, price: 89900, fee: 930, perDistrict: true, discount: true }),
      biometric({ type: '探亲访友签证', desc: '申根探亲访友', entry: 0, stay: 90, valid: 120, days: 12, price: 79900, fee: 930 }),
    ],
  },
  IT: {
    photo: 'schengen',
    schengen: true,
    note: SCHENGEN_NOTE,
    products: [
      biometric({ desc: '申根个人旅游', entry: 0, stay: 30, valid: 90, days: 10, price: 79900, fee: 930, perDistrict: true, hot: true, discount: true, passRate: 9720 }),
      biometric({ type: '商务签证', desc: '申根商务访问', entry: 2, stay: 90, valid: 180, days: 10, price: 89900, fee: 930 }),
      biometric({ type: '探亲访友签证', desc: '申根探亲访友', entry: 0, stay: 90, valid: 120, days: 12, price: 79900, fee: 930 }),
    ],
  },
  ES: {
    photo: 'schengen',
    schengen: true,
    note: SCHENGEN_NOTE,
    products: [
      biometric({ desc: '申根个人旅游', entry: 0, stay: 30, valid: 90, days: 10, price: 79900, fee: 930, perDistrict: true, hot: true, refund: true, passRate: 9750 }),
      biometric({ type: '商务签证', desc: '申根商务访问', entry: 2, stay: 90, valid: 180, days: 10, price: 89900, fee: 930 }),
      biometric({ type: '探亲访友签证', desc: '申根探亲访友', entry: 0, stay: 90, valid: 120, days: 12, price: 79900, fee: 930 }),
    ],
  },
  NL: {
    photo: 'schengen',
    schengen: true,
    note: SCHENGEN_NOTE,
    products: [
      biometric({ desc: '申根个人旅游', entry: 0, stay: 30, valid: 90, days: 12, price: 89900, fee: 930, perDistrict: true, passRate: 9600 }),
      biometric({ type: '商务签证', desc: '申根商务访问', entry: 2, stay: 90, valid: 180, days: 12, price: 99900, fee: 930, discount: true }),
    ],
  },
  CH: {
    photo: 'schengen',
    schengen: true,
    note: SCHENGEN_NOTE,
    products: [
      biometric({ desc: '申根个人旅游', entry: 0, stay: 30, valid: 90, days: 10, price: 99900, fee: 930, perDistrict: true, hot: true, passRate: 9750 }),
      biometric({ type: '商务签证', desc: '申根商务访问', entry: 2, stay: 90, valid: 180, days: 10, price: 109900, fee: 930 }),
    ],
  },
  RU: {
    photo: 'ru',
    products: [
      mailed({ desc: '旅游签证（含旅游确认函）', stay: 30, valid: 30, days: 10, price: 69900, fee: 490, perDistrict: true, hot: true, passRate: 9800,
        note: '俄罗斯旅游签证需提供俄方接待单位出具的旅游确认函，本产品已包含代办确认函。' }),
      mailed({ type: '商务签证', desc: '商务签证 · 一年多次', entry: 2, stay: 90, valid: 365, days: 12, price: 129900, fee: 980, passRate: 9600 }),
      mailed({ type: '探亲访友签证', desc: '私人访问签证', stay: 90, valid: 90, days: 12, price: 89900, fee: 490 }),
      evisa({ desc: '统一电子签证（停留16天）', stay: 16, valid: 60, days: 4, price: 29900, fee: 380, offline: 0,
        note: '俄罗斯电子签证每次停留不超过16天，仅可经指定口岸入境，入境时请出示打印的电子签证通知单。' }),
    ],
  },
  IE: {
    photo: 'schengen',
    products: [
      biometric({ desc: '短期访问签证（C类）', entry: 0, stay: 90, valid: 90, days: 20, price: 129900, fee: 600, passRate: 9500 }),
      biometric({ type: '商务签证', desc: '短期商务签证（C类）', entry: 0, stay: 90, valid: 90, days: 20, price: 139900, fee: 600, passRate: 9500 }),
    ],
  },
  GR: { photo: 'schengen', schengen: true, note: SCHENGEN_NOTE, products: schengenBasic(79900, { business: 89900, family: 79900, passRate: 9800 }) },
  AT: { photo: 'schengenGrey', schengen: true, note: SCHENGEN_NOTE, products: schengenBasic(79900, { business: 89900 }) },
  PT: { photo: 'schengen', schengen: true, note: SCHENGEN_NOTE, products: schengenBasic(79900, { family: 79900 }) },
  CZ: { photo: 'schengen', schengen: true, note: SCHENGEN_NOTE, products: schengenBasic(79900, { business: 89900 }) },
  BE: { photo: 'schengen', schengen: true, note: SCHENGEN_NOTE, products: schengenBasic(84900, { business: 94900, passRate: 9500 }) },
  IS: { photo: 'schengen', schengen: true, note: SCHENGEN_NOTE, products: schengenBasic(89900, { days: 15 }) },
  NO: { photo: 'schengen', schengen: true, note: SCHENGEN_NOTE, products: schengenBasic(89900, { family: 89900, days: 15 }) },
  DK: { photo: 'schengen', schengen: true, note: SCHENGEN_NOTE, products: schengenBasic(84900, { days: 12 }) },
  SE: { photo: 'schengen', schengen: true, note: SCHENGEN_NOTE, products: schengenBasic(84900, { business: 94900, days: 12 }) },
  FI: { photo: 'schengen', schengen: true, note: SCHENGEN_NOTE, products: schengenBasic(79900, { multi: 109900, days: 7, passRate: 9800 }) },
  HU: { photo: 'schengen', schengen: true, note: SCHENGEN_NOTE, products: schengenBasic(79900, { business: 89900, passRate: 9800 }) },
  PL: { photo: 'schengen', schengen: true, note: SCHENGEN_NOTE, products: schengenBasic(79900, { business: 89900 }) },
  HR: { photo: 'schengen', schengen: true, note: SCHENGEN_NOTE, products: schengenBasic(79900) },
  MT: { photo: 'schengen', schengen: true, note: SCHENGEN_NOTE, products: schengenBasic(89900, { passRate: 9400 }) },
  LU: { photo: 'schengen', schengen: true, note: SCHENGEN_NOTE, products: schengenBasic(89900, { business: 99900 }) },
  SI: { photo: 'schengen', schengen: true, note: SCHENGEN_NOTE, products: schengenBasic(79900) },
  SK: { photo: 'schengen', schengen: true, note: SCHENGEN_NOTE, products: schengenBasic(79900, { business: 89900 }) },
  EE: { photo: 'schengen', schengen: true, note: SCHENGEN_NOTE, products: schengenBasic(79900) },
  LV: { photo: 'schengen', schengen: true, note: SCHENGEN_NOTE, products: schengenBasic(79900) },
  LT: { photo: 'schengen', schengen: true, note: SCHENGEN_NOTE, products: schengenBasic(79900) },
};
