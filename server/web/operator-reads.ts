// The back office's pages' reads (common/web-context.ts OperatorReads): the
// /admin-api calls' own steps, in process, for the operator of the page
// request's `admin_token` cookie — the same services and the same refusals
// (2003 for a read the caller's role may not make: common/staff-access.ts) as the signed calls.
// Other back-office areas add their reads here.
import type { OperatorInfo } from '../../common/contracts/operator.ts';
import type { OperatorReads, ReadAnswer } from '../../common/web-context.ts';
import { adminFileAccessLog, adminOrderQueue, adminOrderWorkbench } from '../../common/contracts/admin-order.ts';
import type { Contract, ParsedPayloadOf, PayloadOf } from '../../common/contracts/define.ts';
import { adminPageCheckDetail } from '../../common/contracts/page-check.ts';
import { adminMailGet } from '../../common/contracts/mail.ts';
import { adminShipBackGet } from '../../common/contracts/ship-back.ts';
import type { RefundService } from '../modules/refund/refund.service.ts';
import { adminReconciliationList } from '../../common/contracts/reconciliation.ts';
import { adminInvoiceList } from '../../common/contracts/invoice.ts';
import type { InvoiceService } from '../modules/invoice/invoice.service.ts';
import type { ReconciliationService } from '../modules/reconciliation/reconciliation.service.ts';
import { adminCatalogueProductEditor, adminCatalogueProductList } from '../../common/contracts/catalogue-admin.ts';
import type { CatalogueAdminService } from '../modules/catalogue-admin/catalogue-admin.service.ts';
import { adminSlotCalendar } from '../../common/contracts/interview-slot-admin.ts';
import type { SlotAdminService } from '../modules/catalogue-admin/slot-admin.service.ts';
import { adminCatalogueCountryEditor, adminCatalogueReviewList } from '../../common/contracts/catalogue-places.ts';
import type { MailService } from '../modules/mail/mail.service.ts';
import type { ShipBackService } from '../modules/ship-back/ship-back.service.ts';
import type { OperatorService } from '../modules/operator/operator.service.ts';
import type { ReviewModule } from '../modules/review/review.module.ts';
import type { OperatorWorkbench } from '../modules/order-view/workbench.ts';
import type { PageCheckService } from '../modules/page-check/page-check.service.ts';
import { AppError } from '../platform/errors.ts';
import { requireStaffAccess } from '../platform/operation.ts';
import type { StaffAccess } from '../../common/staff-access.ts';
import { parsePayload } from '../platform/payload.ts';
import type { Operator } from '../platform/principal.ts';

export interface OperatorReadServices {
  operator: OperatorService;
  review: ReviewModule;
  /** The workbench page's one read: the order with every panel (order-view). */
  workbench: OperatorWorkbench;
  pageCheck: PageCheckService;
  mail: MailService;
  shipBack: ShipBackService;
  refunds: RefundService;
  reconciliation: ReconciliationService;
  invoices: InvoiceService;
  catalogueAdmin: CatalogueAdminService;
  slotAdmin: SlotAdminService;
}

/**
 * The reads of one kind of call (common/staff-access.ts), for `caller`: each refuses a role its call
 * refuses (2003), as the call's session hook does; a read with a payload reads it first, as its call
 * reads it (a bad page parameter answers 1001).
 */
function readsOf(caller: Operator, access: StaffAccess) {
  const allowed = <T>(run: () => Promise<T>) =>
    read(() => {
      requireStaffAccess(caller.role, access);
      return run();
    });
  return {
    read: allowed,
    parsed<C extends Contract, T>(contract: C, payload: PayloadOf<C>, run: (parsed: ParsedPayloadOf<C>) => Promise<T>): Promise<ReadAnswer<T>> {
      // The call's own reading: the text rule (a search text from the page's URL, say), then the contract.
      const parsed = parsePayload(contract, payload);
      if (!parsed.success) return Promise.resolve({ ok: false, ret: parsed.error.ret, msg: parsed.error.message });
      return allowed(() => run(parsed.data as ParsedPayloadOf<C>));
    },
  };
}

async function read<T>(run: () => Promise<T>): Promise<ReadAnswer<T>> {
  try {
    return { ok: true, body: await run() };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, ret: error.ret, msg: error.message };
    throw error;
  }
}

export function operatorReads(services: OperatorReadServices, caller: Operator, me: OperatorInfo): OperatorReads {
  const supervisorOnly = readsOf(caller, 'supervisor');
  const orderWork = readsOf(caller, 'operator');
  const catalogue = readsOf(caller, 'catalogue');
  return {
    me,
    operatorList: () => supervisorOnly.read(async () => ({ list: await services.operator.list() })),
    orderQueue: (query) => orderWork.parsed(adminOrderQueue, query, (parsed) => services.review.queue.queue(caller, parsed)),
    queueFilters: () => orderWork.read(() => services.review.queue.filters()),
    queueView: () => orderWork.read(() => services.review.queue.view(caller)),
    orderWorkbench: (userOrderId) =>
      orderWork.parsed(adminOrderWorkbench, { user_order_id: userOrderId }, (parsed) => services.workbench.workbench(caller, parsed.user_order_id)),
    pageCheck: (userOrderId) =>
      orderWork.parsed(adminPageCheckDetail, { user_order_id: userOrderId }, (parsed) => services.pageCheck.operatorView(caller, parsed.user_order_id)),
    fileAccessLog: (query) => supervisorOnly.parsed(adminFileAccessLog, query, (parsed) => services.review.accessLog(parsed)),
    orderMail: (userOrderId) => orderWork.parsed(adminMailGet, { user_order_id: userOrderId }, (parsed) => services.mail.list(caller, parsed.user_order_id)),
    refundFailedCount: () => orderWork.read(() => services.refunds.failedCount()),
    orderShipBack: (userOrderId) =>
      orderWork.parsed(adminShipBackGet, { user_order_id: userOrderId }, (parsed) => services.shipBack.adminGet(caller, parsed.user_order_id)),
    reconciliation: (query) => orderWork.parsed(adminReconciliationList, query, (parsed) => services.reconciliation.list(caller, parsed)),
    invoices: (query) => orderWork.parsed(adminInvoiceList, query, (parsed) => services.invoices.adminList(caller, parsed)),
    catalogueProducts: (query) => catalogue.parsed(adminCatalogueProductList, query, (parsed) => services.catalogueAdmin.list(parsed)),
    catalogueEditor: (query) =>
      catalogue.parsed(adminCatalogueProductEditor, query, async (parsed) => {
        const editor = await services.catalogueAdmin.editor(parsed);
        const publications = editor.visa_product_id ? (await services.catalogueAdmin.publications(editor.visa_product_id)).list : [];
        return { ...editor, publications };
      }),
    catalogueSlots: (query) => catalogue.parsed(adminSlotCalendar, query, (parsed) => services.slotAdmin.calendar(parsed)),
    catalogueReviews: (query) => catalogue.parsed(adminCatalogueReviewList, query, (parsed) => services.catalogueAdmin.reviews.list(parsed)),
    catalogueCountries: () => catalogue.read(() => services.catalogueAdmin.places.list()),
    catalogueCountryEditor: (query) => catalogue.parsed(adminCatalogueCountryEditor, query, (parsed) => services.catalogueAdmin.places.editor(parsed)),
  };
}
