// What the courier module needs from a courier company (SF Express open
// platform style): book a pickup and get the waybill number, call a booking
// off before the courier came, ask for a waybill's tracking events (the
// fallback when pushes go missing), and read the company's signed route push
// and answer it the way the company expects. COURIER_PROVIDER picks the
// implementation: the sandbox (the default) or SF Express (sf-provider.ts).
import type { CourierCompany, CourierContact, ShipmentStatus } from '../../../common/courier.ts';

export interface CreateWaybillInput {
  /** Our number for the parcel (shipment.shipment_no). Creating again with it answers the same waybill. */
  shipment_no: string;
  sender: CourierContact;
  receiver: CourierContact;
  /** What the parcel holds (the waybill's cargo name). */
  parcel: string;
  /** When the courier should come (epoch ms). */
  pickup_window: { start: number; end: number };
}

/** One tracking event, whatever the provider's own format. */
export interface CourierRoute {
  waybill_no: string;
  /** Our shipment_no when the provider repeats it (SF's orderid), else null. */
  shipment_no: string | null;
  /** The provider's event code (SF opCode). */
  op_code: string;
  /** The status the event means, or null when it moves nothing. */
  status: Exclude<ShipmentStatus, 'booked' | 'cancelled'> | null;
  /** When it happened, by the courier's clock (epoch ms). */
  event_time: number;
  remark: string;
  location: string;
  /** The provider's id of the event, for the record. */
  provider_route_id: string | null;
}

export type ParsedPush =
  | { ok: true; request_id: string | null; routes: CourierRoute[] }
  | {
      ok: false;
      /** bad_signature: not from the provider (or too old); malformed: signed but unreadable. */
      reason: 'bad_signature' | 'malformed';
      /** Whatever could be read, for the record only (never trusted). */
      request_id: string | null;
      waybill_nos: string[];
    };

/** The HTTP answer the provider expects to a push. */
export interface PushAnswer {
  status: number;
  contentType: string;
  body: string;
}

export type HeaderBag = Record<string, string | string[] | undefined>;

/** The provider could not be reached or refused the call; nothing was booked or changed. */
export class CourierProviderError extends Error {}

export interface CourierProvider {
  /** Stored in shipment.provider and used in the push path /courier/notify/{name}. */
  readonly name: string;
  /** The courier company it books (the shipment's courier_company). */
  readonly company: Exclude<CourierCompany, 'OTHER'>;
  /** Books a pickup; throws CourierProviderError when it cannot. */
  createWaybill(input: CreateWaybillInput): Promise<{ waybill_no: string }>;
  /**
   * Calls off a booking the courier has not picked up yet. false: too late
   * (the parcel is on its way) — or no such booking. Throws CourierProviderError
   * when the provider cannot be asked.
   */
  cancelWaybill(shipmentNo: string): Promise<boolean>;
  /** The waybill's tracking events so far; null when the provider does not know it. Throws CourierProviderError. */
  queryRoutes(waybillNo: string): Promise<CourierRoute[] | null>;
  parsePush(rawBody: string, headers: HeaderBag): ParsedPush;
  /** success: the provider stops resending this push; otherwise it retries later. */
  answer(result: { success: true } | { success: false; status: 400 | 401 | 404 | 500; message: string }): PushAnswer;
}
