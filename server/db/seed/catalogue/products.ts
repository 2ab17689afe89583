// Every destination's visa products, by ISO code (data in products-*.ts).
import type { CountryProducts } from './product-spec.ts';
import { ASIA_PRODUCTS } from './products-asia.ts';
import { EUROPE_PRODUCTS } from './products-europe.ts';
import { OTHER_PRODUCTS } from './products-other.ts';

export const PRODUCTS: Record<string, CountryProducts> = { ...ASIA_PRODUCTS, ...EUROPE_PRODUCTS, ...OTHER_PRODUCTS };
