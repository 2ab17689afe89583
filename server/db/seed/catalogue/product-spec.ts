// The shape of a visa product spec and helpers with the usual defaults.
// One ProductSpec per product, or per consular district when `perDistrict` is
// set (expand.ts turns specs into rows). Prices are in cents; `fee` is the
// official fee in yuan, quoted in the product's 费用说明.
import type { PhotoKey, VisaTypeName } from './reference.ts';

/**
 * How the application reaches the authority:
 * - evisa: online only, no passport sent;
 * - mailed: the passport goes to the embassy through us (no personal visit);
 * - interview: the applicant is interviewed at the embassy (US, Mexico);
 * - biometric: the applicant gives fingerprints at a visa centre (Schengen, UK, Canada, Australia…).
 */
export type Handling = 'evisa' | 'mailed' | 'interview' | 'biometric';

/** Extra financial proof some multiple-entry visas ask for. */
export type Proof = 'jpMulti3' | 'jpMulti5' | 'krMulti';

export interface ProductSpec {
  type: VisaTypeName;
  desc: string;
  /** 0 single, 1 double, 2 multiple. */
  entry: 0 | 1 | 2;
  /** Days per stay; 0: for the length of the studies. */
  stay: number;
  valid: number;
  /** Working days. */
  days: number;
  price: number;
  fee: number;
  handling: Handling;
  passRate: number;
  perDistrict?: boolean;
  hot?: boolean;
  express?: boolean;
  refund?: boolean;
  /** An enterprise (distributor) price below sell_price. */
  discount?: boolean;
  /** 0: mini-program only. Default 1. */
  offline?: 0 | 1;
  /** Overrides the country's photo; null: no photo item. */
  photo?: PhotoKey | null;
  delist?: 'status' | 'channel';
  /** A fixed number of reviews (the first district's product when per district). */
  reviews?: number;
  proof?: Proof;
  /** A sentence for the reminder, particular to this product. */
  note?: string;
}

export interface CountryProducts {
  photo: PhotoKey;
  schengen?: boolean;
  /** A sentence for the reminder of every product of the country. */
  note?: string;
  products: ProductSpec[];
}

/** An e-visa product with the usual defaults. */
export function evisa(
  spec: Omit<ProductSpec, 'handling' | 'entry' | 'days' | 'passRate' | 'type'> & Partial<Pick<ProductSpec, 'entry' | 'days' | 'passRate' | 'type'>>,
): ProductSpec {
  return { type: '旅游签证', entry: 0, days: 4, passRate: 9900, handling: 'evisa', ...spec };
}

/** A sticker visa sent through the embassy. */
export function mailed(
  spec: Omit<ProductSpec, 'handling' | 'entry' | 'passRate' | 'type'> & Partial<Pick<ProductSpec, 'entry' | 'passRate' | 'type'>>,
): ProductSpec {
  return { type: '旅游签证', entry: 0, passRate: 9700, handling: 'mailed', ...spec };
}

/** The Schengen products of a smaller member state (one district, Beijing). */
export function schengenBasic(
  tourPrice: number,
  options: { business?: number; family?: number; multi?: number; days?: number; passRate?: number } = {},
): ProductSpec[] {
  const days = options.days ?? 10;
  const passRate = options.passRate ?? 9650;
  const base = { stay: 30, valid: 90, days, fee: 930, handling: 'biometric' as const, passRate };
  const specs: ProductSpec[] = [{ ...base, type: '旅游签证', desc: '申根个人旅游', entry: 0, price: tourPrice, discount: tourPrice >= 80000 }];
  if (options.multi) specs.push({ ...base, type: '旅游签证', desc: '申根旅游 · 一年多次', entry: 2, stay: 90, valid: 365, price: options.multi });
  if (options.business)
    specs.push({ ...base, type: '商务签证', desc: '申根商务访问', entry: 2, stay: 90, valid: 180, price: options.business, discount: true });
  if (options.family) specs.push({ ...base, type: '探亲访友签证', desc: '申根探亲访友', entry: 0, stay: 90, valid: 120, price: options.family });
  return specs;
}

/** A visa applied for at a visa centre with fingerprints (Schengen, UK, Canada, Australia…). */
export function biometric(spec: Omit<ProductSpec, 'handling' | 'passRate' | 'type'> & Partial<Pick<ProductSpec, 'passRate' | 'type'>>): ProductSpec {
  return { type: '旅游签证', passRate: 9600, handling: 'biometric', ...spec };
}

/** A visa with a personal interview at the embassy or consulate. */
export function interview(spec: Omit<ProductSpec, 'handling' | 'passRate' | 'type'> & Partial<Pick<ProductSpec, 'passRate' | 'type'>>): ProductSpec {
  return { type: '旅游签证', passRate: 9100, handling: 'interview', ...spec };
}
