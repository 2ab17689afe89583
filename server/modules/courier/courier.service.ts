// Couriers for the order side (issues 10 and 11 wire this into the order
// lifecycle): book a pickup with the provider or take a self-arranged
// parcel's company and waybill number, store the shipment inside the caller's
// lifecycle transaction, read an order's shipments with their tracking
// events, confirm a delivery by hand, call a pickup off, and be told when a
// shipment reaches a status. Also the provider's route push, and the sweeps
// that ask the provider about parcels gone quiet and re-tell statuses whose
// announcement was cut short. Rules: docs/order-rules.md, "Couriers".
//
// None of these functions checks who is asking: the order side reads the
// order with lifecycle.current(caller, id) (ownership, 1801) before it passes
// an order id here.
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import {
  COURIER_COMPANIES,
  COURIER_LIMITS,
  type CourierContact,
  DEFAULT_PARCEL,
  type PickupWindow,
  type ReceivingAddress,
  SHIPMENT_ARRANGEMENTS,
  SHIPMENT_DIRECTIONS,
  type ShipmentDirection,
  type ShipmentView,
  contactProblem,
  courierContactSchema,
  isCourierCompany,
  normalizeWaybillNo,
  pickupWindowProblem,
  shipmentStatusLabel,
  waybillProblem,
} from '../../../common/courier.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { ORDER_LIMITS } from '../../../common/contracts/rules.ts';
import { normalizeInputText } from '../../../common/text.ts';
import { fromJson, toJson } from '../../db/json.ts';
import type { Database, RouteSource } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import { type Principal, actorOf } from '../../platform/principal.ts';
import { resolveRegion } from '../address/address-region.ts';
import { createAnnouncer, type ShipmentStatusHandler } from './announcer.ts';
import { createCourierRepository, type ShipmentRow } from './courier.repository.ts';
import type { CourierProvider, CourierRoute, HeaderBag, PushAnswer } from './provider.ts';
import { type Attention, attentionOf, RETURNED_BY_HAND } from './attention.ts';
import { type NewRoute, type RecordResult, ShipmentMissing, recordRoutes, recordRoutesIn } from './tracking.ts';

export interface CourierServiceDeps {
  provider: CourierProvider;
  now: () => number;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** COURIER_QUERY_AFTER_MS: a tracked parcel without news this long is asked about. */
  queryAfterMs: number;
  /** COURIER_ATTENTION_DAYS in ms: a parcel not delivered this long after it was booked or sent needs a person (物流异常). */
  attentionAfterMs?: number;
}

/** Parcels are tracked this long at most (a lost parcel is a case for customer service, not a sweep). */
export const TRACK_FOR_MS = 60 * 24 * 3_600_000;

/** COURIER_ATTENTION_DAYS' default, in ms. */
export const DEFAULT_ATTENTION_AFTER_MS = 5 * 86_400_000;

interface ShipmentRequest {
  user_order_id: number;
  direction: ShipmentDirection;
  /** The applicants whose materials or passports are in the parcel: at least one, all of this order. */
  applicant_ids: readonly number[];
  receiver: CourierContact;
  /** What the parcel holds; DEFAULT_PARCEL[direction] when absent. */
  parcel?: string | null;
  /** Who arranges it (recorded on the shipment). */
  by: Principal;
}

export interface PickupRequest extends ShipmentRequest {
  /** Where the courier comes (from the address book, or the service's office for passports going home). */
  sender: CourierContact;
  pickup_window: PickupWindow;
}

export interface SelfExpressRequest extends ShipmentRequest {
  /** A key of COURIER_COMPANIES; OTHER needs courier_company_name. */
  courier_company: string;
  courier_company_name?: string | null;
  waybill_no: string;
  sender?: CourierContact | null;
}

/**
 * A checked shipment that is not stored yet: a pickup already booked with
 * the provider (it has its waybill), or a self-arranged parcel. Store it with
 * storeShipment inside the lifecycle change that records it.
 */
export interface ShipmentDraft {
  shipment_no: string;
  user_order_id: number;
  direction: ShipmentDirection;
  arrangement: 'pickup' | 'self';
  provider: string | null;
  courier_company: keyof typeof COURIER_COMPANIES;
  courier_company_name: string;
  waybill_no: string;
  sender: CourierContact | null;
  receiver: CourierContact;
  parcel: string;
  pickup_window: PickupWindow | null;
  applicant_ids: number[];
  by: Principal;
  created_at: number;
}

/** YQS + China date-time + 8 hex: 25 characters (SF takes order ids up to 64). */
function newShipmentNo(at: number): string {
  const stamp = new Date(at + 8 * 3_600_000).toISOString().replace(/\D/g, '').slice(0, 14);
  return `YQS${stamp}${randomBytes(4).toString('hex').toUpperCase()}`;
}

/** A sender or receiver by the address book's rules, with the region's names from the library. */
function checkedContact(value: unknown, role: '寄件人' | '收件人'): CourierContact {
  const parsed = courierContactSchema.safeParse(value);
  if (!parsed.success) throw new AppError(ErrorCode.COURIER_CONTACT_INVALID, `${role}信息不完整`);
  const contact = parsed.data;
  const problem = contactProblem(contact);
  if (problem) throw new AppError(ErrorCode.COURIER_CONTACT_INVALID, `${role}：${problem}`);
  const region = resolveRegion(contact.province_code, contact.city_code, contact.county_code);
  if (!region) throw new AppError(ErrorCode.COURIER_CONTACT_INVALID, `${role}：请选择正确的省/市/区`);
  const company = normalizeInputText(contact.company_name ?? '');
  if ([...company].length > 50) throw new AppError(ErrorCode.COURIER_CONTACT_INVALID, `${role}：公司名称不能超过 50 个字`);
  return {
    ...region,
    name: normalizeInputText(contact.name),
    mobile_phone: normalizeInputText(contact.mobile_phone).replace(/[\s-]/g, ''),
    company_name: company === '' ? null : company,
    detail: normalizeInputText(contact.detail),
  };
}

function checkedApplicants(ids: readonly number[]): number[] {
  const unique = [...new Set(ids)];
  if (unique.length === 0 || unique.length > ORDER_LIMITS.maxApplicants || !unique.every((id) => Number.isSafeInteger(id) && id > 0)) {
    throw new AppError(ErrorCode.COURIER_APPLICANTS_INVALID);
  }
  return unique.sort((a, b) => a - b);
}

function checkedParcel(parcel: string | null | undefined, direction: ShipmentDirection): string {
  const text = normalizeInputText(parcel ?? '') || DEFAULT_PARCEL[direction];
  if ([...text].length > COURIER_LIMITS.parcelMaxLength)
    throw new AppError(ErrorCode.INVALID_PARAMS, `寄件物品不能超过 ${COURIER_LIMITS.parcelMaxLength} 个字`);
  return text;
}

function checkedCommon(request: ShipmentRequest) {
  if (!Number.isSafeInteger(request.user_order_id) || request.user_order_id <= 0) throw new AppError(ErrorCode.ORDER_NOT_FOUND);
  if (!Object.hasOwn(SHIPMENT_DIRECTIONS, request.direction)) throw new AppError(ErrorCode.INVALID_PARAMS, '快递方向有误');
  return {
    user_order_id: request.user_order_id,
    direction: request.direction,
    applicant_ids: checkedApplicants(request.applicant_ids),
    receiver: checkedContact(request.receiver, '收件人'),
    parcel: checkedParcel(request.parcel, request.direction),
    by: request.by,
  };
}

export function createCourierService(db: Kysely<Database>, deps: CourierServiceDeps) {
  const repo = createCourierRepository(db);
  const { provider, now, log, queryAfterMs } = deps;
  const attentionAfterMs = deps.attentionAfterMs ?? DEFAULT_ATTENTION_AFTER_MS;
  const announcer = createAnnouncer(repo, { now, log });

  async function views(rows: ShipmentRow[]): Promise<ShipmentView[]> {
    const ids = rows.map((row) => row.shipment_id);
    const [applicants, routes] = await Promise.all([repo.applicantIds(ids), repo.routes(ids)]);
    return rows.map((row) => ({
      shipment_id: row.shipment_id,
      shipment_no: row.shipment_no,
      user_order_id: row.user_order_id,
      direction: row.direction,
      direction_label: SHIPMENT_DIRECTIONS[row.direction],
      arrangement: row.arrangement,
      arrangement_label: SHIPMENT_ARRANGEMENTS[row.arrangement],
      courier_company: row.courier_company,
      courier_company_name: row.courier_company_name,
      waybill_no: row.waybill_no,
      status: row.status,
      status_label: shipmentStatusLabel(row.status),
      status_at: row.status_at,
      sender: row.sender === null ? null : fromJson(row.sender),
      receiver: fromJson(row.receiver),
      parcel: row.parcel,
      pickup_window: row.pickup_start !== null && row.pickup_end !== null ? { start: row.pickup_start, end: row.pickup_end } : null,
      applicant_ids: applicants.get(row.shipment_id) ?? [],
      created_at: row.created_at,
      cancelled_at: row.cancelled_at,
      routes: routes
        .filter((route) => route.shipment_id === row.shipment_id)
        .map((route) => ({ op_code: route.op_code, status: route.status, remark: route.remark, location: route.location, event_time: route.event_time })),
    }));
  }

  async function view(shipmentId: number): Promise<ShipmentView> {
    const row = await repo.byId(shipmentId);
    if (!row) throw new AppError(ErrorCode.COURIER_SHIPMENT_NOT_FOUND);
    return (await views([row]))[0]!;
  }

  /** Stores events for one shipment and, once committed, announces a status change. */
  async function record(shipmentId: number, routes: readonly NewRoute[], source: RouteSource): Promise<RecordResult> {
    const result = await recordRoutes(db, shipmentId, routes, source, now(), queryAfterMs);
    if (result.to !== result.from) await announcer.announce(shipmentId);
    return result;
  }

  /**
   * Asks the provider for the parcel's events and stores what is new (the
   * fallback for lost pushes). A provider that cannot be reached changes nothing.
   */
  async function refresh(shipment: ShipmentRow): Promise<void> {
    if (shipment.provider !== provider.name) return;
    let routes: CourierRoute[] | null;
    try {
      routes = await provider.queryRoutes(shipment.waybill_no);
    } catch (error) {
      log.warn({ err: error, waybillNo: shipment.waybill_no }, 'courier route query failed');
      return;
    }
    if (routes === null) {
      log.warn({ waybillNo: shipment.waybill_no, shipmentId: shipment.shipment_id }, 'courier provider does not know the waybill');
      return;
    }
    const ours = routes.filter((route) => route.waybill_no === shipment.waybill_no);
    if (ours.length > 0) await record(shipment.shipment_id, ours, 'query');
  }

  return {
    /**
     * The service's receiving address for a consular district (where
     * customers send paper materials; also the sender of passports going
     * home): the district's own, else the central one; null when neither is
     * configured (the order side answers 2089).
     */
    async receivingAddress(consularDistrictId: number | null): Promise<ReceivingAddress | null> {
      const row = await repo.receivingAddress(consularDistrictId);
      if (!row) return null;
      const { updated_at: _updated, ...address } = row;
      return address;
    },

    /**
     * Books a pickup with the provider (outside any transaction: it is a
     * call to the courier company). Nothing is stored: hand the draft to
     * storeShipment inside the lifecycle change, and to cancelBooking if that
     * change fails. Throws 2084/2085/2083/1001 for bad input, 2086 when the
     * provider cannot book.
     */
    async bookPickup(request: PickupRequest): Promise<ShipmentDraft> {
      const common = checkedCommon(request);
      const sender = checkedContact(request.sender, '寄件人');
      const window = { start: request.pickup_window?.start, end: request.pickup_window?.end } as PickupWindow;
      const at = now();
      const problem = pickupWindowProblem(window, at);
      if (problem) throw new AppError(ErrorCode.COURIER_PICKUP_WINDOW_INVALID, problem);
      const shipmentNo = newShipmentNo(at);
      let waybillNo: string;
      try {
        ({ waybill_no: waybillNo } = await provider.createWaybill({
          shipment_no: shipmentNo,
          sender,
          receiver: common.receiver,
          parcel: common.parcel,
          pickup_window: window,
        }));
      } catch (error) {
        log.error({ err: error, userOrderId: common.user_order_id }, 'courier provider refused the pickup');
        // The provider may have booked it all the same (an answer lost on the way): call that booking off, best effort.
        try {
          await provider.cancelWaybill(shipmentNo);
        } catch (cancelError) {
          log.warn({ err: cancelError, shipmentNo }, 'unanswered pickup could not be called off');
        }
        throw new AppError(ErrorCode.COURIER_PROVIDER_UNAVAILABLE);
      }
      return {
        ...common,
        shipment_no: shipmentNo,
        arrangement: 'pickup',
        provider: provider.name,
        courier_company: provider.company,
        courier_company_name: COURIER_COMPANIES[provider.company],
        waybill_no: waybillNo,
        sender,
        pickup_window: { start: window.start, end: window.end },
        created_at: at,
      };
    },

    /**
     * Checks a self-arranged parcel (company from COURIER_COMPANIES, 其他 with
     * a typed name; the waybill number). Nothing is stored: hand the draft to
     * storeShipment. Throws 2081/2082/2084/2085/1001.
     */
    selfExpress(request: SelfExpressRequest): ShipmentDraft {
      const common = checkedCommon(request);
      if (!isCourierCompany(request.courier_company)) throw new AppError(ErrorCode.COURIER_COMPANY_INVALID);
      const company = request.courier_company;
      const typedName = normalizeInputText(request.courier_company_name ?? '');
      if (company === 'OTHER' && (typedName === '' || [...typedName].length > COURIER_LIMITS.companyNameMaxLength)) {
        throw new AppError(ErrorCode.COURIER_COMPANY_INVALID, '请填写快递公司名称（1–20 个字）');
      }
      const waybillNo = normalizeWaybillNo(String(request.waybill_no ?? ''));
      const problem = waybillProblem(company, waybillNo);
      if (problem) throw new AppError(ErrorCode.COURIER_WAYBILL_INVALID, problem);
      return {
        ...common,
        shipment_no: newShipmentNo(now()),
        arrangement: 'self',
        provider: null,
        courier_company: company,
        courier_company_name: company === 'OTHER' ? typedName : COURIER_COMPANIES[company],
        waybill_no: waybillNo,
        sender: request.sender ? checkedContact(request.sender, '寄件人') : null,
        pickup_window: null,
        created_at: now(),
      };
    },

    /**
     * Stores a draft inside the caller's transaction (the lifecycle change's
     * `within`, e.g. mail_send or ship_back): the shipment, the applicants it
     * carries (2085 unless every one is of this order) and, for a
     * self-arranged parcel, its first event ("sent"). Returns the shipment id.
     * The status it starts with is not announced (the caller knows it).
     */
    async storeShipment(trx: Transaction<Database>, draft: ShipmentDraft): Promise<number> {
      const ofOrder = new Set(await repo.applicantIdsOfOrder(trx, draft.user_order_id));
      if (draft.applicant_ids.length === 0 || !draft.applicant_ids.every((id) => ofOrder.has(id))) throw new AppError(ErrorCode.COURIER_APPLICANTS_INVALID);
      const pickup = draft.arrangement === 'pickup';
      const status = pickup ? 'booked' : 'picked_up';
      const { actor, actor_id } = actorOf(draft.by);
      const shipmentId = await repo.insert(
        trx,
        {
          shipment_no: draft.shipment_no,
          user_order_id: draft.user_order_id,
          direction: draft.direction,
          arrangement: draft.arrangement,
          provider: draft.provider,
          courier_company: draft.courier_company,
          courier_company_name: draft.courier_company_name,
          waybill_no: draft.waybill_no,
          sender: draft.sender === null ? null : toJson(draft.sender),
          receiver: toJson(draft.receiver),
          parcel: draft.parcel,
          pickup_start: draft.pickup_window?.start ?? null,
          pickup_end: draft.pickup_window?.end ?? null,
          status,
          status_at: draft.created_at,
          announced_status: status,
          announce_until: null,
          last_route_at: null,
          // Asked about when no push came for a while; self-arranged parcels are not tracked.
          next_query_at: pickup ? draft.created_at + queryAfterMs : null,
          created_by: actor,
          created_by_id: actor_id,
          created_at: draft.created_at,
          updated_at: draft.created_at,
          cancelled_at: null,
        },
        draft.applicant_ids,
      );
      if (!pickup) {
        const who = draft.by.kind === 'customer' ? '客户' : '易签通';
        await trx
          .insertInto('shipment_route')
          .values({
            shipment_id: shipmentId,
            op_code: 'sent',
            event_time: draft.created_at,
            status: 'picked_up',
            remark: `${who}已自行寄出（${draft.courier_company_name} ${draft.waybill_no}）`,
            location: draft.sender?.city_name ?? '',
            provider_route_id: null,
            source: draft.by.kind === 'customer' ? 'customer' : 'operator',
            received_at: draft.created_at,
          })
          .execute();
      }
      return shipmentId;
    },

    /**
     * Calls off a booked pickup whose draft was never stored (the lifecycle
     * change that should have recorded it failed). Best effort: a provider
     * that cannot be reached is logged, never thrown.
     */
    async cancelBooking(draft: ShipmentDraft): Promise<void> {
      if (draft.arrangement !== 'pickup') return;
      try {
        if (!(await provider.cancelWaybill(draft.shipment_no))) log.warn({ shipmentNo: draft.shipment_no }, 'unstored pickup could not be called off');
      } catch (error) {
        log.warn({ err: error, shipmentNo: draft.shipment_no }, 'unstored pickup could not be called off');
      }
    },

    /**
     * Calls a stored pickup off before the courier came (booked only; 2088
     * once it is picked up, after catching up with the provider). Cancelling
     * twice is fine. The change is announced like any other.
     */
    async cancelPickup(shipmentId: number): Promise<ShipmentView> {
      const shipment = await repo.byId(shipmentId);
      if (!shipment) throw new AppError(ErrorCode.COURIER_SHIPMENT_NOT_FOUND);
      if (shipment.status === 'cancelled') return view(shipmentId);
      if (shipment.arrangement !== 'pickup' || shipment.status !== 'booked') throw new AppError(ErrorCode.COURIER_NOT_CANCELLABLE);
      let cancelled: boolean;
      try {
        cancelled = await provider.cancelWaybill(shipment.shipment_no);
      } catch (error) {
        log.warn({ err: error, shipmentId }, 'courier cancel failed');
        throw new AppError(ErrorCode.COURIER_PROVIDER_UNAVAILABLE);
      }
      if (!cancelled || !(await repo.cancel(shipmentId, now()))) {
        await refresh(shipment);
        throw new AppError(ErrorCode.COURIER_NOT_CANCELLABLE);
      }
      await announcer.announce(shipmentId);
      return view(shipmentId);
    },

    /**
     * Records that the parcel arrived, confirmed by a person (the operator
     * who opened it, or the customer who got the passports): an event
     * 'received' that makes it delivered — the way a self-arranged parcel,
     * which no provider tracks, gets there. Delivered already: nothing
     * changes. 2090 for a cancelled pickup.
     */
    async confirmDelivered(shipmentId: number, by: Principal): Promise<ShipmentView> {
      const shipment = await repo.byId(shipmentId);
      if (!shipment) throw new AppError(ErrorCode.COURIER_SHIPMENT_NOT_FOUND);
      if (shipment.status === 'cancelled') throw new AppError(ErrorCode.COURIER_SHIPMENT_CANCELLED);
      if (shipment.status === 'delivered') return view(shipmentId);
      const customer = by.kind === 'customer';
      await record(
        shipmentId,
        [
          {
            op_code: 'received',
            status: 'delivered',
            event_time: now(),
            remark: customer ? '客户已确认收到' : '易签通已签收（工作人员确认）',
            location: fromJson(shipment.receiver).city_name,
            provider_route_id: null,
          },
        ],
        customer ? 'customer' : 'operator',
      );
      return view(shipmentId);
    },

    /** COURIER_ATTENTION_DAYS in ms (the queue's 物流异常 filter asks the same rule). */
    attentionAfterMs,

    /** Why this parcel needs a person now (物流异常), or null — attention.ts. */
    attention(shipment: ShipmentView): Attention | null {
      return attentionOf(shipment, now(), attentionAfterMs);
    },

    /**
     * An operator records what became of a parcel the courier no longer
     * reports on, inside the caller's lifecycle change (return_confirm,
     * return_back): 'delivered' stores the event 'received' (the parcel is
     * delivered, as a confirmed delivery is); 'returned' stores the event
     * 'returned' (it came back to the service: no status of its own, the
     * parcel is no longer tracked nor counted as on its way). The note is
     * the event's remark. Call announce(shipmentId) once the change committed.
     */
    async recordByHand(trx: Transaction<Database>, shipmentId: number, outcome: 'delivered' | 'returned', note: string, at: number): Promise<RecordResult> {
      const shipment = await trx.selectFrom('shipment').select(['receiver', 'status']).where('shipment_id', '=', shipmentId).executeTakeFirst();
      if (!shipment) throw new AppError(ErrorCode.COURIER_SHIPMENT_NOT_FOUND);
      if (shipment.status === 'cancelled') throw new AppError(ErrorCode.COURIER_SHIPMENT_CANCELLED);
      const city = fromJson(shipment.receiver).city_name;
      const route: NewRoute =
        outcome === 'delivered'
          ? { op_code: 'received', status: 'delivered', event_time: at, remark: `易签通登记已签收：${note}`, location: city, provider_route_id: null }
          : { op_code: RETURNED_BY_HAND, status: null, event_time: at, remark: `易签通登记快件已退回：${note}`, location: '', provider_route_id: null };
      return recordRoutesIn(trx, shipmentId, [route], 'operator', at, queryAfterMs, outcome === 'returned');
    },

    /** Tells the order side of a status a committed change reached (after recordByHand). */
    announce: (shipmentId: number) => announcer.announce(shipmentId),

    /** Every parcel of an order, oldest first, with its events (oldest first). */
    async orderShipments(userOrderId: number): Promise<ShipmentView[]> {
      return views(await repo.ofOrder(userOrderId));
    },

    /** One parcel with its events; 2087 when there is none. */
    shipment: view,

    /** Asks the provider about one tracked parcel now (a page's 刷新 button); returns it as it stands. */
    async refreshShipment(shipmentId: number): Promise<ShipmentView> {
      const shipment = await repo.byId(shipmentId);
      if (!shipment) throw new AppError(ErrorCode.COURIER_SHIPMENT_NOT_FOUND);
      if (shipment.status !== 'delivered' && shipment.status !== 'cancelled') await refresh(shipment);
      return view(shipmentId);
    },

    /**
     * Registers a handler told, after the change committed, each time a
     * shipment's status changes (see announcer.ts: once per change, again
     * after a crash or a failure of a handler — make it idempotent). Returns
     * the function that removes it.
     */
    onShipmentStatus(handler: ShipmentStatusHandler): () => void {
      return announcer.on(handler);
    },

    /**
     * The provider's route push: verified, logged in courier_push, its new
     * events stored through the same recordRoutes as the query fallback, and
     * answered in the provider's format (success stops its resending).
     */
    async notify(rawBody: string, headers: HeaderBag): Promise<PushAnswer> {
      const receivedAt = now();
      const log_ = (row: { request_id: string | null; waybill_nos: string[]; signature_valid: boolean; outcome: string; new_routes: number }) =>
        repo
          .recordPush({
            provider: provider.name,
            request_id: row.request_id,
            waybill_nos: row.waybill_nos.length > 0 ? row.waybill_nos.join(',').slice(0, 200) : null,
            body: rawBody.slice(0, 10_000),
            signature_valid: row.signature_valid ? 1 : 0,
            outcome: row.outcome,
            new_routes: row.new_routes,
            received_at: receivedAt,
          })
          .catch((error: unknown) => log.error({ err: error }, 'courier push not recorded'));

      const parsed = provider.parsePush(rawBody, headers);
      if (!parsed.ok) {
        log.warn({ reason: parsed.reason, waybillNos: parsed.waybill_nos }, 'courier push refused');
        await log_({ ...parsed, signature_valid: parsed.reason !== 'bad_signature', outcome: parsed.reason, new_routes: 0 });
        return parsed.reason === 'bad_signature'
          ? provider.answer({ success: false, status: 401, message: '签名错误' })
          : provider.answer({ success: false, status: 400, message: '报文格式错误' });
      }

      const byWaybill = new Map<string, CourierRoute[]>();
      for (const route of parsed.routes) byWaybill.set(route.waybill_no, [...(byWaybill.get(route.waybill_no) ?? []), route]);
      const base = { request_id: parsed.request_id, waybill_nos: [...byWaybill.keys()], signature_valid: true };
      let added = 0;
      const unknown: string[] = [];
      try {
        for (const [waybillNo, routes] of byWaybill) {
          const shipment = await repo.byWaybill(provider.name, waybillNo);
          // The order id, when the push names it, must be ours for that waybill.
          if (!shipment || routes.some((route) => route.shipment_no !== null && route.shipment_no !== shipment.shipment_no)) {
            unknown.push(waybillNo);
            continue;
          }
          added += (await record(shipment.shipment_id, routes, 'push')).added;
        }
      } catch (error) {
        if (!(error instanceof ShipmentMissing)) log.error({ err: error, waybillNos: base.waybill_nos }, 'courier push failed');
        await log_({ ...base, outcome: 'error', new_routes: added });
        return provider.answer({ success: false, status: 500, message: '系统繁忙' });
      }
      if (unknown.length > 0) {
        // Maybe a booking whose shipment is being stored right now: the provider sends it again.
        log.warn({ waybillNos: unknown }, 'courier push for an unknown waybill');
        await log_({ ...base, outcome: 'unknown_waybill', new_routes: added });
        return provider.answer({ success: false, status: 404, message: '运单不存在' });
      }
      await log_({ ...base, outcome: added > 0 ? 'stored' : 'duplicate', new_routes: added });
      return provider.answer({ success: true });
    },

    /**
     * The query fallback: every tracked parcel still on its way that has had
     * no event for COURIER_QUERY_AFTER_MS is asked about (at most `limit`);
     * each query is claimed first, so several instances never ask twice.
     * Returns how many were asked.
     */
    async reconcileDue(limit = 50): Promise<number> {
      const at = now();
      let asked = 0;
      for (const shipment of await repo.dueForQuery(provider.name, at, at - TRACK_FOR_MS, limit)) {
        if (!(await repo.claimQuery(shipment, at + queryAfterMs))) continue;
        asked += 1;
        await refresh(shipment);
      }
      return asked;
    },

    /** Re-tells statuses whose announcement was cut short (a crash, a failing handler); returns how many it looked at. */
    announceDue: announcer.announceDue,
  };
}

export type CourierService = ReturnType<typeof createCourierService>;
