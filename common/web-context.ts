// What the server hands to the page loaders (React Router's load context).
// Types only: the web client never imports server code.
import type { UserInfo } from './contracts/account.ts';
import type { TravellerListResult, TravellerOffersResult } from './contracts/traveller.ts';
import type { AddressList } from './contracts/address.ts';
import type { ContinentWithCountries, ReviewPage, VisaCountryDetail, VisaProductDetail, VisaProductListItem } from './contracts/catalogue.ts';
import type { InsurancePlanListResult } from './contracts/insurance.ts';
import type { InterviewSlotListResult } from './contracts/interview.ts';
import type { InterviewNoticeDetail } from './contracts/interview-notice.ts';
import type { MailList } from './contracts/mail.ts';
import type { AdminInvoiceListResult, InvoiceListResult, adminInvoiceList } from './contracts/invoice.ts';
import type { OrderGroupListResult } from './contracts/report.ts';
import type { AdminShipBack, ReturnParcel } from './contracts/ship-back.ts';
import type { RefundFailedCount } from './contracts/refund.ts';
import type { ReconciliationListResult, adminReconciliationList } from './contracts/reconciliation.ts';
import type { MaterialListResult } from './contracts/material.ts';
import type { NoticeListResult } from './contracts/notice.ts';
import type { OrderDetail, OrderListResult, OrderListScope } from './contracts/order.ts';
import type { TeamMemberList } from './contracts/team.ts';
import type { AdminPageCheckView, PageCheckView } from './contracts/page-check.ts';
import type { OperatorInfo, OperatorRow } from './contracts/operator.ts';
import type { AdminFileAccessLog, AdminQueueFilters, AdminQueueResult, AdminWorkbench, adminFileAccessLog, adminOrderQueue } from './contracts/admin-order.ts';
import type { PayloadOf } from './contracts/define.ts';
import type { CatalogueProductList, ProductEditor, Publication, adminCatalogueProductEditor } from './contracts/catalogue-admin.ts';
import type { SlotCalendar, adminSlotCalendar } from './contracts/interview-slot-admin.ts';
import type {
  AdminCountryEditor,
  AdminCountryList,
  AdminReviewList,
  adminCatalogueCountryEditor,
  adminCatalogueReviewList,
} from './contracts/catalogue-places.ts';
import type { AddressKind } from './address.ts';
import type { OrderListTabKey } from './order.ts';
import type { QueueView } from './review.ts';

/** Values the browser may see; the web platform's signing pair is a client secret by nature. */
export interface PublicConfig {
  appEnv: string;
  apiBaseUrl: string;
  platform: string;
  accessKey: string;
  secret: string;
  analyticsScriptUrl: string | null;
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

/**
 * An in-process read's answer: what the signed call would answer — its
 * contract's result, or its refusal (ret ≠ 0 and the Chinese message). Any
 * other failure (the database is down) rejects, and the page shows "failed".
 */
export type ReadAnswer<T> = { ok: true; body: T } | { ok: false; ret: number; msg: string };

/**
 * What the login-only pages read in process, as the customer of the `token`
 * cookie: the signed calls' own payload checks and services, scoped to that
 * customer's enterprise (another enterprise's order answers 1801 like a
 * missing one), each answering its call's contract result.
 */
export interface CustomerReads {
  /** scope (issue 29): 'mine' the orders the caller placed, 'all' (the default) the enterprise's. */
  orderList(tab: OrderListTabKey, page: number, scope?: OrderListScope): Promise<ReadAnswer<OrderListResult>>;
  orderDetail(userOrderId: number): Promise<ReadAnswer<OrderDetail>>;
  materialList(userOrderId: number): Promise<ReadAnswer<MaterialListResult>>;
  interviewSlots(userOrderId: number): Promise<ReadAnswer<InterviewSlotListResult>>;
  /** The interview / fingerprint notice of each applicant (issue 10). */
  interviewNotice(userOrderId: number): Promise<ReadAnswer<InterviewNoticeDetail>>;
  /** The plans priced for the trip: the customer's return date (the confirm page's `?return_date=`), else an assumed week. */
  insurancePlans(userOrderId: number, trip?: { return_date?: string | null }): Promise<ReadAnswer<InsurancePlanListResult>>;
  addresses(kind: AddressKind): Promise<ReadAnswer<AddressList>>;
  /** The account's own notices (消息通知), newest first. */
  notices(page: number): Promise<ReadAnswer<NoticeListResult>>;
  /** The header bell's number. */
  unreadNotices(): Promise<ReadAnswer<{ unread_count: number }>>;
  /** The page check's published pages (/www/order/page_check_detail). */
  pageCheck(userOrderId: number): Promise<ReadAnswer<PageCheckView>>;
  /** The mail list of an order (/www/order/mail_list): paper materials, where to send them, the parcels. */
  mailList(userOrderId: number): Promise<ReadAnswer<MailList>>;
  /** The passports' return parcel (/www/order/return_parcel, issue 11). */
  returnParcel(userOrderId: number): Promise<ReadAnswer<ReturnParcel>>;
  /** 成员管理 (issue 29): administrators only (2501 otherwise). */
  teamMembers(): Promise<ReadAnswer<TeamMemberList>>;
  /** The enterprise's 出行团组 (/www/order/order_group_list, issue 29). */
  orderGroups(): Promise<ReadAnswer<OrderGroupListResult>>;
  /** The enterprise's invoices and its invoice details (/www/invoice/invoice_list, issue 29). */
  invoices(page: number): Promise<ReadAnswer<InvoiceListResult>>;
  /** The enterprise's saved travellers (常用出行人) with their documents. */
  travellers(): Promise<ReadAnswer<TravellerListResult>>;
  /** The saved documents offered to each applicant of a draft order (/www/traveller/offer_list). */
  travellerOffers(userOrderId: number): Promise<ReadAnswer<TravellerOffersResult>>;
}

/**
 * What the back office's pages read in process, as the operator of the
 * `admin_token` cookie: the /admin-api calls' own services, each answering
 * its call's contract result or refusal (a supervisor-only read answers 2003
 * to an operator).
 */
export interface OperatorReads {
  /** The operator of the session. */
  me: OperatorInfo;
  operatorList(): Promise<ReadAnswer<{ list: OperatorRow[] }>>;
  /** The work queue (/admin-api/order/queue) and its filters. */
  orderQueue(query: PayloadOf<typeof adminOrderQueue>): Promise<ReadAnswer<AdminQueueResult>>;
  queueFilters(): Promise<ReadAnswer<AdminQueueFilters>>;
  /** The queue view the operator chose last (/admin-api/order/queue_view). */
  queueView(): Promise<ReadAnswer<{ view: QueueView }>>;
  /** An order's workbench (/admin-api/order/workbench). */
  orderWorkbench(userOrderId: number): Promise<ReadAnswer<AdminWorkbench>>;
  /** An order's page check (/admin-api/page_check/detail). */
  pageCheck(userOrderId: number): Promise<ReadAnswer<AdminPageCheckView>>;
  /** The file access log (/admin-api/file_access_log, supervisors). */
  fileAccessLog(query: PayloadOf<typeof adminFileAccessLog>): Promise<ReadAnswer<AdminFileAccessLog>>;
  /** An order's mail list and parcels (/admin-api/order/mail), for the workbench's mail panel. */
  orderMail(userOrderId: number): Promise<ReadAnswer<MailList>>;
  /** The 工作台's alert: failed refunds still to redo (/admin-api/order/refund_failed_count). */
  refundFailedCount(): Promise<ReadAnswer<RefundFailedCount>>;
  /** An order's ship-back panel (/admin-api/order/ship_back, issue 11). */
  orderShipBack(userOrderId: number): Promise<ReadAnswer<AdminShipBack>>;
  /** The daily reconciliation's differences and last runs (/admin-api/reconciliation/difference_list, issue 25). */
  reconciliation(query: PayloadOf<typeof adminReconciliationList>): Promise<ReadAnswer<ReconciliationListResult>>;
  /** 发票: the invoice requests and those to reverse (/admin-api/invoice/list, issue 29). */
  invoices(query: PayloadOf<typeof adminInvoiceList>): Promise<ReadAnswer<AdminInvoiceListResult>>;
  /** 产品管理's list (/admin-api/catalogue/product_list, supervisors). */
  catalogueProducts(query: { keyword?: string; page: number }): Promise<ReadAnswer<CatalogueProductList>>;
  /** The product editor (/admin-api/catalogue/product_editor, supervisors) and the product's publications. */
  catalogueEditor(query: PayloadOf<typeof adminCatalogueProductEditor>): Promise<ReadAnswer<ProductEditor & { publications: Publication[] }>>;
  /** 面试时段's calendar (/admin-api/catalogue/slot_calendar, supervisors). */
  catalogueSlots(query: PayloadOf<typeof adminSlotCalendar>): Promise<ReadAnswer<SlotCalendar>>;
  /** A product's reviews with their moderation (/admin-api/catalogue/review_list, supervisors). */
  catalogueReviews(query: PayloadOf<typeof adminCatalogueReviewList>): Promise<ReadAnswer<AdminReviewList>>;
  /** The countries (/admin-api/catalogue/country_list, supervisors). */
  catalogueCountries(): Promise<ReadAnswer<AdminCountryList>>;
  /** A country and its districts (/admin-api/catalogue/country_editor, supervisors). */
  catalogueCountryEditor(query: PayloadOf<typeof adminCatalogueCountryEditor>): Promise<ReadAnswer<AdminCountryEditor>>;
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
  /** The reads of the `token` cookie's customer, or null for a guest or an expired session. */
  customerReads(): Promise<CustomerReads | null>;
  /** The operator of the `admin_token` cookie, or null (no session, expired, disabled). */
  currentOperator(): Promise<OperatorInfo | null>;
  /** The reads of the `admin_token` cookie's operator, or null. */
  operatorReads(): Promise<OperatorReads | null>;
  /** This response's Content-Security-Policy nonce, for the page's inline scripts and styles. */
  cspNonce: string;
  /** Logs a page error on the request's logger, so the line carries its request id. */
  logError(error: unknown): void;
}

declare module 'react-router' {
  // Declaration merging: React Router's context type becomes ours.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends WebLoadContext {}
}
