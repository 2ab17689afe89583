// The login-only pages' reads (common/web-context.ts CustomerReads): the
// signed calls' own steps, in process, for the customer of the page
// request's `token` cookie — the payload parsed by the call's contract, then
// the same service method its operation calls, answering its contract's
// result. A refusal (AppError, or a payload the text rule or the contract refuses: 1001)
// becomes the answer the call would give; anything else rejects, and the
// page shows "failed".
import type { Contract, ParsedPayloadOf, PayloadOf, ResultOf } from '../../common/contracts/define.ts';
import { addressList } from '../../common/contracts/address.ts';
import { insurancePlanList } from '../../common/contracts/insurance.ts';
import { interviewSlotList } from '../../common/contracts/interview.ts';
import { interviewNoticeDetail } from '../../common/contracts/interview-notice.ts';
import { mailList } from '../../common/contracts/mail.ts';
import { materialList } from '../../common/contracts/material.ts';
import { noticeList, noticeUnreadCount } from '../../common/contracts/notice.ts';
import { orderDetailGet, orderList } from '../../common/contracts/order.ts';
import { pageCheckDetail } from '../../common/contracts/page-check.ts';
import { returnParcel } from '../../common/contracts/ship-back.ts';
import { teamMemberList } from '../../common/contracts/team.ts';
import { invoiceList } from '../../common/contracts/invoice.ts';
import { orderGroupList } from '../../common/contracts/report.ts';
import type { InvoiceService } from '../modules/invoice/invoice.service.ts';
import type { ReportService } from '../modules/order-report/report.module.ts';
import { travellerList, travellerOffers } from '../../common/contracts/traveller.ts';
import type { CustomerReads, ReadAnswer } from '../../common/web-context.ts';
import type { TeamService } from '../modules/account/team.service.ts';
import type { AddressService } from '../modules/address/address.service.ts';
import type { InsuranceService } from '../modules/insurance/insurance.service.ts';
import type { InterviewService } from '../modules/interview/interview.service.ts';
import type { InterviewNoticeService } from '../modules/interview/interview-notice.service.ts';
import type { MailService } from '../modules/mail/mail.service.ts';
import type { MaterialService } from '../modules/material/material.service.ts';
import type { NoticeService } from '../modules/notification/notice.service.ts';
import type { OrderService } from '../modules/order/order.service.ts';
import type { CustomerOrderView } from '../modules/order-view/customer-view.ts';
import type { PageCheckService } from '../modules/page-check/page-check.service.ts';
import type { ShipBackService } from '../modules/ship-back/ship-back.service.ts';
import type { TravellerService } from '../modules/traveller/traveller.service.ts';
import { AppError } from '../platform/errors.ts';
import { parsePayload } from '../platform/payload.ts';
import type { Customer } from '../platform/principal.ts';

export interface ReadServices {
  order: OrderService & CustomerOrderView;
  material: MaterialService;
  interview: InterviewService;
  insurance: InsuranceService;
  address: AddressService;
  notice: NoticeService;
  pageCheck: PageCheckService;
  interviewNotice: InterviewNoticeService;
  mail: MailService;
  shipBack: ShipBackService;
  team: TeamService;
  invoices: InvoiceService;
  reports: ReportService;
  traveller: TravellerService;
}

async function read<C extends Contract>(
  contract: C,
  payload: PayloadOf<C>,
  run: (parsed: ParsedPayloadOf<C>) => Promise<ResultOf<C>>,
): Promise<ReadAnswer<ResultOf<C>>> {
  // The call's own reading: the text rule, then the contract (1001 either way).
  const parsed = parsePayload(contract, payload);
  if (!parsed.success) return { ok: false, ret: parsed.error.ret, msg: parsed.error.message };
  try {
    return { ok: true, body: await run(parsed.data as ParsedPayloadOf<C>) };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, ret: error.ret, msg: error.message };
    throw error;
  }
}

export function customerReads(services: ReadServices, caller: Customer): CustomerReads {
  return {
    orderList: (tab, page, scope = 'all') => read(orderList, { tab, page, scope }, (p) => services.order.list(caller, p.tab, p.page, p.scope)),
    orderDetail: (id) => read(orderDetailGet, { user_order_id: id }, (p) => services.order.detail(caller, p.user_order_id)),
    materialList: (id) => read(materialList, { user_order_id: id }, (p) => services.material.list(caller, p.user_order_id)),
    interviewSlots: (id) => read(interviewSlotList, { user_order_id: id }, (p) => services.interview.list(caller, p.user_order_id)),
    interviewNotice: (id) => read(interviewNoticeDetail, { user_order_id: id }, (p) => services.interviewNotice.detail(caller, p.user_order_id)),
    insurancePlans: (id, trip = {}) =>
      read(insurancePlanList, { user_order_id: id, ...trip }, ({ user_order_id, ...asked }) => services.insurance.planList(caller, user_order_id, asked)),
    addresses: (kind) => read(addressList, { kind }, async (p) => ({ list: await services.address.list(caller, p.kind) })),
    notices: (page) => read(noticeList, { page }, (p) => services.notice.list(caller, p.page)),
    pageCheck: (id) => read(pageCheckDetail, { user_order_id: id }, (p) => services.pageCheck.customerView(caller, p.user_order_id)),
    unreadNotices: () => read(noticeUnreadCount, {}, async () => ({ unread_count: await services.notice.unreadCount(caller) })),
    mailList: (id) => read(mailList, { user_order_id: id }, (p) => services.mail.list(caller, p.user_order_id)),
    returnParcel: (id) => read(returnParcel, { user_order_id: id }, (p) => services.shipBack.returnParcel(caller, p.user_order_id)),
    teamMembers: () => read(teamMemberList, {}, () => services.team.list(caller)),
    orderGroups: () => read(orderGroupList, {}, () => services.reports.groups(caller)),
    invoices: (page) => read(invoiceList, { page }, (p) => services.invoices.list(caller, p.page)),
    travellers: () => read(travellerList, {}, async () => ({ list: await services.traveller.list(caller) })),
    travellerOffers: (id) => read(travellerOffers, { user_order_id: id }, (p) => services.traveller.offers(caller, p.user_order_id)),
  };
}
