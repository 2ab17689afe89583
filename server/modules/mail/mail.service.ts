// Mailing paper materials (step awaiting_mail, issue 10). The customer reads
// the mail list (per applicant the checklist's paper materials, attr 1, and
// the service's receiving address for the order's consular district), then
// either books a courier pickup from an address of the enterprise's book or
// enters a self-arranged parcel; both are the lifecycle's mail_send, with the
// shipment stored inside that change (the courier module's two-step booking:
// bookPickup → storeShipment in `within` → cancelBooking when the change
// fails). The operator who opened the parcel marks it received (mail_receive
// → page_check) or items missing (mail_missing, with a note: the customer is
// asked to send again). Rules: docs/order-rules.md ("Mailing paper materials").
import type { Kysely } from 'kysely';
import { IDENTITIES } from '../../../common/constants.ts';
import type { MailList } from '../../../common/contracts/mail.ts';
import { MAIL_LIMITS } from '../../../common/contracts/mail.ts';
import type { CourierContact, ShipmentView } from '../../../common/courier.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { statusLabel, stepLabel } from '../../../common/order.ts';
import { normalizeInputText } from '../../../common/text.ts';
import { fromJson } from '../../db/json.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import type { Customer, Operator, Principal } from '../../platform/principal.ts';
import type { AddressService } from '../address/address.service.ts';
import type { CourierService, ShipmentDraft } from '../courier/courier.service.ts';
import { checkAllowed, createOrderLifecycle, type OrderRow, stateAllows } from '../order/lifecycle.ts';

export interface PickupInput {
  user_order_id: number;
  version: number;
  address_id: number;
  pickup_window: { start: number; end: number };
}

export interface SelfExpressInput {
  user_order_id: number;
  version: number;
  courier_company: string;
  courier_company_name?: string | null;
  waybill_no: string;
}

export interface MailDeps {
  now: () => number;
  courier: CourierService;
  address: Pick<AddressService, 'find'>;
}

/** The shipments that count: to the service, not called off. */
const live = (shipments: ShipmentView[]) => shipments.filter((s) => s.direction === 'to_service' && s.status !== 'cancelled');

export function createMailService(db: Kysely<Database>, deps: MailDeps) {
  const lifecycle = createOrderLifecycle(db, { now: deps.now });
  const { courier } = deps;

  /** Applicants with their paper materials (attr 1 of the order's checklist for their identity). */
  async function applicantsToMail(order: OrderRow): Promise<MailList['applicants']> {
    const [applicants, materials] = await Promise.all([
      db
        .selectFrom('order_applicant')
        .select(['applicant_id', 'name', 'identity_id'])
        .where('user_order_id', '=', order.user_order_id)
        .orderBy('sort')
        .orderBy('applicant_id')
        .execute(),
      db
        .selectFrom('order_checklist_item')
        .select(['material_id', 'identity_id', 'name', 'attention', 'required'])
        .where('user_order_id', '=', order.user_order_id)
        .where('attr', '=', 1)
        .orderBy('sort')
        .orderBy('material_id')
        .execute(),
    ]);
    return applicants
      .map((a) => ({
        applicant_id: a.applicant_id,
        name: a.name,
        identity_label: IDENTITIES[a.identity_id as keyof typeof IDENTITIES] ?? '',
        materials: materials
          .filter((m) => m.identity_id === a.identity_id)
          .map((m) => ({ material_id: m.material_id, name: m.name, attention: m.attention, required: m.required === 1 })),
      }))
      .filter((a) => a.materials.length > 0);
  }

  /** The latest mail_send and mail_missing events of the order (the missing note is in the latter). */
  async function lastEvents(userOrderId: number) {
    const rows = await db
      .selectFrom('order_event')
      .select(['event_id', 'event', 'detail', 'created_at'])
      .where('user_order_id', '=', userOrderId)
      .where('event', 'in', ['mail_send', 'mail_missing'])
      .orderBy('event_id', 'desc')
      .limit(1)
      .execute();
    const last = rows[0];
    if (!last || last.event !== 'mail_missing') return { missing: null };
    const detail = last.detail ? (fromJson(last.detail) as { note?: unknown }) : {};
    return { missing: { note: typeof detail.note === 'string' ? detail.note : '', created_at: last.created_at } };
  }

  async function listOf(order: OrderRow, viewer: 'customer' | 'operator'): Promise<MailList> {
    const [applicants, address, shipments, { missing }] = await Promise.all([
      applicantsToMail(order),
      courier.receivingAddress(order.consular_district_id),
      courier.orderShipments(order.user_order_id),
      lastEvents(order.user_order_id),
    ]);
    const at = deps.now();
    const sent = live(shipments);
    // Sent and not asked again: the parcel is on its way or waits to be checked.
    const outstanding = sent.length > 0 && missing === null;
    return {
      order: {
        user_order_id: order.user_order_id,
        product_title: order.product_title,
        status: order.status,
        status_label: statusLabel(order.status),
        step: order.step,
        step_label: order.step ? stepLabel(order.step) : null,
        version: order.version,
      },
      applicants,
      receiving_address: address,
      shipments: shipments.filter((s) => s.direction === 'to_service'),
      missing,
      can_send: stateAllows('mail_send', order, at) && !outstanding && applicants.length > 0 && address !== null,
      can_check: viewer === 'operator' && stateAllows('mail_receive', order, at) && sent.length > 0,
    };
  }

  /** The checks both ways of sending share, before anything is booked. Returns what the shipment needs. */
  async function beforeSend(customer: Customer, userOrderId: number, version: number) {
    const order = await lifecycle.current(customer, userOrderId);
    checkAllowed('mail_send', order, customer, deps.now());
    if (order.version !== version) throw new AppError(ErrorCode.MAIL_ORDER_STALE);
    const list = await listOf(order, 'customer');
    if (list.applicants.length === 0) throw new AppError(ErrorCode.MAIL_NOTHING_TO_MAIL);
    if (!list.receiving_address) throw new AppError(ErrorCode.COURIER_NO_RECEIVING_ADDRESS);
    if (!list.can_send) throw new AppError(ErrorCode.MAIL_ALREADY_SENT);
    const { receiving_address_id: _id, consular_district_id: _district, note: _note, ...receiver } = list.receiving_address;
    return { order, receiver: receiver as CourierContact, applicantIds: list.applicants.map((a) => a.applicant_id) };
  }

  /** Stores the draft in the mail_send change (version-guarded); a booked pickup is called off when that fails. */
  async function send(customer: Customer, userOrderId: number, version: number, draft: ShipmentDraft) {
    let shipmentId = 0;
    try {
      const state = await lifecycle.change(customer, userOrderId, (order, at) => {
        checkAllowed('mail_send', order, customer, at);
        if (order.version !== version) throw new AppError(ErrorCode.MAIL_ORDER_STALE);
        return {
          event: 'mail_send',
          detail: () => ({
            shipment_id: shipmentId,
            arrangement: draft.arrangement,
            courier_company_name: draft.courier_company_name,
            waybill_no: draft.waybill_no,
          }),
          within: async (trx) => {
            shipmentId = await courier.storeShipment(trx, draft);
          },
        };
      });
      return { version: state.version, shipment: await courier.shipment(shipmentId) };
    } catch (error) {
      await courier.cancelBooking(draft);
      throw error;
    }
  }

  /** The operator's checks: in the step, assignee or supervisor, the version seen, a parcel sent. */
  async function beforeCheck(operator: Operator, order: OrderRow, version: number, event: 'mail_receive' | 'mail_missing', at: number) {
    checkAllowed(event, order, operator, at);
    if (operator.role !== 'supervisor' && order.assignee_operator_id !== operator.operatorId) throw new AppError(ErrorCode.REVIEW_NOT_ASSIGNEE);
    if (order.version !== version) throw new AppError(ErrorCode.MAIL_ORDER_STALE);
    const sent = live(await courier.orderShipments(order.user_order_id));
    if (sent.length === 0) throw new AppError(ErrorCode.MAIL_NOT_SENT);
    return sent;
  }

  /** The parcels in hand are delivered (a person saw them); idempotent, after the change committed. */
  async function confirmAll(shipments: ShipmentView[], by: Principal) {
    for (const shipment of shipments) if (shipment.status !== 'delivered') await courier.confirmDelivered(shipment.shipment_id, by);
  }

  return {
    async list(caller: Customer | Operator, userOrderId: number): Promise<MailList> {
      const order = await lifecycle.current(caller, userOrderId);
      return listOf(order, caller.kind === 'operator' ? 'operator' : 'customer');
    },

    /** The order's parcels, each tracked one asked about at the provider first (the page's 刷新). */
    async tracking(caller: Customer, userOrderId: number): Promise<{ shipments: ShipmentView[] }> {
      await lifecycle.current(caller, userOrderId);
      const shipments = (await courier.orderShipments(userOrderId)).filter((s) => s.direction === 'to_service');
      const fresh = [];
      for (const shipment of shipments) {
        const tracked = shipment.arrangement === 'pickup' && shipment.status !== 'delivered' && shipment.status !== 'cancelled';
        fresh.push(tracked ? await courier.refreshShipment(shipment.shipment_id) : shipment);
      }
      return { shipments: fresh };
    },

    async pickup(customer: Customer, input: PickupInput) {
      const { receiver, applicantIds } = await beforeSend(customer, input.user_order_id, input.version);
      const address = await deps.address.find(customer, input.address_id);
      if (!address) throw new AppError(ErrorCode.MAIL_ADDRESS_NOT_FOUND);
      const sender: CourierContact = {
        name: address.name,
        mobile_phone: address.mobile_phone,
        company_name: address.company_name,
        province_code: address.province_code,
        city_code: address.city_code,
        county_code: address.county_code,
        // The courier module puts the region's names in from the address library.
        province_name: '',
        city_name: '',
        county_name: '',
        detail: address.detail,
      };
      const draft = await courier.bookPickup({
        user_order_id: input.user_order_id,
        direction: 'to_service',
        applicant_ids: applicantIds,
        receiver,
        sender,
        pickup_window: input.pickup_window,
        by: customer,
      });
      return send(customer, input.user_order_id, input.version, draft);
    },

    async selfExpress(customer: Customer, input: SelfExpressInput) {
      const { receiver, applicantIds } = await beforeSend(customer, input.user_order_id, input.version);
      const draft = courier.selfExpress({
        user_order_id: input.user_order_id,
        direction: 'to_service',
        applicant_ids: applicantIds,
        receiver,
        courier_company: input.courier_company,
        courier_company_name: input.courier_company_name ?? null,
        waybill_no: input.waybill_no,
        by: customer,
      });
      return send(customer, input.user_order_id, input.version, draft);
    },

    /** Everything arrived: the parcels are delivered, the order moves to page_check. */
    async receive(operator: Operator, input: { user_order_id: number; version: number }) {
      let sent: ShipmentView[] = [];
      const state = await lifecycle.change(operator, input.user_order_id, async (order, at) => {
        sent = await beforeCheck(operator, order, input.version, 'mail_receive', at);
        return { event: 'mail_receive', detail: { shipment_ids: sent.map((s) => s.shipment_id) } };
      });
      await confirmAll(sent, operator);
      return { version: state.version, step: state.step };
    },

    /** Items missing: recorded with the note; the customer is told and may send again. */
    async missing(operator: Operator, input: { user_order_id: number; version: number; note: string }) {
      const note = normalizeInputText(input.note);
      if (note === '' || [...note].length > MAIL_LIMITS.noteMaxLength) throw new AppError(ErrorCode.MAIL_NOTE_REQUIRED);
      let sent: ShipmentView[] = [];
      const state = await lifecycle.change(operator, input.user_order_id, async (order, at) => {
        sent = await beforeCheck(operator, order, input.version, 'mail_missing', at);
        return { event: 'mail_missing', detail: { note, shipment_ids: sent.map((s) => s.shipment_id) } };
      });
      await confirmAll(sent, operator);
      return { version: state.version, step: state.step };
    },
  };
}

export type MailService = ReturnType<typeof createMailService>;
