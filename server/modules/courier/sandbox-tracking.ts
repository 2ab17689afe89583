// The journey of every sandbox parcel: 揽收 → 运输中 (two scans) → 派送中 →
// 签收, one event every step_ms after the booking (COURIER_SANDBOX_STEP_MS:
// seconds in development, so a whole journey is watched in under half a
// minute). Computed from the ledger row, never stored: the pushes and the
// route query both read this one timeline, so they always agree.
import { formatAcceptTime } from './sf-format.ts';

export interface SandboxEvent {
  /** Index in the timeline; also part of the event's id. */
  index: number;
  opCode: string;
  at: number;
  /** SF's acceptTime for `at`. */
  acceptTime: string;
  acceptAddress: string;
  remark: string;
}

export interface SandboxJourney {
  waybill_no: string;
  origin_city: string;
  destination_city: string;
  created_at: number;
  step_ms: number;
  cancelled_at: number | null;
}

/** A courier's name and number for the 派送中 remark, fixed per waybill. */
function deliveryCourier(waybillNo: string): { name: string; phone: string } {
  const surnames = ['王', '李', '张', '刘', '陈', '杨', '赵', '黄'];
  const digits = waybillNo.replace(/\D/g, '').padStart(8, '0');
  return { name: `${surnames[Number(digits.slice(-1)) % surnames.length]}师傅`, phone: `1391${digits.slice(-7)}` };
}

export const SANDBOX_EVENT_COUNT = 5;

export function sandboxTimeline(journey: SandboxJourney): SandboxEvent[] {
  // Hubs are named without 市, the way SF names them (【上海集散中心】).
  const from = journey.origin_city.replace(/市$/, '');
  const to = journey.destination_city.replace(/市$/, '');
  const courier = deliveryCourier(journey.waybill_no);
  const steps: Array<Omit<SandboxEvent, 'index' | 'at' | 'acceptTime'>> = [
    { opCode: '50', acceptAddress: journey.origin_city, remark: '顺丰速运 已收取快件' },
    { opCode: '30', acceptAddress: journey.origin_city, remark: `快件在【${from}集散中心】完成分拣，准备发往【${to}集散中心】` },
    { opCode: '31', acceptAddress: journey.destination_city, remark: `快件到达【${to}集散中心】` },
    { opCode: '44', acceptAddress: journey.destination_city, remark: `快件交给${courier.name}，正在派送途中（联系电话：${courier.phone}）` },
    { opCode: '80', acceptAddress: journey.destination_city, remark: '已签收，感谢使用顺丰，期待再次为您服务' },
  ];
  return steps.map((step, index) => {
    // Whole seconds, like SF's acceptTime: what is pushed and what is queried are the same instant.
    const at = Math.floor((journey.created_at + (index + 1) * journey.step_ms) / 1000) * 1000;
    return { ...step, index, at, acceptTime: formatAcceptTime(at) };
  });
}

/** The events that have happened by `now` (none after a cancellation, which is only possible before the first). */
export function sandboxEventsSoFar(journey: SandboxJourney, now: number): SandboxEvent[] {
  if (journey.cancelled_at !== null) return [];
  return sandboxTimeline(journey).filter((event) => event.at <= now);
}

/** The provider's id of an event (SF's route id): stable, so every repeat carries the same one. */
export function sandboxRouteId(waybillNo: string, event: SandboxEvent): string {
  return `${waybillNo.replace(/\D/g, '')}${String(event.index + 1).padStart(2, '0')}`;
}
