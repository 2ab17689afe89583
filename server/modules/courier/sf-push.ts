// Reading SF's route push (RoutePushService): the signed form checked with
// the check word (sandbox-signature.ts), its msgData parsed into our
// CourierRoute. The sandbox and the real SF provider read pushes the same
// way — the sandbox signs exactly as SF does — so both call this.
import type { CourierRoute, ParsedPush } from './provider.ts';
import { type SfSigner, verifySfForm } from './sandbox-signature.ts';
import { SF_ROUTE_PUSH_SERVICE, parseAcceptTime, sfOpCodeStatus, sfRoutePushSchema } from './sf-format.ts';

/** Whatever waybill numbers a refused push names (for the record only). */
export function waybillNosOf(msgData: string | null): string[] {
  if (msgData === null) return [];
  try {
    const routes = (JSON.parse(msgData) as { Body?: { WaybillRoute?: Array<{ mailno?: unknown }> } }).Body?.WaybillRoute;
    if (!Array.isArray(routes)) return [];
    return [...new Set(routes.map((route) => route?.mailno).filter((no): no is string => typeof no === 'string' && /^[A-Za-z0-9]{1,40}$/.test(no)))].slice(
      0,
      5,
    );
  } catch {
    return [];
  }
}

/** A push as our routes: refused when the signature (partner, service, digest, time) fails or the body is not SF's. */
export function parseSfRoutePush(signer: SfSigner, rawBody: string, nowMs: number): ParsedPush {
  const verified = verifySfForm(signer, SF_ROUTE_PUSH_SERVICE, rawBody, nowMs);
  if (!verified.ok) return { ok: false, reason: 'bad_signature', request_id: verified.requestId, waybill_nos: waybillNosOf(verified.msgData) };
  const malformed: ParsedPush = { ok: false, reason: 'malformed', request_id: verified.requestId, waybill_nos: waybillNosOf(verified.msgData) };
  let parsed: ReturnType<typeof sfRoutePushSchema.safeParse>;
  try {
    parsed = sfRoutePushSchema.safeParse(JSON.parse(verified.msgData));
  } catch {
    return malformed;
  }
  if (!parsed.success) return malformed;
  const routes: CourierRoute[] = [];
  for (const route of parsed.data.Body.WaybillRoute) {
    const eventTime = parseAcceptTime(route.acceptTime);
    if (eventTime === null) return malformed;
    routes.push({
      waybill_no: route.mailno.toUpperCase(),
      shipment_no: route.orderid ?? null,
      op_code: route.opCode,
      status: sfOpCodeStatus(route.opCode),
      event_time: eventTime,
      remark: route.remark,
      location: route.acceptAddress ?? '',
      provider_route_id: route.id,
    });
  }
  return { ok: true, request_id: verified.requestId, routes };
}

/** SF's answer to a push: return_code 0000 stops its resending. */
export function sfPushAnswer(result: { success: true } | { success: false; status: number; message: string }) {
  const body = result.success ? { return_code: '0000', return_msg: '成功' } : { return_code: '1000', return_msg: result.message };
  return { status: result.success ? 200 : result.status, contentType: 'application/json; charset=utf-8', body: JSON.stringify(body) };
}
