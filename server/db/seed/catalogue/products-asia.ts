// Asian destinations.
import { type CountryProducts, evisa, mailed } from './product-spec.ts';

export const ASIA_PRODUCTS: Record<string, CountryProducts> = {
  JP: {
    photo: 'jp',
    note: '日本签证须由使馆指定代办机构按领区递交，申请人不可自行前往使馆递交。',
    products: [
      mailed({ desc: '个人旅游', stay: 30, valid: 90, days: 7, price: 39900, fee: 200, perDistrict: true, hot: true, discount: true, refund: true, reviews: 38, passRate: 9860 }),
      mailed({ desc: '三年多次', entry: 2, stay: 30, valid: 1095, days: 8, price: 89900, fee: 400, perDistrict: true, hot: true, discount: true, proof: 'jpMulti3', passRate: 9720,
        note: '三年多次签证每次停留不超过30天，需具备一定经济能力（年收入约10万元以上或相应资产证明）。' }),
      mailed({ desc: '五年多次', entry: 2, stay: 90, valid: 1825, days: 8, price: 129900, fee: 400, perDistrict: true, proof: 'jpMulti5', passRate: 9610,
        note: '五年多次签证每次停留不超过90天，需提供年收入50万元以上的收入或纳税证明。' }),
      mailed({ type: '商务签证', desc: '短期商务', stay: 30, valid: 90, days: 8, price: 69900, fee: 200, discount: true }),
      mailed({ type: '商务签证', desc: '商务多次（1-5年）', entry: 2, stay: 90, valid: 1825, days: 10, price: 109900, fee: 400, passRate: 9550 }),
      mailed({ type: '探亲访友签证', desc: '探亲访友', stay: 90, valid: 90, days: 8, price: 49900, fee: 200 }),
      mailed({ type: '工作签证', desc: '持在留资格认定证明书（COE）', stay: 90, valid: 90, days: 5, price: 59900, fee: 200, passRate: 9950 }),
      mailed({ type: '留学签证', desc: '持在留资格认定证明书（COE）', stay: 90, valid: 90, days: 5, price: 59900, fee: 200, passRate: 9950 }),
    ],
  },
  KR: {
    photo: 'kr',
    note: '韩国签证由使馆指定代办机构按领区递交，请按户籍或居住证所在地选择领区。',
    products: [
      mailed({ desc: '个人旅游 C-3-9', stay: 90, valid: 90, days: 6, price: 35900, fee: 260, perDistrict: true, hot: true, discount: true, refund: true, reviews: 24, passRate: 9820 }),
      mailed({ desc: '五年多次 C-3-9', entry: 2, stay: 30, valid: 1825, days: 8, price: 99900, fee: 590, perDistrict: true, proof: 'krMulti', passRate: 9680 }),
      mailed({ desc: '个人旅游 · 加急', stay: 90, valid: 90, days: 3, price: 55900, fee: 260, express: true, passRate: 9800 }),
      mailed({ type: '商务签证', desc: '短期商务 C-3-4', stay: 90, valid: 90, days: 7, price: 59900, fee: 260, discount: true }),
      mailed({ type: '探亲访友签证', desc: '探亲访友 C-3-1', stay: 90, valid: 90, days: 7, price: 45900, fee: 260 }),
      mailed({ desc: '团体旅游（已实行团体免签）', stay: 15, valid: 90, days: 5, price: 19900, fee: 0, delist: 'status' }),
    ],
  },
  TH: {
    photo: 'th',
    note: '中国护照持有人赴泰国旅游停留30天以内免签，本产品适用于停留超过30天、多次往返或商务出行。',
    products: [
      evisa({ desc: '电子签证 TR（停留60天）', stay: 60, valid: 90, days: 5, price: 39900, fee: 230, hot: true, refund: true, reviews: 16 }),
      evisa({ desc: '电子签证 METV 半年多次', entry: 2, stay: 60, valid: 180, days: 7, price: 149900, fee: 1150 }),
      evisa({ desc: '电子签证 · 加急', stay: 60, valid: 90, days: 2, price: 59900, fee: 230, express: true }),
      evisa({ type: '商务签证', desc: '电子签证 Non-B 商务', stay: 90, valid: 90, days: 7, price: 79900, fee: 600, passRate: 9750 }),
      mailed({ desc: '纸质旅游签证（已改为电子签证）', stay: 60, valid: 90, days: 5, price: 29900, fee: 230, delist: 'status' }),
    ],
  },
  SG: {
    photo: 'sg',
    note: '中新互免普通护照签证，停留30天以内无需签证；本产品适用于停留超过30天或不符合免签条件的旅客。',
    products: [
      evisa({ desc: '电子签证', stay: 30, valid: 63, days: 4, price: 19900, fee: 160, hot: true, offline: 0, reviews: 11 }),
      evisa({ desc: '电子签证 · 两年多次', entry: 2, stay: 30, valid: 730, days: 5, price: 39900, fee: 160, discount: true }),
      evisa({ type: '商务签证', desc: '商务电子签证', entry: 2, stay: 30, valid: 730, days: 5, price: 29900, fee: 160 }),
      mailed({ desc: '纸质签证（使馆递交，已停办）', stay: 30, valid: 63, days: 7, price: 29900, fee: 160, delist: 'status' }),
    ],
  },
  MY: {
    photo: 'my',
    note: '中国公民赴马来西亚停留30天以内免签，本产品适用于停留超过30天或商务出行。',
    products: [
      evisa({ desc: 'eVISA 电子签证', stay: 30, valid: 90, days: 4, price: 29900, fee: 150 }),
      evisa({ desc: 'eNTRI 电子旅行证件', stay: 15, valid: 90, days: 3, price: 19900, fee: 140, delist: 'channel' }),
      evisa({ type: '商务签证', desc: 'eVISA 商务', stay: 30, valid: 90, days: 5, price: 39900, fee: 150 }),
    ],
  },
  VN: {
    photo: 'vn',
    products: [
      evisa({ desc: '电子签证（停留90天）', stay: 90, valid: 90, days: 4, price: 29900, fee: 180, hot: true, offline: 0, reviews: 14 }),
      evisa({ desc: '电子签证 · 多次（90天）', entry: 2, stay: 90, valid: 90, days: 4, price: 49900, fee: 360 }),
      evisa({ desc: '电子签证 · 加急（1-2个工作日）', stay: 90, valid: 90, days: 2, price: 59900, fee: 180, express: true }),
      evisa({ type: '商务签证', desc: '商务电子签证', entry: 2, stay: 90, valid: 90, days: 5, price: 69900, fee: 360 }),
      evisa({ desc: '落地签批文（已停办）', stay: 30, valid: 30, days: 3, price: 19900, fee: 180, delist: 'status' }),
    ],
  },
  AE: {
    photo: 'ae',
    note: '中国护照持有人赴阿联酋停留30天以内免签，本产品适用于需要更长停留的旅客。',
    products: [
      evisa({ desc: '旅游签证 · 60天', stay: 60, valid: 58, days: 5, price: 89900, fee: 760, hot: true }),
      evisa({ desc: '旅游签证 · 五年多次', entry: 2, stay: 90, valid: 1825, days: 10, price: 399900, fee: 3300, passRate: 9500 }),
      evisa({ type: '商务签证', desc: '商务签证（当地担保）', stay: 30, valid: 58, days: 7, price: 129900, fee: 900, passRate: 9600 }),
      evisa({ desc: '旅游签证 · 30天（已免签）', stay: 30, valid: 58, days: 4, price: 59900, fee: 500, delist: 'status' }),
    ],
  },
  TR: {
    photo: 'generic',
    products: [
      evisa({ desc: '电子签证', stay: 30, valid: 180, days: 2, price: 39900, fee: 440, photo: null, hot: true, offline: 0 }),
      mailed({ type: '商务签证', desc: '商务签证（使馆递交）', stay: 90, valid: 180, days: 15, price: 119900, fee: 440, passRate: 9500 }),
    ],
  },
  ID: {
    photo: 'generic',
    products: [
      evisa({ desc: '电子落地签 e-VOA', stay: 30, valid: 90, days: 2, price: 29900, fee: 230, offline: 0 }),
      evisa({ desc: '旅游签证 C1（停留60天）', stay: 60, valid: 90, days: 6, price: 59900, fee: 1000 }),
      evisa({ type: '商务签证', desc: '商务签证 C2', stay: 60, valid: 90, days: 6, price: 79900, fee: 1000 }),
    ],
  },
  PH: {
    photo: 'generic',
    products: [
      mailed({ desc: '旅游签证 9A（使馆递交）', stay: 30, valid: 90, days: 7, price: 39900, fee: 230, refund: true }),
      evisa({ desc: '电子签证', stay: 30, valid: 90, days: 6, price: 39900, fee: 230 }),
      mailed({ type: '商务签证', desc: '商务签证（使馆递交）', stay: 59, valid: 90, days: 7, price: 59900, fee: 230 }),
    ],
  },
  KH: {
    photo: 'generic',
    products: [
      evisa({ desc: '电子签证', stay: 30, valid: 90, days: 3, price: 29900, fee: 260, offline: 0 }),
      evisa({ type: '商务签证', desc: '商务电子签证', stay: 30, valid: 90, days: 4, price: 39900, fee: 290 }),
    ],
  },
  LA: { photo: 'generic', products: [evisa({ desc: '电子签证', stay: 30, valid: 60, days: 4, price: 39900, fee: 350 })] },
  MM: { photo: 'generic', products: [evisa({ desc: '电子签证', stay: 28, valid: 90, days: 4, price: 39900, fee: 360, passRate: 9700 })] },
  IN: {
    photo: 'in',
    note: '印度电子签证需在计划入境日期前至少4天获批，入境时请携带打印的电子签证批准页（ETA）。',
    products: [
      evisa({ desc: '电子旅游签证 · 30天', entry: 1, stay: 30, valid: 30, days: 5, price: 49900, fee: 180, passRate: 9600 }),
      evisa({ desc: '电子旅游签证 · 一年多次', entry: 2, stay: 90, valid: 365, days: 5, price: 69900, fee: 290, passRate: 9500 }),
      evisa({ desc: '电子旅游签证 · 五年多次', entry: 2, stay: 90, valid: 1825, days: 5, price: 129900, fee: 580, delist: 'channel' }),
      evisa({ type: '商务签证', desc: '电子商务签证 · 一年多次', entry: 2, stay: 180, valid: 365, days: 6, price: 99900, fee: 580, passRate: 9400 }),
    ],
  },
  LK: { photo: 'generic', products: [evisa({ desc: 'ETA 电子旅行许可', entry: 1, stay: 30, valid: 180, days: 2, price: 29900, fee: 360, photo: null, offline: 0 })] },
  NP: {
    photo: 'generic',
    note: '尼泊尔对中国公民免收签证费，本产品价格仅为服务费与快递费。',
    products: [mailed({ desc: '旅游签证（免签证费）', stay: 30, valid: 180, days: 5, price: 29900, fee: 0, passRate: 9900 })],
  },
  IL: {
    photo: 'il',
    note: '以色列对中国公民签发十年多次签证，每次停留不超过90天。',
    products: [
      mailed({ desc: '十年多次', entry: 2, stay: 90, valid: 3650, days: 10, price: 99900, fee: 170, passRate: 9600 }),
      mailed({ type: '商务签证', desc: '商务十年多次', entry: 2, stay: 90, valid: 3650, days: 10, price: 109900, fee: 170, passRate: 9600 }),
    ],
  },
  JO: { photo: 'generic', products: [mailed({ desc: '旅游签证（使馆递交）', stay: 30, valid: 90, days: 6, price: 49900, fee: 270 })] },
  SA: {
    photo: 'generic',
    products: [
      evisa({ desc: '旅游电子签 · 一年多次', entry: 2, stay: 90, valid: 365, days: 3, price: 129900, fee: 1030, photo: null }),
      mailed({ type: '商务签证', desc: '商务签证（使馆递交）', entry: 2, stay: 90, valid: 365, days: 15, price: 199900, fee: 1100, passRate: 9300 }),
    ],
  },
  OM: { photo: 'generic', note: '中国公民赴阿曼停留14天以内免签，本产品适用于停留超过14天的旅客。', products: [evisa({ desc: '电子签证 · 30天', stay: 30, valid: 30, days: 4, price: 49900, fee: 380 })] },
  BH: { photo: 'generic', products: [evisa({ desc: '电子签证', stay: 14, valid: 30, days: 4, price: 49900, fee: 470 })] },
  KW: { photo: 'generic', products: [evisa({ desc: '电子签证', stay: 30, valid: 90, days: 5, price: 59900, fee: 70, passRate: 9500 })] },
  MN: {
    photo: 'generic',
    products: [
      mailed({ desc: '旅游签证', stay: 30, valid: 90, days: 6, price: 39900, fee: 250 }),
      mailed({ type: '商务签证', desc: '商务签证（需邀请函）', stay: 30, valid: 90, days: 6, price: 59900, fee: 250 }),
    ],
  },
  PK: { photo: 'generic', products: [evisa({ type: '商务签证', desc: '电子商务签证', entry: 2, stay: 90, valid: 365, days: 6, price: 59900, fee: 430, passRate: 9600 })] },
  IR: {
    photo: 'generic',
    note: '中国公民持普通护照赴伊朗旅游可免签停留21天，商务访问仍需办理签证。',
    products: [mailed({ type: '商务签证', desc: '商务签证（需邀请函）', stay: 30, valid: 90, days: 10, price: 79900, fee: 360, passRate: 9400 })],
  },
  AZ: { photo: 'generic', products: [evisa({ desc: 'ASAN 电子签证', stay: 30, valid: 90, days: 3, price: 29900, fee: 190, photo: null })] },
  BD: { photo: 'generic', products: [mailed({ type: '商务签证', desc: '商务签证（需邀请函）', stay: 30, valid: 90, days: 8, price: 69900, fee: 360, passRate: 9500 })] },
  KG: { photo: 'generic', products: [evisa({ desc: '电子签证', stay: 30, valid: 90, days: 5, price: 39900, fee: 360 })] },
  TJ: { photo: 'generic', products: [evisa({ desc: '电子签证', stay: 45, valid: 90, days: 5, price: 39900, fee: 360 })] },
};
