// What the server hands to the page loaders (React Router's load context).
// Types only: the web client never imports server code.
import type { ContinentWithCountries, ReviewPage, VisaCountryDetail, VisaProductDetail, VisaProductListItem } from './catalogue';

/** Values the browser may see; the web platform's signing pair is a client secret by nature. */
export interface PublicConfig {
  appEnv: string;
  apiBaseUrl: string;
  platform: string;
  accessKey: string;
  secret: string;
  analyticsScriptUrl: string | null;
}

export interface UserInfo {
  account_id: number;
  account: string;
  name: string;
  mobile_phone: string | null;
  email: string | null;
  role: string;
  last_login_at: number | null;
  enterprise: { enterprise_id: number; name: string; kind: string; kind_label: string };
}

/** The catalogue reads a page loader may make, in process (no HTTP hop). */
export interface CatalogueReader {
  continents(): Promise<ContinentWithCountries[]>;
  country(visaCountryId: number): Promise<VisaCountryDetail | null>;
  products(query: { visa_country_id: number; province_code?: string; visa_type_id?: number; tag_id?: number }): Promise<{
    consular_district: { consular_district_id: number; name: string } | null;
    products: VisaProductListItem[];
  }>;
  productDetail(visaProductId: number): Promise<VisaProductDetail | null>;
  reviews(visaProductId: number, page: number): Promise<ReviewPage>;
}

export interface Province {
  province_code: string;
  name: string;
}

export interface WebLoadContext {
  catalogue: CatalogueReader;
  /** Mainland provinces of the address library (key 86), in code order. */
  provinces(): Province[];
  /** The visitor's province from their IP address (offline database), or null. */
  visitorProvince(): Province | null;
  publicConfig: PublicConfig;
  /** The user of the `token` cookie, or null for a guest or an expired session. */
  currentUser(): Promise<UserInfo | null>;
  /** Logs a page error on the request's logger, so the line carries its request id. */
  logError(error: unknown): void;
}

declare module 'react-router' {
  // Declaration merging: React Router's context type becomes ours.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends WebLoadContext {}
}
