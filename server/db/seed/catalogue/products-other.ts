// The Americas, Oceania and Africa.
import { biometric, type CountryProducts, evisa, interview, mailed } from './product-spec.ts';

export const OTHER_PRODUCTS: Record<string, CountryProducts> = {
  US: {
    photo: 'us',
    note: '持美国十年签证入境前需在EVUS系统登记，登记每两年或更换护照后需更新。',
    products: [
      interview({ desc: 'B1/B2 十年多次', entry: 2, stay: 180, valid: 3650, days: 5, price: 169900, fee: 1330, perDistrict: true, hot: true, discount: true, reviews: 18, passRate: 9100 }),
      interview({ type: '商务签证', desc: 'B1/B2 十年多次（商务）', entry: 2, stay: 180, valid: 3650, days: 5, price: 179900, fee: 1330, discount: true, passRate: 9250 }),
      interview({ type: '探亲访友签证', desc: 'B1/B2 十年多次（探亲）', entry: 2, stay: 180, valid: 3650, days: 5, price: 169900, fee: 1330, passRate: 9000 }),
      interview({ desc: 'B1/B2 加急面试预约', entry: 2, stay: 180, valid: 3650, days: 5, price: 239900, fee: 1330, express: true, passRate: 9050,
        note: '加急面试预约需有紧急出行事由（如就医、奔丧、紧急商务），由使馆审核是否批准加急。' }),
      mailed({ desc: 'B1/B2 续签（免面试）', entry: 2, stay: 180, valid: 3650, days: 15, price: 149900, fee: 1330, passRate: 9700,
        note: '免面试续签适用于原美国签证同类别且过期不超过48个月的申请人，使馆仍可能要求面谈。' }),
      interview({ type: '留学签证', desc: 'F1 学生签证', entry: 2, stay: 0, valid: 1825, days: 5, price: 259900, fee: 1330, passRate: 9300,
        note: 'F1签证面试前需缴纳SEVIS费（350美元），并携带I-20表格原件。' }),
    ],
  },
  CA: {
    photo: 'ca',
    note: '加拿大签证为网上递交，申请人需在签证中心录入生物信息；十年内已录入且在有效期内者无需重复录入。',
    products: [
      biometric({ desc: '旅游签证（最长十年多次）', entry: 2, stay: 180, valid: 3650, days: 30, price: 149900, fee: 970, perDistrict: true, hot: true, discount: true, passRate: 9400 }),
      biometric({ type: '商务签证', desc: '商务访问签证', entry: 2, stay: 180, valid: 3650, days: 30, price: 159900, fee: 970, passRate: 9450 }),
      biometric({ type: '探亲访友签证', desc: '探亲访友签证', entry: 2, stay: 180, valid: 3650, days: 30, price: 149900, fee: 970, passRate: 9350 }),
      biometric({ type: '探亲访友签证', desc: '超级签证 Super Visa（父母/祖父母）', entry: 2, stay: 1825, valid: 3650, days: 60, price: 299900, fee: 970, passRate: 9200,
        note: '超级签证需完成移民局指定医生体检，并购买加拿大保险公司保额不低于10万加元的医疗保险。' }),
      biometric({ type: '留学签证', desc: '学习许可 Study Permit', entry: 2, stay: 0, valid: 1460, days: 40, price: 399900, fee: 1100, passRate: 9300 }),
    ],
  },
  MX: {
    photo: 'mx',
    products: [
      interview({ desc: '旅游签证（需面试）', entry: 2, stay: 180, valid: 365, days: 10, price: 119900, fee: 270, passRate: 9200 }),
      interview({ type: '商务签证', desc: '商务签证（需面试）', entry: 2, stay: 180, valid: 365, days: 10, price: 129900, fee: 270, passRate: 9300 }),
    ],
  },
  BR: {
    photo: 'generic',
    products: [
      mailed({ desc: '旅游签证 · 五年多次', entry: 2, stay: 90, valid: 1825, days: 10, price: 99900, fee: 290 }),
      mailed({ type: '商务签证', desc: '商务签证 · 五年多次', entry: 2, stay: 90, valid: 1825, days: 10, price: 109900, fee: 290 }),
    ],
  },
  AR: { photo: 'generic', products: [mailed({ desc: '旅游签证', stay: 90, valid: 90, days: 20, price: 129900, fee: 1100, passRate: 9300 })] },
  CL: {
    photo: 'generic',
    products: [
      mailed({ desc: '旅游签证 · 多次', entry: 2, stay: 90, valid: 365, days: 15, price: 99900, fee: 230 }),
      mailed({ type: '商务签证', desc: '商务签证 · 多次', entry: 2, stay: 90, valid: 365, days: 15, price: 109900, fee: 230 }),
    ],
  },
  PE: { photo: 'generic', products: [mailed({ desc: '旅游签证', stay: 90, valid: 90, days: 10, price: 79900, fee: 210 })] },
  CU: {
    photo: 'generic',
    note: '中国公民持普通护照赴古巴可免签停留90天，商务活动仍需办理签证。',
    products: [
      mailed({ type: '商务签证', desc: '商务签证（需邀请函）', stay: 30, valid: 90, days: 10, price: 79900, fee: 360 }),
      mailed({ desc: '旅游卡（已实行免签）', stay: 90, valid: 180, days: 5, price: 49900, fee: 180, delist: 'status' }),
    ],
  },
  CO: { photo: 'generic', products: [evisa({ desc: '电子签证', stay: 90, valid: 90, days: 8, price: 79900, fee: 560, passRate: 9500 })] },
  AU: {
    photo: 'au',
    note: '澳大利亚签证为电子签证，不在护照上贴签；中国大陆申请人需前往签证中心录入生物信息。',
    products: [
      biometric({ desc: '电子签证 600类（旅游）', entry: 2, stay: 90, valid: 365, days: 20, price: 149900, fee: 1000, perDistrict: true, hot: true, discount: true, refund: true, passRate: 9500 }),
      biometric({ desc: '电子签证 600类 · 三年多次', entry: 2, stay: 90, valid: 1095, days: 20, price: 189900, fee: 1000, passRate: 9400 }),
      biometric({ type: '商务签证', desc: '电子签证 600类（商务访问）', entry: 2, stay: 90, valid: 365, days: 20, price: 159900, fee: 1000, discount: true }),
      biometric({ type: '探亲访友签证', desc: '电子签证 600类（探亲访友）', entry: 2, stay: 90, valid: 365, days: 20, price: 149900, fee: 1000 }),
      biometric({ type: '留学签证', desc: '电子签证 500类（学生）', entry: 2, stay: 0, valid: 1460, days: 30, price: 399900, fee: 8100, passRate: 9300 }),
    ],
  },
  NZ: {
    photo: 'nz',
    note: '新西兰签证为电子签证，获批后以电子邮件发送签证批准信，无需寄送护照。',
    products: [
      evisa({ desc: '访客签证（旅游）', entry: 2, stay: 90, valid: 730, days: 20, price: 139900, fee: 1330, hot: true, discount: true, passRate: 9600 }),
      evisa({ desc: '访客签证 · 五年多次', entry: 2, stay: 90, valid: 1825, days: 20, price: 169900, fee: 1330, passRate: 9500 }),
      evisa({ type: '商务签证', desc: '商务访客签证', entry: 2, stay: 90, valid: 730, days: 20, price: 149900, fee: 1330, passRate: 9600 }),
      evisa({ type: '探亲访友签证', desc: '探亲访客签证', entry: 2, stay: 90, valid: 730, days: 20, price: 139900, fee: 1330, passRate: 9550 }),
    ],
  },
  PG: { photo: 'generic', products: [evisa({ desc: '电子签证', stay: 60, valid: 90, days: 10, price: 69900, fee: 360, passRate: 9500 })] },
  EG: {
    photo: 'generic',
    note: '埃及电子签证持有人可经开罗、赫尔格达、沙姆沙伊赫等国际机场入境。',
    products: [
      evisa({ desc: '电子签证 · 30天', stay: 30, valid: 90, days: 4, price: 29900, fee: 180, hot: true }),
      mailed({ desc: '旅游签证 · 多次（使馆递交）', entry: 2, stay: 30, valid: 180, days: 6, price: 59900, fee: 430 }),
      mailed({ type: '商务签证', desc: '商务签证（使馆递交）', entry: 0, stay: 30, valid: 90, days: 8, price: 79900, fee: 430 }),
    ],
  },
  ZA: {
    photo: 'generic',
    products: [
      biometric({ desc: '旅游签证', entry: 0, stay: 30, valid: 90, days: 10, price: 99900, fee: 390, passRate: 9500 }),
      biometric({ type: '商务签证', desc: '商务签证', entry: 2, stay: 90, valid: 365, days: 12, price: 119900, fee: 390, passRate: 9450 }),
    ],
  },
  KE: { photo: 'generic', products: [evisa({ desc: 'eTA 电子旅行授权', stay: 90, valid: 90, days: 3, price: 39900, fee: 240, offline: 0 })] },
  TZ: { photo: 'generic', products: [evisa({ desc: '电子签证', stay: 90, valid: 90, days: 10, price: 49900, fee: 360, passRate: 9700 })] },
  ET: { photo: 'generic', products: [evisa({ desc: '电子签证 · 30天', stay: 30, valid: 30, days: 3, price: 49900, fee: 430 })] },
  MG: { photo: 'generic', products: [evisa({ desc: '电子签证', stay: 30, valid: 30, days: 4, price: 49900, fee: 250 })] },
  ZW: { photo: 'generic', products: [evisa({ desc: '电子签证', stay: 30, valid: 90, days: 5, price: 49900, fee: 220 })] },
  UG: { photo: 'generic', products: [evisa({ desc: '电子签证', stay: 90, valid: 90, days: 5, price: 59900, fee: 360 })] },
  NG: { photo: 'generic', products: [mailed({ type: '商务签证', desc: '商务签证（需邀请函）', stay: 30, valid: 90, days: 10, price: 129900, fee: 1000, passRate: 9300 })] },
  GH: { photo: 'generic', products: [mailed({ type: '商务签证', desc: '商务签证（需邀请函）', stay: 30, valid: 90, days: 10, price: 129900, fee: 700, passRate: 9400 })] },
};
