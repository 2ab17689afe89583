// The registry of the customer API (`/www/…`): every signed call's contract,
// by path. The server registers one operation per entry (a test checks both
// ways); the browser client is typed by it (app/lib/api-client.ts). The back
// office has a registry of its own (`/admin-api/…`) built the same way.
import { ACCOUNT_CONTRACTS } from './account.ts';
import { ADDRESS_CONTRACTS } from './address.ts';
import { ADMIN_ORDER_CONTRACTS } from './admin-order.ts';
import { CATALOGUE_CONTRACTS } from './catalogue.ts';
import { CATALOGUE_ADMIN_CONTRACTS } from './catalogue-admin.ts';
import { CATALOGUE_PLACES_CONTRACTS } from './catalogue-places.ts';
import { defineRegistry } from './define.ts';
import { INSURANCE_CONTRACTS } from './insurance.ts';
import { ADMIN_INVOICE_CONTRACTS, INVOICE_CONTRACTS } from './invoice.ts';
import { REPORT_CONTRACTS } from './report.ts';
import { INTERVIEW_CONTRACTS } from './interview.ts';
import { INTERVIEW_SLOT_ADMIN_CONTRACTS } from './interview-slot-admin.ts';
import { ADMIN_INTERVIEW_CONTRACTS, INTERVIEW_NOTICE_CONTRACTS } from './interview-notice.ts';
import { MATERIAL_CONTRACTS } from './material.ts';
import { PHOTO_CHECK_CONTRACTS } from './photo-check.ts';
import { ADMIN_MAIL_CONTRACTS, MAIL_CONTRACTS } from './mail.ts';
import { NOTICE_CONTRACTS } from './notice.ts';
import { OPERATOR_CONTRACTS } from './operator.ts';
import { ADMIN_PAGE_CHECK_CONTRACTS, PAGE_CHECK_CONTRACTS } from './page-check.ts';
import { ORDER_CONTRACTS } from './order.ts';
import { PASSPORT_SCAN_CONTRACTS } from './passport-scan.ts';
import { PAYMENT_CONTRACTS } from './payment.ts';
import { PRICE_DIFFERENCE_CONTRACTS } from './price-difference.ts';
import { REFUND_CONTRACTS } from './refund.ts';
import { TRAVELLER_MESSAGE_CONTRACTS } from './traveller-message.ts';
import { RECONCILIATION_CONTRACTS } from './reconciliation.ts';
import { SYSTEM_CONTRACTS } from './system.ts';
import { TEAM_CONTRACTS } from './team.ts';
import { TRAVELLER_CONTRACTS } from './traveller.ts';
import { ADMIN_VISA_RESULT_CONTRACTS, VISA_RESULT_CONTRACTS } from './visa-result.ts';
import { ADMIN_SHIP_BACK_CONTRACTS, SHIP_BACK_CONTRACTS } from './ship-back.ts';

export const WWW_CONTRACTS = defineRegistry([
  ...ACCOUNT_CONTRACTS,
  ...CATALOGUE_CONTRACTS,
  ...SYSTEM_CONTRACTS,
  ...ORDER_CONTRACTS,
  ...MATERIAL_CONTRACTS,
  ...PHOTO_CHECK_CONTRACTS,
  ...INTERVIEW_CONTRACTS,
  ...INTERVIEW_NOTICE_CONTRACTS,
  ...INSURANCE_CONTRACTS,
  ...ADDRESS_CONTRACTS,
  ...PAYMENT_CONTRACTS,
  ...NOTICE_CONTRACTS,
  ...PAGE_CHECK_CONTRACTS,
  ...MAIL_CONTRACTS,
  ...VISA_RESULT_CONTRACTS,
  ...SHIP_BACK_CONTRACTS,
  ...TEAM_CONTRACTS,
  ...REPORT_CONTRACTS,
  ...INVOICE_CONTRACTS,
  ...TRAVELLER_CONTRACTS,
  ...PASSPORT_SCAN_CONTRACTS,
]);

export type WwwRegistry = typeof WWW_CONTRACTS;

/** The back office's calls (`/admin-api/…`): an operator's token only. */
export const ADMIN_CONTRACTS = defineRegistry([
  ...OPERATOR_CONTRACTS,
  ...ADMIN_ORDER_CONTRACTS,
  ...ADMIN_PAGE_CHECK_CONTRACTS,
  ...ADMIN_INTERVIEW_CONTRACTS,
  ...PRICE_DIFFERENCE_CONTRACTS,
  ...ADMIN_MAIL_CONTRACTS,
  ...ADMIN_VISA_RESULT_CONTRACTS,
  ...ADMIN_SHIP_BACK_CONTRACTS,
  ...REFUND_CONTRACTS,
  ...RECONCILIATION_CONTRACTS,
  ...CATALOGUE_ADMIN_CONTRACTS,
  ...INTERVIEW_SLOT_ADMIN_CONTRACTS,
  ...CATALOGUE_PLACES_CONTRACTS,
  ...ADMIN_INVOICE_CONTRACTS,
  ...TRAVELLER_MESSAGE_CONTRACTS,
]);

export type AdminRegistry = typeof ADMIN_CONTRACTS;
