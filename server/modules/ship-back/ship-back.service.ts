// Sending the passports home and finishing the order (issue 11). Once every
// applicant has a result (order_applicant.status not 'pending'), the
// operator either ships the passports back — a courier pickup booked from the
// service's office (the consular district's receiving address) to the
// order's return address snapshot (a return or a peer address, kept at
// confirm), stored inside the lifecycle's ship_back change (the courier
// module's two-step booking: bookPickup → storeShipment in `within` →
// cancelBooking when the change fails) — or, when nothing physical is held
// (no parcel of paper materials came in: e-visa products and products
// without mailed materials), fires `complete`. When the courier reports the
// return parcel delivered (a push, the query fallback or the customer's
// 刷新物流), the system fires return_delivered. Both end in `completed`, or in
// `refunded` when every applicant was refused and the order has 拒签退全款.
// Rules: docs/order-rules.md ("Ship back, completion and retention").
import type { Kysely } from 'kysely';
import { ADDRESS_KINDS } from '../../../common/address.ts';
import { type AdminShipBack, RETURN_NOTE_LIMITS, type ReturnParcel, type ReturnRecordOutcome } from '../../../common/contracts/ship-back.ts';
import { normalizeInputText } from '../../../common/text.ts';
import type { CourierContact, PickupWindow, ShipmentView } from '../../../common/courier.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { APPLICANT_STATUSES, type ApplicantStatus, type OrderStatus, statusLabel, stepLabel } from '../../../common/order.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import { type Customer, type Operator, type Principal, SYSTEM } from '../../platform/principal.ts';
import type { ShipmentStatusEvent } from '../courier/announcer.ts';
import { returnedByHand } from '../courier/attention.ts';
import type { CourierService, ShipmentDraft } from '../courier/courier.service.ts';
import { checkAllowed, createOrderLifecycle, type OrderRow, stateAllows } from '../order/lifecycle.ts';

/** The catalogue's tag of e-visa products (server/db/seed/catalogue: handling 'evisa'). */
export const EVISA_TAG = '电子签';

export interface ShipBackDeps {
  now: () => number;
  courier: CourierService;
}

/** Where the order ends: refunded when every applicant was refused and the product refunds a refusal. */
export function outcomeOf(order: { reject_refund: number | boolean }, statuses: readonly ApplicantStatus[]): 'completed' | 'refunded' {
  const allRejected = statuses.length > 0 && statuses.every((status) => status === 'rejected');
  return allRejected && Number(order.reject_refund) === 1 ? 'refunded' : 'completed';
}

const inbound = (shipments: ShipmentView[]) => shipments.filter((s) => s.direction === 'to_service' && s.status !== 'cancelled');
const outbound = (shipments: ShipmentView[]) => shipments.filter((s) => s.direction === 'to_customer');
// A parcel an operator recorded as come back is over: the passports are with us again.
const liveOutbound = (shipments: ShipmentView[]) => outbound(shipments).filter((s) => s.status !== 'cancelled' && !returnedByHand(s));

function returnContact(order: OrderRow): CourierContact | null {
  const address = order.return_address;
  if (!address) return null;
  return {
    name: address.name,
    mobile_phone: address.mobile_phone,
    company_name: address.company_name,
    province_code: address.province_code,
    city_code: address.city_code,
    county_code: address.county_code,
    province_name: address.province_name,
    city_name: address.city_name,
    county_name: address.county_name,
    detail: address.detail,
  };
}

function returnTo(order: OrderRow): ReturnParcel['return_address'] {
  const address = order.return_address;
  if (!address) return null;
  return {
    kind: address.kind,
    kind_label: ADDRESS_KINDS[address.kind],
    name: address.name,
    mobile_phone: address.mobile_phone,
    company_name: address.company_name,
    province_name: address.province_name,
    city_name: address.city_name,
    county_name: address.county_name,
    detail: address.detail,
  };
}

function head(order: OrderRow): ReturnParcel['order'] {
  return {
    user_order_id: order.user_order_id,
    product_title: order.product_title,
    status: order.status,
    status_label: statusLabel(order.status),
    step: order.step,
    step_label: order.step ? stepLabel(order.step) : null,
    version: order.version,
  };
}

export function createShipBackService(db: Kysely<Database>, deps: ShipBackDeps) {
  const lifecycle = createOrderLifecycle(db, { now: deps.now });
  const { courier } = deps;

  const applicantsOf = (userOrderId: number) =>
    db
      .selectFrom('order_applicant')
      .select(['applicant_id', 'name', 'status'])
      .where('user_order_id', '=', userOrderId)
      .orderBy('sort')
      .orderBy('applicant_id')
      .execute();

  async function isEvisa(visaProductId: number): Promise<boolean> {
    const row = await db
      .selectFrom('visa_product_tag')
      .innerJoin('visa_tag', 'visa_tag.tag_id', 'visa_product_tag.tag_id')
      .select('visa_product_tag.tag_id')
      .where('visa_product_tag.visa_product_id', '=', visaProductId)
      .where('visa_tag.name', '=', EVISA_TAG)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Everything the operator's checks and panel read, in one place. */
  async function facts(order: OrderRow) {
    const [applicants, shipments, evisa] = await Promise.all([
      applicantsOf(order.user_order_id),
      courier.orderShipments(order.user_order_id),
      isEvisa(order.visa_product_id),
    ]);
    const came = inbound(shipments);
    return {
      applicants,
      shipments,
      evisa,
      resultsDone: applicants.length > 0 && applicants.every((a) => a.status !== 'pending'),
      // What we hold is what came in: the parcels of paper materials (passports among them).
      holdsPassports: came.length > 0,
      passportApplicantIds: [...new Set(came.flatMap((s) => s.applicant_ids))],
      outcome: outcomeOf(
        order,
        applicants.map((a) => a.status),
      ),
    };
  }

  /** The operator's checks shared by ship_back and complete (state, assignee, version, results). */
  function checkOperator(event: 'ship_back' | 'complete', order: OrderRow, operator: Operator, version: number, resultsDone: boolean, at: number) {
    checkAllowed(event, order, operator, at);
    if (operator.role !== 'supervisor' && order.assignee_operator_id !== operator.operatorId) throw new AppError(ErrorCode.REVIEW_NOT_ASSIGNEE);
    if (order.version !== version) throw new AppError(ErrorCode.SHIP_BACK_ORDER_STALE);
    if (!resultsDone) throw new AppError(ErrorCode.SHIP_BACK_RESULTS_PENDING);
  }

  async function adminView(order: OrderRow): Promise<AdminShipBack> {
    const f = await facts(order);
    const sender = await courier.receivingAddress(order.consular_district_id);
    const at = deps.now();
    const mayShipBack = stateAllows('ship_back', order, at);
    const mayComplete = stateAllows('complete', order, at);
    const address = returnTo(order);
    let blocked: string | null = null;
    if (mayShipBack || mayComplete) {
      if (!f.resultsDone) blocked = '仍有申请人没有签证结果';
      else if (f.holdsPassports && !address) blocked = '订单没有回寄地址，请联系客户';
      else if (f.holdsPassports && !sender) blocked = '没有配置寄件地址（收件地址），请联系管理员';
    }
    return {
      order: head(order),
      return_address: address,
      shipments: outbound(f.shipments),
      applicants: f.applicants.map((a) => ({ applicant_id: a.applicant_id, name: a.name, status: a.status, status_label: APPLICANT_STATUSES[a.status] })),
      results_done: f.resultsDone,
      holds_passports: f.holdsPassports,
      evisa: f.evisa,
      sender,
      can_ship_back: mayShipBack && f.resultsDone && f.holdsPassports && address !== null && sender !== null,
      can_complete: mayComplete && f.resultsDone && !f.holdsPassports,
      blocked_reason: blocked,
      outcome: f.outcome,
      // Only while the order waits for its return parcel: what to look after (物流异常).
      attention: stateAllows('return_confirm', order, at)
        ? liveOutbound(f.shipments).flatMap((shipment) => {
            const attention = courier.attention(shipment);
            return attention ? [{ shipment_id: shipment.shipment_id, waybill_no: shipment.waybill_no, ...attention }] : [];
          })
        : [],
    };
  }

  /** Asks the provider about the order's return parcels still on their way (刷新物流); a delivery it learns of finishes the order. */
  async function refreshReturn(userOrderId: number) {
    for (const shipment of liveOutbound(await courier.orderShipments(userOrderId))) {
      if (shipment.arrangement === 'pickup' && shipment.status !== 'delivered') await courier.refreshShipment(shipment.shipment_id);
    }
  }

  /**
   * The return parcel reached a status (the courier module's announcement,
   * after its commit; at least once). Delivered: the order, still returning,
   * finishes — completed or refunded. Anything else, or an order that moved
   * on already: nothing (idempotent).
   */
  async function onShipmentStatus(event: ShipmentStatusEvent): Promise<void> {
    if (event.direction !== 'to_customer' || event.to !== 'delivered') return;
    await lifecycle.change(SYSTEM, event.user_order_id, async (order, at) => {
      if (!stateAllows('return_delivered', order, at)) return null;
      const live = liveOutbound(await courier.orderShipments(order.user_order_id));
      if (live.length === 0 || live.some((s) => s.status !== 'delivered')) return null;
      const statuses = (await applicantsOf(order.user_order_id)).map((a) => a.status);
      return {
        event: 'return_delivered',
        to: outcomeOf(order, statuses),
        detail: { shipment_id: event.shipment_id, waybill_no: event.waybill_no, delivered_at: event.status_at },
      };
    });
  }

  return {
    onShipmentStatus,

    /** The customer's return parcel(s) with their tracking. */
    async returnParcel(caller: Customer | Principal, userOrderId: number): Promise<ReturnParcel> {
      const order = await lifecycle.current(caller, userOrderId);
      return { order: head(order), return_address: returnTo(order), shipments: outbound(await courier.orderShipments(userOrderId)) };
    },

    /** 刷新物流 (customer): asks the provider first, then answers as returnParcel (the order may have finished meanwhile). */
    async returnTracking(caller: Customer, userOrderId: number): Promise<ReturnParcel> {
      await lifecycle.current(caller, userOrderId);
      await refreshReturn(userOrderId);
      const order = await lifecycle.current(caller, userOrderId);
      return { order: head(order), return_address: returnTo(order), shipments: outbound(await courier.orderShipments(userOrderId)) };
    },

    /** The workbench's ship-back panel. */
    async adminGet(operator: Operator, userOrderId: number): Promise<AdminShipBack> {
      return adminView(await lifecycle.current(operator, userOrderId));
    },

    /** The panel's 刷新物流. */
    async adminTracking(operator: Operator, userOrderId: number): Promise<AdminShipBack> {
      await lifecycle.current(operator, userOrderId);
      await refreshReturn(userOrderId);
      return adminView(await lifecycle.current(operator, userOrderId));
    },

    /** 寄回护照: books the pickup at the service's office, then records it in ship_back (→ returning). */
    async shipBack(operator: Operator, input: { user_order_id: number; version: number; pickup_window: PickupWindow }) {
      const order = await lifecycle.current(operator, input.user_order_id);
      const f = await facts(order);
      checkOperator('ship_back', order, operator, input.version, f.resultsDone, deps.now());
      if (!f.holdsPassports) throw new AppError(ErrorCode.SHIP_BACK_NOTHING_TO_RETURN);
      const receiver = returnContact(order);
      if (!receiver) throw new AppError(ErrorCode.SHIP_BACK_NO_RETURN_ADDRESS);
      const office = await courier.receivingAddress(order.consular_district_id);
      if (!office) throw new AppError(ErrorCode.COURIER_NO_RECEIVING_ADDRESS);
      const { receiving_address_id: _id, consular_district_id: _district, note: _note, ...sender } = office;
      const applicantIds = f.passportApplicantIds.length > 0 ? f.passportApplicantIds : f.applicants.map((a) => a.applicant_id);
      const draft: ShipmentDraft = await courier.bookPickup({
        user_order_id: order.user_order_id,
        direction: 'to_customer',
        applicant_ids: applicantIds,
        receiver,
        sender,
        pickup_window: input.pickup_window,
        by: operator,
      });
      let shipmentId = 0;
      try {
        const state = await lifecycle.change(operator, input.user_order_id, async (current, at) => {
          const again = await facts(current);
          checkOperator('ship_back', current, operator, input.version, again.resultsDone, at);
          if (!again.holdsPassports) throw new AppError(ErrorCode.SHIP_BACK_NOTHING_TO_RETURN);
          return {
            event: 'ship_back',
            detail: () => ({
              shipment_id: shipmentId,
              courier_company_name: draft.courier_company_name,
              waybill_no: draft.waybill_no,
              address_kind: current.return_address?.kind ?? null,
            }),
            within: async (trx) => {
              shipmentId = await courier.storeShipment(trx, draft);
            },
          };
        });
        return { version: state.version, step: state.step, shipment: await courier.shipment(shipmentId) };
      } catch (error) {
        await courier.cancelBooking(draft);
        throw error;
      }
    },

    /**
     * 物流异常: the operator records what became of a return parcel the
     * courier stopped reporting on (or reported failing), with a note —
     * delivered (return_confirm: completed, or refunded as return_delivered)
     * or come back to the service (return_back: submitted again, the
     * passports can be shipped anew). The parcel's event is stored in the
     * same lifecycle change (courier.recordByHand), then announced.
     */
    async recordReturn(operator: Operator, input: { user_order_id: number; version: number; shipment_id: number; outcome: ReturnRecordOutcome; note: string }) {
      const note = normalizeInputText(String(input.note ?? ''));
      if ([...note].length < RETURN_NOTE_LIMITS.min || [...note].length > RETURN_NOTE_LIMITS.max) {
        throw new AppError(ErrorCode.INVALID_PARAMS, `请填写说明（${RETURN_NOTE_LIMITS.min}–${RETURN_NOTE_LIMITS.max} 个字）`);
      }
      const event = input.outcome === 'delivered' ? 'return_confirm' : 'return_back';
      const state = await lifecycle.change(operator, input.user_order_id, async (order, at) => {
        checkAllowed(event, order, operator, at);
        if (operator.role !== 'supervisor' && order.assignee_operator_id !== operator.operatorId) throw new AppError(ErrorCode.REVIEW_NOT_ASSIGNEE);
        if (order.version !== input.version) throw new AppError(ErrorCode.SHIP_BACK_ORDER_STALE);
        const shipments = await courier.orderShipments(order.user_order_id);
        const parcel = liveOutbound(shipments).find((s) => s.shipment_id === input.shipment_id);
        if (!parcel || parcel.status === 'delivered') throw new AppError(ErrorCode.COURIER_SHIPMENT_NOT_FOUND, '没有这个未签收的寄回快递');
        const statuses = (await applicantsOf(order.user_order_id)).map((a) => a.status);
        return {
          event,
          ...(event === 'return_confirm' ? { to: outcomeOf(order, statuses) } : {}),
          detail: { shipment_id: parcel.shipment_id, waybill_no: parcel.waybill_no, outcome: input.outcome, memo: note },
          within: async (trx) => {
            await courier.recordByHand(trx, parcel.shipment_id, input.outcome, note, at);
          },
        };
      });
      // The parcel's new status, told after the commit (the order has moved on: the handlers change nothing).
      await courier.announce(input.shipment_id);
      return { version: state.version, status: state.status as OrderStatus, status_label: statusLabel(state.status), step: state.step };
    },

    /** 办理完成: nothing to send back (no passports held) and every result in → completed or refunded. */
    async complete(operator: Operator, input: { user_order_id: number; version: number }) {
      const state = await lifecycle.change(operator, input.user_order_id, async (order, at) => {
        const f = await facts(order);
        checkOperator('complete', order, operator, input.version, f.resultsDone, at);
        if (f.holdsPassports) throw new AppError(ErrorCode.SHIP_BACK_PASSPORTS_HELD);
        return { event: 'complete', to: f.outcome, detail: { evisa: f.evisa, outcome: f.outcome } };
      });
      return { version: state.version, status: state.status as OrderStatus, status_label: statusLabel(state.status) };
    },
  };
}

export type ShipBackService = ReturnType<typeof createShipBackService>;
