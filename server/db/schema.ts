// Table types for Kysely. Times are epoch milliseconds (bigint on PostgreSQL,
// integer on SQLite) so both databases compare and sort them the same way.
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { InsuranceItem, InsuranceSnapshot, ReturnAddressSnapshot } from '../../common/contracts/order.ts';
import type { AddressKind } from '../../common/address.ts';
import type { MaterialContentType, MaterialReviewStatus } from '../../common/material.ts';
import type { CourierCompany, CourierContact, ShipmentArrangement, ShipmentDirection, ShipmentStatus } from '../../common/courier.ts';
import type { ApplicantStatus, OrderActor, OrderEventName, OrderStatus, OrderStep } from '../../common/order.ts';
import type { PaymentChannel, PaymentStatus } from '../../common/ordering.ts';
import type { PaymentScene } from '../../common/payment.ts';
import type { Flag, Json } from './json.ts';

export interface EnterpriseTable {
  id: Generated<number>;
  name: string;
  /** 'company' or 'agency'. */
  kind: string;
  contact_name: string | null;
  contact_phone: string | null;
  /** The visa consultant assigned to this enterprise, shown in user_cs_query. */
  consultant_name: string | null;
  consultant_phone: string | null;
  status: number;
  created_at: number;
}

export interface AccountTable {
  id: Generated<number>;
  enterprise_id: number;
  account: string;
  /** scrypt of the SHA-256 hex digest the client sends; never the digest itself. */
  password_hash: string;
  name: string;
  mobile_phone: string | null;
  email: string | null;
  /** 'admin' 管理员, 'agent' 经办人, 'finance' 财务 (common/team.ts; migration 052). */
  role: string;
  /** 0 active, 1 disabled, 2 invited (no password yet: cannot log in). */
  status: number;
  created_at: number;
  last_login_at: number | null;
}

export interface AccountSessionTable {
  id: Generated<number>;
  /** SHA-256 hex of the token; the token itself is never stored. */
  token_hash: string;
  account_id: number;
  created_at: number;
  last_seen_at: number;
  absolute_expires_at: number;
  revoked_at: number | null;
  ip: string | null;
  user_agent: string | null;
}

/** Migration 052: a link that lets a colleague set their own password (an invitation or an administrator's reset). */
export interface AccountInvitationTable {
  invitation_id: Generated<number>;
  account_id: number;
  enterprise_id: number;
  purpose: 'invite' | 'reset';
  /** SHA-256 hex of the token; the token itself is only in the link. */
  token_hash: string;
  /** The administrator who sent it. */
  created_by: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  revoked_at: number | null;
}

export interface ApiRequestNonceTable {
  request_id: string;
  platform: string;
  seen_at: number;
}

export interface LoginThrottleTable {
  throttle_key: string;
  failures: number;
  window_started_at: number;
  locked_until: number | null;
}

export interface Database
  extends
    CatalogueTables,
    RateLimitTables,
    OrderTables,
    OrderingTables,
    CourierTables,
    OperatorTables,
    NoticeTables,
    ReviewTables,
    PageCheckTables,
    InterviewNoticeTables,
    VisaResultTables,
    RetentionTables,
    RefundTables,
    CatalogueDraftTables,
    InterviewSlotAdminTables,
    InvoiceTables,
    TravellerTables,
    PhotoCheckTables,
    ReminderTables,
    TravellerMessageTables {
  enterprise: EnterpriseTable;
  account: AccountTable;
  account_session: AccountSessionTable;
  account_invitation: AccountInvitationTable;
  api_request_nonce: ApiRequestNonceTable;
  login_throttle: LoginThrottleTable;
}

export type Enterprise = Selectable<EnterpriseTable>;
export type Account = Selectable<AccountTable>;
export type NewAccount = Insertable<AccountTable>;
export type AccountUpdate = Updateable<AccountTable>;
export type AccountSession = Selectable<AccountSessionTable>;

// ── Catalogue drafts and publications (migration 043) ─────────────────────

export interface ProductDraftTable {
  draft_id: Generated<number>;
  /** null: a product not yet published. */
  visa_product_id: number | null;
  /** The editable product (JSON, common/contracts/catalogue-admin.ts ProductContent). */
  content: string;
  version: number;
  /** The product's updated_at when the draft was started (0: a new product). */
  base_updated_at: number;
  created_by: number;
  updated_by: number;
  created_at: number;
  updated_at: number;
}

/** Migration 047: a workbook imported in the back office (who, when, which file, what it changed). */
export interface CatalogueImportTable {
  import_id: Generated<number>;
  operator_id: number;
  imported_at: number;
  file_name: string;
  sha256: string;
  size_bytes: number;
  /** JSON: the import's per-sheet changes. */
  changes: string;
}

export interface ProductPublicationTable {
  publication_id: Generated<number>;
  visa_product_id: number;
  operator_id: number;
  published_at: number;
  /** [{field, before, after}] (JSON). */
  diff: string;
}

/** Migration 046: each hide or show of a review (who, when, why). */
export interface ReviewModerationTable {
  moderation_id: Generated<number>;
  review_id: number;
  visa_product_id: number;
  action: 'hide' | 'show';
  reason: string;
  operator_id: number;
  created_at: number;
}

export interface CatalogueDraftTables {
  product_draft: ProductDraftTable;
  product_publication: ProductPublicationTable;
  review_moderation: ReviewModerationTable;
  catalogue_import: CatalogueImportTable;
}

// ── Catalogue (migration 002) ────────────────────────────────────────────

export interface ContinentTable {
  continent_id: number;
  name: string;
  name_en: string;
  sort: number;
}

export interface VisaCountryTable {
  visa_country_id: Generated<number>;
  iso_code: string;
  name: string;
  name_en: string;
  continent_id: number;
  description: string;
  /** Higher shows first. */
  hot: number;
  status: number;
  /** Migration 058: moved by every write of the country, its districts or its national days; the editor's save carries the one it read (a stale one: 2620). */
  version: Generated<number>;
}

export interface ConsularDistrictTable {
  consular_district_id: Generated<number>;
  visa_country_id: number;
  name: string;
  consulate_name: string;
  city: string;
  address: string;
  /** Migration 014: the consulate's interview-guide video (a site path); null = the default video. */
  interview_video_url: string | null;
}

export interface ConsularDistrictProvinceTable {
  consular_district_id: number;
  /** A province code of the address library (key of "86"). */
  province_code: string;
}

export interface VisaTypeTable {
  visa_type_id: Generated<number>;
  name: string;
  sort: number;
}

export interface VisaTagTable {
  tag_id: Generated<number>;
  name: string;
  sort: number;
}

export interface PhotoParamTable {
  visa_photo_id: Generated<number>;
  /** 0 blue, 1 white, 2 red, 3 grey. */
  color: number;
  /** millimetres */
  width: number;
  height: number;
  name: string;
}

export interface VisaProductTable {
  visa_product_id: Generated<number>;
  /** Migration 059: moved by triggers on every change to the product's materials (server/modules/order/checklist-version.ts). */
  checklist_serial: Generated<number>;
  visa_country_id: number;
  visa_type_id: number;
  consular_district_id: number | null;
  product_special_desc: string;
  /** 0 single, 1 double, 2 multiple entry. */
  entry_times: number;
  stay_days: number;
  valid_days: number;
  need_days: number;
  need_days_detail: string;
  /** Percentage × 100 (9850 = 98.5%). */
  pass_rate: number;
  /** cents */
  sell_price: number;
  distributor_discount_desc: string | null;
  distributor_discount_price: number | null;
  /** 1: delisted. */
  status: number;
  channel: number;
  /** 1: can be handled offline (web ordering); 0: mini-program only. */
  offline: number;
  reject_refund: number;
  need_interview: number;
  /** 0: no photo item; otherwise a photo_param. */
  visa_photo_id: number;
  reminder: string;
  updated_at: number;
}

export interface VisaProductTagTable {
  visa_product_id: number;
  tag_id: number;
}

interface ProductListRow {
  id: Generated<number>;
  visa_product_id: number;
  sort: number;
}

export interface VisaProductBasicInfoTable extends ProductListRow {
  title: string;
  content: string;
}

export interface VisaProductFeatureTable extends ProductListRow {
  /** 0 numeric (num + unit), 1 text (unit). */
  type: number;
  num: number;
  unit: string;
  title: string;
}

export interface VisaProductProcedureTable extends ProductListRow {
  icon: string;
  title: string;
}

export interface VisaProductProcessStepTable extends ProductListRow {
  title: string;
  content: string;
}

export interface VisaProductMaterialTable {
  material_id: Generated<number>;
  visa_product_id: number;
  identity_id: number;
  required: number;
  /** 0 electronic, 1 mailed paper, 2 bring to the embassy. */
  attr: number;
  name: string;
  attention: string;
  sample: string | null;
  sort: number;
  // Migration 047.
  /** 1: taken off the product while an order's checklist still lists it (kept for the order's files). */
  retired: Generated<Flag>;
}

export interface VisaProductReviewTable {
  review_id: Generated<number>;
  visa_product_id: number;
  nickname: string | null;
  mobile_phone: string | null;
  score: number;
  content: string;
  platform: string;
  create_time: number;
  /** Migration 046: 1 hidden by a supervisor (not on the guest page, not in the score or count). */
  hidden: Generated<number>;
}

export interface CatalogueTables {
  continent: ContinentTable;
  visa_country: VisaCountryTable;
  consular_district: ConsularDistrictTable;
  consular_district_province: ConsularDistrictProvinceTable;
  visa_type: VisaTypeTable;
  visa_tag: VisaTagTable;
  photo_param: PhotoParamTable;
  visa_product: VisaProductTable;
  visa_product_tag: VisaProductTagTable;
  visa_product_basic_info: VisaProductBasicInfoTable;
  visa_product_feature: VisaProductFeatureTable;
  visa_product_procedure: VisaProductProcedureTable;
  visa_product_process_step: VisaProductProcessStepTable;
  visa_product_material: VisaProductMaterialTable;
  visa_product_review: VisaProductReviewTable;
}

export interface RateLimitCounterTable {
  /** The action and who does it, e.g. 'material_email:ip:1.2.3.4'. */
  limit_key: string;
  window_started_at: number;
  hits: number;
}

/** Tables of migration 003 (platform/rate-limit.ts). */
export interface RateLimitTables {
  rate_limit_counter: RateLimitCounterTable;
}

// ── Orders (migration 004) ───────────────────────────────────────────────

export interface UserOrderTable {
  user_order_id: Generated<number>;
  enterprise_id: number;
  /** The account that created the order. */
  account_id: number;
  visa_product_id: number;
  consular_district_id: number | null;
  /** Changed only by the order lifecycle (server/modules/order/lifecycle.ts). */
  status: OrderStatus;
  /** The sub-step of processing; null otherwise. */
  step: OrderStep | null;
  /** 'YYYY-MM-DD', China time. */
  departure_date: string;
  order_date: string;
  product_title: string;
  country: string;
  visa_type: string;
  need_interview: Flag;
  reject_refund: Flag;
  /** cents */
  unit_price: number;
  applicant_count: number;
  total_amount: number;
  created_at: number;
  updated_at: number;
  expires_at: number | null;
  cancelled_at: number | null;
  cancel_reason: string | null;
  /** Bumped by every state change (optimistic concurrency). */
  version: Generated<number>;
  // Migration 005.
  /** 'YYYY-MM-DD' the visa should take effect; null = the departure date. */
  effect_date: string | null;
  /** unit_price × applicant_count (cents). total_amount = product_amount + insurance_amount − discount_amount. */
  product_amount: Generated<number>;
  insurance_plan_id: number | null;
  insurance_snapshot: Json<InsuranceSnapshot> | null;
  insurance_amount: Generated<number>;
  discount_amount: Generated<number>;
  return_address: Json<ReturnAddressSnapshot> | null;
  confirmed_at: number | null;
  paid_at: number | null;
  // Migration 007.
  /** When the order entered its current status/step (the back office's time in step counts from it). */
  step_entered_at: number | null;
  // Migration 011.
  /** The operator working on the order (taken or assigned); null while in nobody's hands. */
  assignee_operator_id: number | null;
  /** The SLA due time of the current step (China's working days, server/modules/order/sla.ts); null without one. */
  step_due_at: number | null;
  /** The material review round: 1 after payment, +1 on every re-upload submission. */
  review_round: Generated<number>;
  // Migration 013.
  /** The embassy submission date (yyyy-mm-dd), written by `submit`. */
  submitted_date: string | null;
  // Migration 015.
  /** cents: the open price difference (0 when none); written by the lifecycle's price_difference_* changes. */
  price_difference_due: Generated<number>;
  /** cents: the sum of the paid price differences. */
  price_difference_paid: Generated<number>;
  // Migration 041.
  /** The readable order number people see (common/order-number.ts); written right after the insert. */
  order_no: string | null;
  // Migration 047: the photo rule the order was placed with (0 = no photo item).
  visa_photo_id: Generated<number>;
  photo_color: number | null;
  photo_width: number | null;
  photo_height: number | null;
  photo_name: string | null;
  // Migration 053.
  /** The 出行团组 the customer put the order in (null: none). */
  group_name: string | null;
  // Migration 057.
  /** The product's stay_days when the order was placed (0 = open-ended): the passport validity check's trip (common/passport.ts). */
  stay_days: Generated<number>;
}

/**
 * The product's checklist as it was when the order was placed. Migration 047:
 * a table of copies. Migration 059: a view over the order's checklist versions
 * (order_checklist, checklist_version_item), or its copies (order_checklist_copy)
 * for orders placed before or by the previous release during a rolling upgrade.
 */
export interface OrderChecklistItemTable {
  user_order_id: number;
  /** The product material's id (order_material_file.material_id). */
  material_id: number;
  identity_id: number;
  required: number;
  /** 0 electronic, 1 mailed paper, 2 bring to the embassy. */
  attr: number;
  name: string;
  attention: string;
  sample: string | null;
  sort: number;
}

/** Migration 059: one identity's checklist of one product at some moment, named by the SHA-256 of its items; immutable, shared by orders. */
export interface ChecklistVersionTable {
  digest: string;
  visa_product_id: number;
  identity_id: number;
  created_at: number;
}

/** Migration 059: a checklist version's items (order_checklist_item's columns, less the order). */
export interface ChecklistVersionItemTable {
  digest: string;
  material_id: number;
  identity_id: number;
  required: number;
  attr: number;
  name: string;
  attention: string;
  sample: string | null;
  sort: number;
}

/** Migration 059: the checklist version each identity of the order was given when it was placed. */
export interface OrderChecklistTable {
  user_order_id: number;
  identity_id: number;
  digest: string;
}

export interface OrderApplicantTable {
  applicant_id: Generated<number>;
  user_order_id: number;
  name: string;
  identity_id: number;
  mobile_phone: string;
  email: string | null;
  passport_no: string | null;
  status: Generated<ApplicantStatus>;
  sort: number;
  // Migration 005.
  interview_slot_id: number | null;
  /** 1 when the order's insurance plan covers this applicant. */
  insured: Generated<Flag>;
  // Migration 056: 'YYYY-MM-DD', from a confirmed passport scan, a saved traveller or typed.
  passport_expiry: string | null;
}

export interface OrderEventTable {
  event_id: Generated<number>;
  user_order_id: number;
  actor: OrderActor;
  /** Account id of a customer, operator id of an operator, null for the system. */
  actor_id: number | null;
  event: OrderEventName;
  from_status: OrderStatus | null;
  to_status: OrderStatus | null;
  // Migration 007.
  from_step: OrderStep | null;
  to_step: OrderStep | null;
  detail: Json<Record<string, unknown>> | null;
  created_at: number;
}

/** Tables of migration 004 (modules/order). */
export interface OrderTables {
  user_order: UserOrderTable;
  order_applicant: OrderApplicantTable;
  order_event: OrderEventTable;
  /** A view since migration 059 (read it; nothing here writes it). */
  order_checklist_item: OrderChecklistItemTable;
  /** Migration 059: the copies of migration 047's table (what the previous release inserts into order_checklist_item lands here). */
  order_checklist_copy: OrderChecklistItemTable;
  checklist_version: ChecklistVersionTable;
  checklist_version_item: ChecklistVersionItemTable;
  order_checklist: OrderChecklistTable;
}

// ── Ordering steps (migration 005) ───────────────────────────────────────

export interface OrderMaterialFileTable {
  file_id: Generated<number>;
  user_order_id: number;
  applicant_id: number;
  /** null = the applicant's visa photo. */
  material_id: number | null;
  kind: 'material' | 'photo';
  storage_key: string;
  file_name: string;
  /** Detected from the bytes. */
  content_type: MaterialContentType;
  size_bytes: number;
  sha256: string;
  review_status: Generated<MaterialReviewStatus>;
  no_pass_memo: string | null;
  account_id: number;
  created_at: number;
  // Migration 011.
  /** The common reasons picked for a no-pass (JSON array of REVIEW_REASONS keys). */
  review_reasons: Json<string[]> | null;
  /** The operator who reviewed the current content; null while pending. */
  reviewed_by: number | null;
  reviewed_at: number | null;
  /** The review round of the current decision. */
  review_round: number | null;
  // Migration 049.
  /** The traveller's document this file reuses (the same stored object); null: uploaded for the order. */
  reused_document_id: number | null;
}

export interface InterviewSlotTable {
  interview_slot_id: Generated<number>;
  consular_district_id: number;
  slot_date: string;
  start_time: string;
  end_time: string;
  capacity: number;
  /** CHECK booked <= capacity: the database refuses a place beyond capacity. */
  booked: Generated<number>;
}

export interface CountryNationalDayTable {
  visa_country_id: number;
  /** 'MM-DD' */
  month_day: string;
  name: string;
}

export interface AddressTable {
  address_id: Generated<number>;
  enterprise_id: number;
  account_id: number;
  kind: AddressKind;
  company_name: string | null;
  name: string;
  mobile_phone: string;
  province_code: string;
  city_code: string;
  county_code: string;
  detail: string;
  is_default: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface InsurancePlanTable {
  insurance_plan_id: Generated<number>;
  name: string;
  company: string;
  description: string;
  /** cents per insured person per day */
  price_per_day: number;
  min_days: number;
  max_days: number;
  items: Json<InsuranceItem[]>;
  sort: number;
  status: Generated<number>;
}

export interface PaymentTable {
  payment_id: Generated<number>;
  user_order_id: number;
  out_trade_no: string;
  provider: string;
  /** Migration 036: 'qr' (code_url is the QR code's content) or 'phone' (code_url is the wallet page the browser was sent to). */
  scene: Generated<PaymentScene>;
  channel: PaymentChannel;
  amount: number;
  status: PaymentStatus;
  provider_trade_no: string | null;
  code_url: string;
  account_id: number;
  created_at: number;
  expires_at: number;
  paid_at: number | null;
  /** Migration 015: the price difference this payment pays; null for the order's own payment. */
  price_difference_id: number | null;
}

export interface PaymentNotificationTable {
  payment_notification_id: Generated<number>;
  provider: string;
  notify_id: string | null;
  out_trade_no: string | null;
  body: string;
  signature_valid: number;
  outcome: string;
  received_at: number;
}

/** Tables of migration 005 (modules material, interview, address, insurance, payment). */
export interface OrderingTables {
  order_material_file: OrderMaterialFileTable;
  interview_slot: InterviewSlotTable;
  country_national_day: CountryNationalDayTable;
  address: AddressTable;
  insurance_plan: InsurancePlanTable;
  payment: PaymentTable;
  payment_notification: PaymentNotificationTable;
  price_difference: PriceDifferenceTable;
}

// ── Price differences (migration 015) ────────────────────────────────────

export type PriceDifferenceStatus = 'open' | 'paid' | 'cancelled';

export interface PriceDifferenceTable {
  price_difference_id: Generated<number>;
  user_order_id: number;
  /** cents, > 0 */
  amount: number;
  reason: string;
  status: PriceDifferenceStatus;
  /** The operator who asked for it. */
  requested_by: number;
  created_at: number;
  updated_at: number;
  paid_at: number | null;
  /** The payment that settled it. */
  out_trade_no: string | null;
  cancelled_at: number | null;
  cancelled_by: number | null;
}

// ── Couriers (migration 008) ─────────────────────────────────────────────

export interface ShipmentTable {
  shipment_id: Generated<number>;
  shipment_no: string;
  user_order_id: number;
  direction: ShipmentDirection;
  arrangement: ShipmentArrangement;
  /** The tracking provider ('sandbox'); null for self-arranged parcels. */
  provider: string | null;
  courier_company: CourierCompany;
  courier_company_name: string;
  waybill_no: string;
  sender: Json<CourierContact> | null;
  receiver: Json<CourierContact>;
  parcel: string;
  pickup_start: number | null;
  pickup_end: number | null;
  status: ShipmentStatus;
  status_at: number;
  announced_status: ShipmentStatus;
  announce_until: number | null;
  last_route_at: number | null;
  next_query_at: number | null;
  created_by: OrderActor;
  created_by_id: number | null;
  created_at: number;
  updated_at: number;
  cancelled_at: number | null;
}

export interface ShipmentApplicantTable {
  shipment_id: number;
  applicant_id: number;
}

export type RouteSource = 'push' | 'query' | 'customer' | 'operator';

export interface ShipmentRouteTable {
  shipment_route_id: Generated<number>;
  shipment_id: number;
  op_code: string;
  event_time: number;
  status: ShipmentStatus | null;
  remark: string;
  location: string;
  provider_route_id: string | null;
  source: RouteSource;
  received_at: number;
}

export interface CourierPushTable {
  courier_push_id: Generated<number>;
  provider: string;
  request_id: string | null;
  waybill_nos: string | null;
  body: string;
  signature_valid: Flag;
  outcome: string;
  new_routes: number;
  received_at: number;
}

export interface ReceivingAddressTable {
  receiving_address_id: Generated<number>;
  /** null: the service's central address (districts without their own). */
  consular_district_id: number | null;
  company_name: string;
  name: string;
  mobile_phone: string;
  province_code: string;
  city_code: string;
  county_code: string;
  province_name: string;
  city_name: string;
  county_name: string;
  detail: string;
  note: string;
  updated_at: number;
}

/** Tables of migration 008 (modules/courier; the sandbox's ledger is typed in its own module). */
export interface CourierTables {
  shipment: ShipmentTable;
  shipment_applicant: ShipmentApplicantTable;
  shipment_route: ShipmentRouteTable;
  courier_push: CourierPushTable;
  receiving_address: ReceivingAddressTable;
}

// ── Operators (migration 009) ────────────────────────────────────────────

/** 'catalogue_editor' (产品编辑, issue 26): varchar(20) without a CHECK, so no migration. */
export type OperatorRoleValue = 'operator' | 'supervisor' | 'catalogue_editor';
export type OperatorStatusValue = 'active' | 'disabled';

export interface OperatorTable {
  id: Generated<number>;
  account: string;
  name: string;
  role: OperatorRoleValue;
  /** scrypt of the SHA-256 hex digest the client sends, as for customer accounts. */
  password_hash: string;
  /** Base32 TOTP secret; null until enrolled. */
  totp_secret: string | null;
  /** The secret shown during enrolment, until a code from it is confirmed. */
  totp_pending_secret: string | null;
  /** The last accepted 30-second step: a code is never accepted twice. */
  totp_last_step: number | null;
  status: OperatorStatusValue;
  last_login_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface OperatorSessionTable {
  id: Generated<number>;
  /** SHA-256 hex of the token; the token itself is never stored. */
  token_hash: string;
  operator_id: number;
  created_at: number;
  last_seen_at: number;
  absolute_expires_at: number;
  revoked_at: number | null;
  ip: string | null;
  user_agent: string | null;
}

export interface OperatorTables {
  operator: OperatorTable;
  operator_session: OperatorSessionTable;
}

// ── Notices and the e-mail outbox (migration 010) ─────────────────────────

export type NoticeRecipientKind = 'customer' | 'operator';
export type NoticeEmailStatus = 'pending' | 'sent' | 'failed';

export interface NoticeTable {
  notice_id: Generated<number>;
  recipient_kind: NoticeRecipientKind;
  /** An account id (customer) or an operator id. */
  recipient_id: number;
  /** The template (server/modules/notification/notice-kinds.ts). */
  kind: string;
  user_order_id: number | null;
  title: string;
  body: string;
  /** An app path, e.g. /order/order-reupload/12. */
  link: string;
  /** Unique with the recipient: one notice per event and recipient. */
  order_event_id: number | null;
  read_at: number | null;
  created_at: number;
}

export interface NoticeEmailTable {
  notice_email_id: Generated<number>;
  notice_id: number;
  to_address: string;
  subject: string;
  /** Site-relative links are written {{site}}/path; the worker puts the site's origin in. */
  text: string;
  html: string;
  status: NoticeEmailStatus;
  attempts: Generated<number>;
  next_attempt_at: number;
  claimed_until: number | null;
  claim_token: string | null;
  last_error: string | null;
  sent_at: number | null;
  created_at: number;
}

/** Tables of migration 010 (modules/notification). */
export interface NoticeTables {
  notice: NoticeTable;
  notice_email: NoticeEmailTable;
}

// ── Review (migration 011) ───────────────────────────────────────────────

export interface FileAccessLogTable {
  file_access_log_id: Generated<number>;
  operator_id: number;
  /** The kind of stored file's name: 'material' (order_material_file), 'page_check' (page_check_page), 'visa_result' (visa_result_file). */
  file_kind: string;
  file_id: number;
  user_order_id: number;
  ip: string | null;
  accessed_at: number;
}

/** Tables of migration 011 (modules/review; the access log is written by modules/stored-file). */
/** Migration 040: the queue view each operator chose last (common/review.ts QUEUE_VIEWS). */
export interface OperatorQueueViewTable {
  operator_id: number;
  view: string;
  updated_at: number;
}

export interface ReviewTables {
  file_access_log: FileAccessLogTable;
  operator_queue_view: OperatorQueueViewTable;
}

// ── Page check (migration 013) ───────────────────────────────────────────

export type PageCheckStatus = 'draft' | 'published' | 'correction' | 'confirmed';

export interface PageCheckApplicantTable {
  applicant_id: number;
  user_order_id: number;
  status: PageCheckStatus;
  /** 1 at the first publication, +1 on every republication. */
  round: Generated<number>;
  published_at: number | null;
  confirmed_at: number | null;
  updated_at: number;
}

export interface PageCheckPageTable {
  page_id: Generated<number>;
  user_order_id: number;
  applicant_id: number;
  storage_key: string;
  file_name: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  operator_id: number;
  created_at: number;
}

export interface PageCheckCommentTable {
  comment_id: Generated<number>;
  user_order_id: number;
  applicant_id: number;
  page_id: number;
  page_label: string;
  page_no: number | null;
  round: number;
  comment: string;
  account_id: number;
  created_at: number;
}

/** Tables of migration 013 (modules/page-check). */
export interface PageCheckTables {
  page_check_applicant: PageCheckApplicantTable;
  page_check_page: PageCheckPageTable;
  page_check_comment: PageCheckCommentTable;
}

// ── Interview notice (migration 014) ─────────────────────────────────────

export type InterviewChangeStatus = 'open' | 'accepted' | 'declined';

export interface InterviewNoticeTable {
  interview_notice_id: Generated<number>;
  user_order_id: number;
  /** Unique: one notice per applicant (republishing replaces it). */
  applicant_id: number;
  interview_date: string;
  start_time: string;
  end_time: string;
  consulate_name: string;
  consulate_address: string;
  process: string;
  attention: string;
  telephone: string;
  /** JSON array of the names of the materials to bring. */
  materials: Json<string[]>;
  published_by: number;
  published_at: number;
  updated_at: number;
}

export interface InterviewChangeRequestTable {
  change_request_id: Generated<number>;
  user_order_id: number;
  applicant_id: number;
  from_slot_id: number | null;
  to_slot_id: number;
  reason: string | null;
  status: InterviewChangeStatus;
  decline_reason: string | null;
  decided_by: number | null;
  decided_at: number | null;
  created_at: number;
}

/** Tables of migration 014 (modules/interview). */
export interface InterviewNoticeTables {
  interview_notice: InterviewNoticeTable;
  interview_change_request: InterviewChangeRequestTable;
}

// ── Visa results (migration 016) ─────────────────────────────────────────

export interface VisaResultFileTable {
  file_id: Generated<number>;
  user_order_id: number;
  applicant_id: number;
  /** 'evisa' (an issued applicant's e-visa) or 'letter' (the embassy's refusal letter). */
  kind: 'evisa' | 'letter';
  storage_key: string;
  file_name: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  operator_id: number;
  created_at: number;
  /** The result it is attached to; null while only uploaded. */
  result_id: number | null;
  /** When the retention job deleted the stored object (the row stays). */
  purged_at: number | null;
}

export interface VisaResultTable {
  result_id: Generated<number>;
  user_order_id: number;
  /** Unique: one result per applicant. */
  applicant_id: number;
  result: 'issued' | 'rejected';
  visa_no: string | null;
  valid_from: string | null;
  valid_to: string | null;
  entries: string | null;
  stay_days: number | null;
  /** JSON array of reason codes (common/visa-result.ts). */
  reject_reasons: Json<string[]> | null;
  reject_note: string | null;
  file_id: number | null;
  operator_id: number;
  created_at: number;
}

/** Tables of migration 016 (modules/result). */
export interface VisaResultTables {
  visa_result: VisaResultTable;
  visa_result_file: VisaResultFileTable;
}

// ── Retention (migration 018) ────────────────────────────────────────────

/** The retention job's bookkeeping of one finished order (modules/retention). */
export interface OrderRetentionTable {
  user_order_id: number;
  /** The claim: the instance lease_owner purges this order until lease_until. */
  lease_until: number;
  lease_owner: string;
  /** The last run that deleted something (null: none yet). */
  purged_at: number | null;
  files_deleted: Generated<number>;
  /** When files of the order are due again (an e-visa's end of validity); null: nothing left to delete. */
  next_due_at: number | null;
  updated_at: number;
}

/** Tables of migration 018 (modules/retention). */
export interface RetentionTables {
  order_retention: OrderRetentionTable;
}

// ── Refunds (migration 017, modules/refund; the sandbox's refund ledger is typed in the payment module) ──

export interface RefundTable {
  refund_id: Generated<number>;
  user_order_id: number;
  /** The refused applicant (kind rejection); null for an order-level refund. */
  applicant_id: number | null;
  kind: 'rejection' | 'manual' | 'close';
  /** cents */
  amount: number;
  reason: string;
  /** The payment given back (the order's own or a price difference's). */
  payment_id: number;
  out_trade_no: string;
  out_refund_no: string;
  status: 'pending' | 'processing' | 'succeeded' | 'failed';
  provider_refund_no: string | null;
  /** Operator id of the supervisor; null for the system. */
  created_by: number | null;
  created_at: number;
  updated_at: number;
  refunded_at: number | null;
  attempts: Generated<number>;
  next_attempt_at: number;
  claimed_until: number | null;
  claim_token: string | null;
  last_error: string | null;
}

/** Tables of migration 017 (modules/refund). */
export interface RefundTables {
  refund: RefundTable;
}

// ── Interview slots from the back office (migration 045) ────────────────

export interface InterviewClosureTable {
  consular_district_id: number;
  /** 'YYYY-MM-DD': the consulate receives no one that day. */
  closure_date: string;
  reason: string;
  created_by: number;
  created_at: number;
}

export interface InterviewSlotAuditTable {
  audit_id: Generated<number>;
  consular_district_id: number;
  operator_id: number;
  changed_at: number;
  action: 'generate' | 'capacity' | 'delete' | 'close' | 'reopen';
  /** What changed, in Chinese (the page's history). */
  summary: string;
  /** The call's input and what it did (JSON). */
  detail: string;
}

/** Tables of migration 045 (modules/catalogue-admin, slot-admin). */
export interface InterviewSlotAdminTables {
  interview_closure: InterviewClosureTable;
  interview_slot_audit: InterviewSlotAuditTable;
}

// ── Invoices (migration 053) ─────────────────────────────────────────────

export type InvoiceStatus = 'requested' | 'issued' | 'rejected';

export interface InvoiceProfileTable {
  enterprise_id: number;
  title: string;
  tax_id: string;
  address_phone: string;
  bank_account: string;
  email: string;
  updated_at: number;
}

export interface InvoiceTable {
  invoice_id: Generated<number>;
  enterprise_id: number;
  account_id: number;
  status: InvoiceStatus;
  title: string;
  tax_id: string;
  address_phone: string;
  bank_account: string;
  email: string;
  /** cents: the sum of its invoice_order rows */
  amount: number;
  created_at: number;
  issued_at: number | null;
  issued_by: number | null;
  rejected_at: number | null;
  reject_reason: string | null;
  reversed_at: number | null;
  reversed_by: number | null;
}

export interface InvoiceOrderTable {
  invoice_id: number;
  user_order_id: number;
  /** cents */
  amount: number;
}

export interface InvoiceFileTable {
  file_id: Generated<number>;
  /** null while uploaded and not yet attached by the issue. */
  invoice_id: number | null;
  /** The invoice's first order (its enterprise is the owner). */
  user_order_id: number;
  /** Always 0: an invoice is no applicant's. */
  applicant_id: number;
  storage_key: string;
  file_name: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  operator_id: number;
  created_at: number;
}

/** Tables of migration 053 (modules/invoice). */
export interface InvoiceTables {
  invoice_profile: InvoiceProfileTable;
  invoice: InvoiceTable;
  invoice_order: InvoiceOrderTable;
  invoice_file: InvoiceFileTable;
}

// ── Travellers saved for next time (migration 049) ─────────────────────────

export type TravellerDocumentType = 'passport' | 'id_card' | 'hukou' | 'photo';

export interface TravellerTable {
  traveller_id: Generated<number>;
  enterprise_id: number;
  name: string;
  pinyin: string;
  sex: 'M' | 'F';
  /** 'YYYY-MM-DD'. */
  birth_date: string;
  mobile_phone: string;
  email: string | null;
  identity_id: number;
  passport_no: string | null;
  passport_expiry: string | null;
  /** The traveller's consent to keeping their documents, recorded with each save. */
  consent_at: number;
  consent_account_id: number;
  created_at: number;
  updated_at: number;
}

export interface TravellerDocumentTable {
  document_id: Generated<number>;
  traveller_id: number;
  enterprise_id: number;
  doc_type: TravellerDocumentType;
  /** An object of the stored files' storage; order files reusing it hold the same key. */
  storage_key: string;
  file_name: string;
  content_type: MaterialContentType;
  size_bytes: number;
  sha256: string;
  taken_date: string | null;
  expiry_date: string | null;
  account_id: number;
  created_at: number;
}

/** Tables of migration 049 (modules/traveller). */
export interface TravellerTables {
  traveller: TravellerTable;
  traveller_document: TravellerDocumentTable;
}

/** Table of migration 051 (modules/photo-check): the visa photo check of each photo file. */
export interface PhotoCheckTables {
  photo_check: PhotoCheckTable;
}

export interface PhotoCheckTable {
  file_id: number;
  user_order_id: number;
  sha256: string;
  verdict: 'pass' | 'fixed' | 'fail' | 'error';
  /** Chinese lines: what is wrong, what the processing did. */
  problems: Json<string[]>;
  fixes: Json<string[]>;
  measures: Json<Record<string, number | string>>;
  rule_color: number;
  rule_width: number;
  rule_height: number;
  processed_key: string | null;
  processed_sha256: string | null;
  processed_size: number | null;
  choice: 'original' | 'processed' | null;
  checked_at: number;
  duration_ms: number;
}

// ── Reminders (migration 055) ────────────────────────────────────────────

/** One reminder a scheduled job sent (modules/reminder, decision 0047); unique per kind, order, applicant and occasion. */
export interface ReminderSentTable {
  reminder_sent_id: Generated<number>;
  /** 'expiry_warning', 'interview_tomorrow', 'departure_at_risk' (server/modules/reminder/reminder-kinds.ts). */
  kind: string;
  user_order_id: number;
  /** The applicant it concerns; 0 = the order as a whole. */
  applicant_id: number;
  /** What it was about: the expiry instant, the appointment 'YYYY-MM-DD HH:mm', the departure date. A new occasion is told again. */
  occasion: string;
  sent_at: number;
}

/** Table of migration 055 (modules/reminder). */
export interface ReminderTables {
  reminder_sent: ReminderSentTable;
}

// ── Travellers' own messages (migration 054) ─────────────────────────────

export type TravellerMessageChannel = 'sms' | 'email';
export type TravellerMessageStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'skipped';

/** One SMS or e-mail to an applicant's own mobile or address (modules/order-notices/traveller-messages.ts). */
export interface TravellerMessageTable {
  message_id: Generated<number>;
  user_order_id: number;
  applicant_id: number;
  order_event_id: number;
  channel: TravellerMessageChannel;
  to_address: string;
  /** The approved template (TRAVELLER_TEMPLATES). */
  template: string;
  /** JSON object of the template's variables. */
  params: string;
  /** Unique with the applicant and channel: the same news is written once. */
  dedupe_key: string;
  /** 1: a same-day appointment change, sent in the quiet hours too. */
  urgent: Generated<Flag>;
  status: TravellerMessageStatus;
  attempts: Generated<number>;
  next_attempt_at: number;
  claimed_until: number | null;
  claim_token: string | null;
  /** Why it failed, was skipped or is held (Chinese, shown to the operator). */
  last_error: string | null;
  /** The provider's id of the sent message (Alibaba's BizId, the sandbox's file id). */
  provider_id: string | null;
  sent_at: number | null;
  created_at: number;
}

export interface SmsOptOutTable {
  mobile: string;
  source: 'reply' | 'operator';
  created_at: number;
}

/** Tables of migration 054 (modules/order-notices writes, modules/notification sends). */
export interface TravellerMessageTables {
  traveller_message: TravellerMessageTable;
  sms_opt_out: SmsOptOutTable;
}
